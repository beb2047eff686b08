import { readUsageStoreConfig, type UsageStoreConfig } from './usage-config.js';
import { existsSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { OPERATOR_COMMAND } from './commands.js';
import { parseCommandLine } from './command-line.js';
import { encryptionKeyFrom, inlineOrFile } from './file-inputs.js';
import { ConfigError } from './config-error.js';
import { checkRedisUrl } from './redis-url-check.js';
import { readOtelConfig, type OtelConfig } from './otel-config.js';
import { envText } from './env-settings.js';

/** Where the operator finds the API server: a kubeconfig file, or the Pod's service account. */
export type KubeSource = { readonly kind: 'file'; readonly path: string } | { readonly kind: 'in-cluster' };

export interface OperatorConfig {
  readonly redisUrl: string;
  /** PEM of an extra CA for rediss:// (GW_REDIS_TLS_CA_FILE). */
  readonly redisTlsCa: string | null;
  /** Redis password given apart from the URL (GW_REDIS_PASSWORD or a mounted file), as the data planes take it. */
  readonly redisPassword: string | null;
  /** AES-256-GCM key for provider secrets at rest in Redis; the data planes hold the same key. */
  readonly encryptionKey: Buffer;
  readonly kube: KubeSource;
  /** Watch and reconcile only this namespace; null means every namespace. */
  readonly namespace: string | null;
  readonly leaseName: string;
  readonly leaseNamespace: string;
  readonly identity: string;
  readonly leaseDurationSeconds: number;
  readonly resyncSeconds: number;
  readonly adminHost: string;
  readonly adminPort: number;
  /** Namespaces reconciled at once (one namespace is never reconciled twice at once). */
  readonly workers: number;
  readonly logLevel: string;
  /** OpenTelemetry export of the reconcile spans; off unless an endpoint is configured. */
  readonly otel: OtelConfig;
  /** PostgreSQL for Usage and Logs: with a URL the operator also runs the usage exporter. */
  readonly usage: UsageStoreConfig;
}

const IN_CLUSTER_TOKEN = '/var/run/secrets/kubernetes.io/serviceaccount/token';
const IN_CLUSTER_NAMESPACE = '/var/run/secrets/kubernetes.io/serviceaccount/namespace';
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;

function integer(raw: string | undefined, fallback: number, name: string, min: number, max: number, problems: string[]): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) problems.push(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  return n;
}

export interface OperatorEnvironment {
  /** The running Pod's namespace file, when there is one (read only for defaults). */
  readonly inClusterNamespaceFile?: string;
  readonly inClusterTokenFile?: string;
  readonly hostname?: string;
  readonly pid?: number;
}

/**
 * The only place `gw operator` reads argv and the environment: the command
 * line parsed strictly (a UsageError), then validated once, every problem
 * reported together (a ConfigError), then frozen.
 */
export function readOperatorConfig(argv: readonly string[], env: NodeJS.ProcessEnv, where: OperatorEnvironment = {}): OperatorConfig {
  const args = parseCommandLine(OPERATOR_COMMAND, argv, env);
  const problems: string[] = [];

  const redisUrl = args.value('redis') ?? '';
  if (redisUrl === '') problems.push('--redis URL (or GW_REDIS_URL) is required: the state the data planes read');
  else checkRedisUrl(redisUrl, problems);
  const redisTlsCa = inlineOrFile(undefined, args.value('redis-tls-ca-file'), '--redis-tls-ca-file', problems, false);
  const redisPassword = inlineOrFile(envText(env, 'GW_REDIS_PASSWORD'), args.value('redis-password-file'), '--redis-password-file', problems);
  const keyText = inlineOrFile(envText(env, 'GW_ENCRYPTION_KEY'), args.value('encryption-key-file'), '--encryption-key-file', problems);
  if (keyText === null && !args.value('encryption-key-file')) {
    problems.push('an encryption key for provider secrets is required: GW_ENCRYPTION_KEY or --encryption-key-file (base64 of 32 bytes, the one the data planes use)');
  }
  const encryptionKey = encryptionKeyFrom(keyText, problems) ?? Buffer.alloc(0);

  const tokenFile = where.inClusterTokenFile ?? IN_CLUSTER_TOKEN;
  const kubeconfig = args.value('kubeconfig');
  let kube: KubeSource = { kind: 'in-cluster' };
  if (kubeconfig) {
    // KUBECONFIG may list several files; the operator takes the first, as its own flag names one.
    const path = kubeconfig.split(':')[0] as string;
    if (!existsSync(path)) problems.push(`--kubeconfig ${path}: no such file`);
    kube = { kind: 'file', path };
  } else if (!env.KUBERNETES_SERVICE_HOST || !existsSync(tokenFile)) {
    problems.push('no cluster to talk to: give --kubeconfig FILE (or KUBECONFIG), or run in a Pod with a service account');
  }

  const namespace = args.value('namespace') ?? null;
  if (namespace !== null && !DNS_LABEL.test(namespace)) problems.push(`--namespace must be a namespace name, got "${namespace}"`);
  let podNamespace: string | null = env.POD_NAMESPACE ?? null;
  if (podNamespace === null) {
    const file = where.inClusterNamespaceFile ?? IN_CLUSTER_NAMESPACE;
    if (existsSync(file)) podNamespace = readFileSync(file, 'utf8').trim() || null;
  }
  const leaseNamespace = args.value('lease-namespace') ?? podNamespace ?? namespace ?? 'default';
  if (!DNS_LABEL.test(leaseNamespace)) problems.push(`--lease-namespace must be a namespace name, got "${leaseNamespace}"`);
  const leaseName = args.value('lease-name') ?? 'gw-operator';
  if (!DNS_SUBDOMAIN.test(leaseName)) problems.push(`--lease-name must be a DNS-1123 name, got "${leaseName}"`);
  const identity = args.value('identity') ?? `${where.hostname ?? hostname()}_${where.pid ?? process.pid}`;
  if (identity === '' || identity.length > 128) problems.push('--identity must be 1 to 128 characters');

  const leaseDurationSeconds = integer(args.value('lease-duration-seconds'), 15, '--lease-duration-seconds', 2, 300, problems);
  const resyncSeconds = integer(args.value('resync-seconds'), 60, '--resync-seconds', 1, 86_400, problems);
  const adminPort = integer(args.value('admin-port'), 9091, '--admin-port', 0, 65_535, problems);
  const workers = integer(args.value('workers'), 4, '--workers', 1, 64, problems);

  const otel = readOtelConfig(env, args.value('otel-config'), 'gw-operator', problems);
  // --postgres runs the usage exporter beside the reconciler (one active across every process, by lease).
  const usage = readUsageStoreConfig(args, env, problems);

  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze({
    redisUrl,
    redisTlsCa,
    redisPassword,
    encryptionKey,
    kube: Object.freeze(kube),
    namespace,
    leaseName,
    leaseNamespace,
    identity,
    leaseDurationSeconds,
    resyncSeconds,
    adminHost: args.value('admin-host') ?? '0.0.0.0',
    adminPort,
    workers,
    logLevel: args.value('log-level') ?? 'info',
    usage,
    otel,
  });
}
