import type { HealthMonitorOptions } from '../credentials/health-monitor.js';
import { DEFAULT_PIPELINE_CONFIG, type PipelineConfig } from '../pipeline/config.js';
import { EXTPROC_COMMAND, SERVE_COMMAND } from './commands.js';
import { parseCommandLine } from './command-line.js';
import { encryptionKeyFrom, inlineOrFile } from './file-inputs.js';
import { ConfigError } from './config-error.js';
import { checkRedisUrl, readRedisConfirm, type RedisConfirmConfig } from './redis-url-check.js';
import { readOtelConfig, type OtelConfig } from './otel-config.js';
import { readUsageStoreConfig, type UsageStoreConfig } from './usage-config.js';
import { envDefault, envNumber, envText } from './env-settings.js';

export interface ServeConfig {
  /**
   * Resource documents to apply to state. Null only with Redis: then the
   * operator is the writer and this process only reads (the cluster layout).
   */
  readonly file: string | null;
  readonly host: string;
  readonly port: number;
  /** gw extproc: serve gRPC on this Unix socket instead of host:port (the sidecar layout). */
  readonly socketPath: string | null;
  /** gw extproc: the gRPC server under the ext_proc service (src/extproc/extproc-server.ts). */
  readonly grpcTransport: GrpcTransport;
  readonly adminHost: string;
  readonly adminPort: number;
  /** sha256 of the admin bearer token; null disables the admin API (metrics and health stay up). */
  readonly adminToken: string | null;
  readonly redisUrl: string | null;
  /** PEM of an extra CA for rediss:// (GW_REDIS_TLS_CA_FILE). */
  readonly redisTlsCa: string | null;
  /** Redis password given apart from the URL (GW_REDIS_PASSWORD or a mounted file), so it need not be URL-safe. */
  readonly redisPassword: string | null;
  /** AES-256-GCM key for provider secrets at rest in Redis (32 bytes). */
  readonly encryptionKey: Buffer | null;
  /** Usage records held until a replica has them (GW_REDIS_CONFIRM_REPLICAS, GW_REDIS_CONFIRM_TIMEOUT_MS). */
  readonly redisConfirm: RedisConfirmConfig;
  readonly pipeline: PipelineConfig;
  readonly shutdownGraceMs: number;
  readonly upstreamHeadersTimeoutMs: number;
  readonly upstreamBodyTimeoutMs: number;
  /** gw serve's own connection bounds (Envoy has its own in front of gw extproc). */
  readonly connections: ConnectionLimits;
  /** Key checks that confirm a suspected rejection, and the recovery probes' backoff. */
  readonly healthChecks: HealthMonitorOptions;
  readonly logLevel: string;
  /** The environment `${VAR}` references in the -f file expand from (read once here, like every other input). */
  readonly resourceEnv: NodeJS.ProcessEnv;
  /** OpenTelemetry export; both signals null (off) unless an endpoint is configured. */
  readonly otel: OtelConfig;
  readonly usage: UsageStoreConfig;
  /** Who reads the Usage and Logs API besides the global admin token. */
  readonly adminAccess: AdminAccessConfig;
  /** Worker threads that scan large request bodies for secrets (GW_REDACTION_WORKERS). */
  readonly redactionWorkers: number;
  /** Quiet time before one full collection gives memory back; 0: never (GW_IDLE_COLLECT_AFTER_MS, idle-memory.ts). */
  readonly idleCollectAfterMs: number;
}

export interface AdminAccessConfig {
  /** YAML list of admin tokens scoped to companies (--admin-tokens-file, GW_ADMIN_TOKENS_FILE). */
  readonly scopedTokensFile: string | null;
  /** `kubernetes`: Kubernetes bearer tokens, TokenReview + SubjectAccessReview (--admin-auth). */
  readonly kubernetes: boolean;
  /** Out of cluster: the kubeconfig to reach the API server with; in a Pod, its service account. */
  readonly kubeconfig: string | null;
}

/** Every caller connection of gw serve is bounded by these (docs/resilience.md). */
export interface ConnectionLimits {
  /** The request head must arrive within this (408 beyond). */
  readonly headersTimeoutMs: number;
  /** The whole request (head and body) must arrive within this (408 beyond). */
  readonly requestTimeoutMs: number;
  /** An upload must deliver at least this many bytes per second, measured over each window (408 below). */
  readonly bodyMinBytesPerSecond: number;
  readonly bodyRateWindowMs: number;
  /** A caller that reads none of a streamed answer for this long is cut off. */
  readonly writeIdleTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  readonly keepAliveTimeoutMs: number;
  /** Open connections from one remote address (429 beyond). */
  readonly maxConnectionsPerAddress: number;
}

/** The defaults are the environment settings' own (env-settings.ts). */
export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = Object.freeze({
  headersTimeoutMs: envDefault('GW_HEADERS_TIMEOUT_MS'),
  requestTimeoutMs: envDefault('GW_REQUEST_TIMEOUT_MS'),
  bodyMinBytesPerSecond: envDefault('GW_BODY_MIN_BYTES_PER_SECOND'),
  bodyRateWindowMs: envDefault('GW_BODY_RATE_WINDOW_MS'),
  writeIdleTimeoutMs: envDefault('GW_WRITE_IDLE_TIMEOUT_MS'),
  keepAliveTimeoutMs: envDefault('GW_KEEPALIVE_TIMEOUT_MS'),
  maxConnectionsPerAddress: envDefault('GW_MAX_CONNECTIONS_PER_ADDRESS'),
});

function port(raw: string | undefined, fallback: number, name: string, problems: string[]): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535) problems.push(`${name} must be a port number (0-65535), got "${raw}"`);
  return n;
}

/** Which gRPC server carries gw extproc's service: grpc-js, or the gateway's own on node:http2. */
export const GRPC_TRANSPORTS = ['grpc-js', 'http2'] as const;
export type GrpcTransport = (typeof GRPC_TRANSPORTS)[number];

function grpcTransport(raw: string | undefined, problems: string[]): GrpcTransport {
  if (raw === undefined) return 'grpc-js';
  if ((GRPC_TRANSPORTS as readonly string[]).includes(raw)) return raw as GrpcTransport;
  problems.push(`--grpc-transport must be ${GRPC_TRANSPORTS.map((t) => `"${t}"`).join(' or ')}, got "${raw}"`);
  return 'grpc-js';
}

function positive(raw: string | undefined, fallback: number, name: string, problems: string[]): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) problems.push(`${name} must be a positive number, got "${raw}"`);
  return n;
}

/**
 * The only place `gw serve` (and `gw extproc`) read argv and the
 * environment: the command line parsed strictly (a UsageError), then the
 * values validated once, every problem reported together (a ConfigError),
 * then frozen.
 */
export function readServeConfig(argv: readonly string[], env: NodeJS.ProcessEnv, command: 'serve' | 'extproc' = 'serve'): ServeConfig {
  const args = parseCommandLine(command === 'serve' ? SERVE_COMMAND : EXTPROC_COMMAND, argv, env);
  const problems: string[] = [];
  const file = args.value('file') ?? null;
  const redisGiven = args.value('redis') !== undefined;
  if (!file && !redisGiven) problems.push('-f FILE (or GW_CONFIG) is required without --redis: the resource documents to serve');
  const prefix = args.value('prefix') ?? '';
  if (prefix !== '' && !/^\/[A-Za-z0-9._~\-/]*[^/]$/.test(prefix)) problems.push(`--prefix must start with / and not end with /, got "${prefix}"`);
  const adminToken = inlineOrFile(envText(env, 'GW_ADMIN_TOKEN'), args.value('admin-token-file'), '--admin-token-file', problems);
  if (adminToken !== null && adminToken.length < 16) problems.push('the admin token must be at least 16 characters');
  const redisUrl = args.value('redis') ?? null;
  const redisTopology = redisUrl !== null ? checkRedisUrl(redisUrl, problems) : null;
  const redisTlsCa = inlineOrFile(undefined, args.value('redis-tls-ca-file'), '--redis-tls-ca-file', problems, false);
  const redisPassword = inlineOrFile(envText(env, 'GW_REDIS_PASSWORD'), args.value('redis-password-file'), '--redis-password-file', problems);
  const encryptionKeyText = inlineOrFile(envText(env, 'GW_ENCRYPTION_KEY'), args.value('encryption-key-file'), '--encryption-key-file', problems);
  const encryptionKey = encryptionKeyFrom(encryptionKeyText, problems);
  if (redisUrl !== null && encryptionKeyText === null) problems.push('--redis needs an encryption key for provider secrets: GW_ENCRYPTION_KEY or --encryption-key-file');
  const adminAuth = args.value('admin-auth') ?? 'token';
  if (adminAuth !== 'token' && adminAuth !== 'kubernetes') problems.push(`--admin-auth must be "token" or "kubernetes", got "${adminAuth}"`);
  const maxBodyMb = positive(args.value('max-body-mb'), DEFAULT_PIPELINE_CONFIG.maxBodyBytes / 1024 / 1024, '--max-body-mb', problems);
  const config: ServeConfig = {
    file: file || null,
    host: args.value('host') ?? '127.0.0.1',
    port: port(args.value('port'), command === 'serve' ? 8080 : 9002, '--port', problems),
    socketPath: (args.declares('socket') ? args.value('socket') : undefined) ?? null,
    grpcTransport: grpcTransport(args.declares('grpc-transport') ? args.value('grpc-transport') : undefined, problems),
    adminHost: args.value('admin-host') ?? '127.0.0.1',
    adminPort: port(args.value('admin-port'), 9090, '--admin-port', problems),
    adminToken,
    redisUrl,
    redisTlsCa,
    redisPassword,
    encryptionKey,
    redisConfirm: readRedisConfirm(redisTopology, env, problems),
    pipeline: Object.freeze({
      ...DEFAULT_PIPELINE_CONFIG,
      pathPrefix: prefix,
      maxBodyBytes: Math.round(maxBodyMb * 1024 * 1024),
      leaseTtlMs: envNumber(env, 'GW_LEASE_TTL_MS', problems),
      slotTtlMs: envNumber(env, 'GW_SLOT_TTL_MS', problems),
      maxRequestHeaders: envNumber(env, 'GW_MAX_REQUEST_HEADERS', problems),
      maxRequestHeaderBytes: envNumber(env, 'GW_MAX_REQUEST_HEADER_BYTES', problems),
    }),
    shutdownGraceMs: positive(args.value('shutdown-grace-ms'), 30_000, '--shutdown-grace-ms', problems),
    upstreamHeadersTimeoutMs: envNumber(env, 'GW_UPSTREAM_HEADERS_TIMEOUT_MS', problems),
    upstreamBodyTimeoutMs: envNumber(env, 'GW_UPSTREAM_BODY_TIMEOUT_MS', problems),
    connections: Object.freeze({
      headersTimeoutMs: envNumber(env, 'GW_HEADERS_TIMEOUT_MS', problems),
      requestTimeoutMs: envNumber(env, 'GW_REQUEST_TIMEOUT_MS', problems),
      bodyMinBytesPerSecond: envNumber(env, 'GW_BODY_MIN_BYTES_PER_SECOND', problems),
      bodyRateWindowMs: envNumber(env, 'GW_BODY_RATE_WINDOW_MS', problems),
      writeIdleTimeoutMs: envNumber(env, 'GW_WRITE_IDLE_TIMEOUT_MS', problems),
      keepAliveTimeoutMs: envNumber(env, 'GW_KEEPALIVE_TIMEOUT_MS', problems),
      maxConnectionsPerAddress: envNumber(env, 'GW_MAX_CONNECTIONS_PER_ADDRESS', problems),
    }),
    healthChecks: Object.freeze({
      minCheckIntervalMs: envNumber(env, 'GW_KEY_CHECK_INTERVAL_MS', problems),
      probeInitialMs: envNumber(env, 'GW_KEY_PROBE_INITIAL_MS', problems),
      probeMaxMs: envNumber(env, 'GW_KEY_PROBE_MAX_MS', problems),
    }),
    logLevel: envText(env, 'GW_LOG_LEVEL') ?? 'info',
    resourceEnv: Object.freeze({ ...env }),
    otel: readOtelConfig(env, args.value('otel-config'), `gw-${command}`, problems),
    usage: readUsageStoreConfig(args, env, problems),
    adminAccess: Object.freeze({
      scopedTokensFile: args.value('admin-tokens-file') ?? null,
      kubernetes: adminAuth === 'kubernetes',
      kubeconfig: args.value('kubeconfig') ?? null,
    }),
    redactionWorkers: Math.round(envNumber(env, 'GW_REDACTION_WORKERS', problems)),
    idleCollectAfterMs: envNumber(env, 'GW_IDLE_COLLECT_AFTER_MS', problems),
  };
  if (config.connections.headersTimeoutMs > config.connections.requestTimeoutMs) {
    problems.push(`GW_HEADERS_TIMEOUT_MS (${config.connections.headersTimeoutMs}) must not exceed GW_REQUEST_TIMEOUT_MS (${config.connections.requestTimeoutMs})`);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config);
}
