import { ConfigError } from '../config/load-resources.js';
import { readOperatorConfig, type OperatorConfig } from '../config/operator-config.js';
import { createLogger } from '../observability/logger.js';
import { runOperator } from '../operator/run-operator.js';
import type { CliIo } from './io.js';
import { runUntilSignalled } from './lifecycle.js';

export const OPERATOR_USAGE = `gw operator: reconcile GatewayToken, ProviderCredential and GatewaySettings into the Redis the data planes read

usage: gw operator --redis URL [options]      (docs/operator.md has the details)

  --redis URL                   GW_REDIS_URL              the data planes' Redis (rediss:// for TLS, ?cluster=true for Cluster); required
  --encryption-key-file F       GW_ENCRYPTION_KEY[_FILE]  base64 of 32 bytes, the data planes' key; required
  --redis-tls-ca-file F         GW_REDIS_TLS_CA_FILE      extra CA for rediss://
  --redis-password-file F       GW_REDIS_PASSWORD[_FILE]  Redis password apart from the URL
  --kubeconfig F                KUBECONFIG                default: the Pod's service account
  --namespace NS, -n NS         GW_WATCH_NAMESPACE        watch one namespace only (default: all)
  --lease-name N                GW_LEASE_NAME             default gw-operator
  --lease-namespace NS          GW_LEASE_NAMESPACE        default: the Pod's namespace, else --namespace, else default;
                                                          the revocation ledger (ConfigMaps gw-revocations-*) lives there too
  --identity ID                 GW_OPERATOR_IDENTITY      default <hostname>_<pid>
  --lease-duration-seconds N    GW_LEASE_DURATION_SECONDS default 15
  --resync-seconds N            GW_RESYNC_SECONDS         default 60
  --admin-port N, --admin-host H  GW_ADMIN_PORT, GW_ADMIN_HOST  default 9091, 0.0.0.0 (/healthz, /readyz, /metrics)
  --workers N                   GW_OPERATOR_WORKERS       namespaces reconciled at once, default 4
  --log-level L                 GW_LOG_LEVEL              default info
  --help, -h                                              this text
`;

/** `gw operator`: watch the cluster's resources and reconcile them into Redis. */
export async function runOperatorCommand(argv: readonly string[], io: CliIo): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout.write(OPERATOR_USAGE);
    return 0;
  }
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
