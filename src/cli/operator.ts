import { ConfigError } from '../config/config-error.js';
import { readOperatorConfig, type OperatorConfig } from '../config/operator-config.js';
import { createLogger } from '../observability/logger.js';
import { runOperator } from '../operator/run-operator.js';
import type { CliIo } from './io.js';
import { runUntilSignalled } from './lifecycle.js';

/** `gw operator`: watch the cluster's resources and reconcile them into Redis. */
export async function runOperatorCommand(argv: readonly string[], io: CliIo): Promise<number> {
  let config: OperatorConfig;
  try {
    config = readOperatorConfig(argv, io.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr.write(`gw operator: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  let operator;
  try {
    operator = await runOperator(config, { logger });
  } catch (error) {
    io.stderr.write(`gw operator: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  const scope = config.namespace === null ? 'every namespace' : `namespace ${config.namespace}`;
  io.stdout.write(`gw operator: watching ${scope} as ${config.identity}, lease ${config.leaseNamespace}/${config.leaseName}, admin on ${operator.adminUrl}\n`);
  await runUntilSignalled(logger, operator);
  return 0;
}
