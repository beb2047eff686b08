import { aiProviderSamples } from './ai-providers.js';
import { cloudSamples } from './cloud.js';
import { connectionStringSamples } from './connection-strings.js';
import { genericSamples } from './generic.js';
import { httpAuthSamples } from './http-auth.js';
import { infrastructureSamples } from './infrastructure.js';
import { keySamples } from './keys.js';
import { kubernetesSamples } from './kubernetes.js';
import { messagingSamples } from './messaging.js';
import { observabilitySamples } from './observability.js';
import { packageRegistrySamples } from './package-registries.js';
import { paymentSamples } from './payments.js';
import { productivitySamples } from './productivity.js';
import { serviceSamples } from './services.js';
import { commandLineSamples } from './command-line.js';
import { shapeSamples } from './shapes.js';
import { sourceHostingSamples } from './source-hosting.js';
// Imported last: the fake values come from one seeded stream, so a family
// imported earlier would change every later family's values.
import { contextSamples } from './context.js';
// New families come after it, so the values above stay as they were.
import { cliToolSamples } from './cli-tools.js';
import { patNameSamples } from './pat-names.js';
import { cookieSamples } from './cookies.js';
import type { SampleTable } from './types.js';

export const SAMPLE_FAMILIES: Readonly<Record<string, SampleTable>> = {
  cloud: cloudSamples,
  'source hosting and CI': sourceHostingSamples,
  messaging: messagingSamples,
  payments: paymentSamples,
  'AI providers': aiProviderSamples,
  'package registries': packageRegistrySamples,
  keys: keySamples,
  'connection strings': connectionStringSamples,
  'HTTP auth': httpAuthSamples,
  infrastructure: infrastructureSamples,
  observability: observabilitySamples,
  productivity: productivitySamples,
  kubernetes: kubernetesSamples,
  generic: genericSamples,
  'services (table)': serviceSamples,
  'command lines and logs': commandLineSamples,
  'shapes (XML, flags, service names, structured tokens)': shapeSamples,
  'names in context (key, token, secret)': contextSamples,
  'command-line tools (their documented password options)': cliToolSamples,
  'names ending in PAT (personal access tokens)': patNameSamples,
  'session cookies': cookieSamples,
};
