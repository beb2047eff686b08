import type { Rule } from '../rule.js';
import { aiProviderRules } from './ai-providers.js';
import { cloudRules } from './cloud.js';
import { cliToolRules } from './cli-tools.js';
import { commandLineRules } from './command-line.js';
import { connectionStringRules } from './connection-strings.js';
import { contextRules } from './context.js';
import { gatewayRules } from './gateway.js';
import { genericRules } from './generic.js';
import { httpAuthRules } from './http-auth.js';
import { infrastructureRules } from './infrastructure.js';
import { keyRules } from './keys.js';
import { kubernetesRules } from './kubernetes.js';
import { messagingRules } from './messaging.js';
import { observabilityRules } from './observability.js';
import { packageRegistryRules } from './package-registries.js';
import { paymentRules } from './payments.js';
import { serviceRules } from './services.js';
import { shapeRules } from './shapes.js';
import { productivityRules } from './productivity.js';
import { sourceHostingRules } from './source-hosting.js';

/** Every rule, by family. Order does not matter: overlaps resolve by specificity. */
export const ALL_RULES: readonly Rule[] = Object.freeze([
  ...gatewayRules,
  ...cloudRules,
  ...sourceHostingRules,
  ...messagingRules,
  ...paymentRules,
  ...aiProviderRules,
  ...packageRegistryRules,
  ...keyRules,
  ...connectionStringRules,
  ...httpAuthRules,
  ...infrastructureRules,
  ...observabilityRules,
  ...productivityRules,
  ...kubernetesRules,
  ...serviceRules,
  ...commandLineRules,
  ...cliToolRules,
  ...shapeRules,
  ...genericRules,
  ...contextRules,
]);
