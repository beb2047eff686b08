import { DEFAULT_PIPELINE_CONFIG, type PipelineConfig } from '../pipeline/config.js';
import { parseArgs } from './args.js';
import { encryptionKeyFrom, inlineOrFile } from './file-inputs.js';
import { ConfigError } from './load-resources.js';

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
  readonly pipeline: PipelineConfig;
  readonly shutdownGraceMs: number;
  readonly upstreamHeadersTimeoutMs: number;
  readonly upstreamBodyTimeoutMs: number;
  readonly logLevel: string;
}

function port(raw: string | undefined, fallback: number, name: string, problems: string[]): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535) problems.push(`${name} must be a port number (0-65535), got "${raw}"`);
  return n;
}

function positive(raw: string | undefined, fallback: number, name: string, problems: string[]): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) problems.push(`${name} must be a positive number, got "${raw}"`);
  return n;
}

/**
 * The only place `gw serve` (and `gw extproc`) read argv and the
 * environment: validated once, every problem reported together, then frozen.
 */
export function readServeConfig(argv: readonly string[], env: NodeJS.ProcessEnv, defaults: { port: number } = { port: 8080 }): ServeConfig {
  const args = parseArgs(argv, [], { f: 'file' });
  const problems: string[] = [];
  const file = args.values.get('file') ?? env.GW_CONFIG ?? null;
  const redisGiven = (args.values.get('redis') ?? env.GW_REDIS_URL) !== undefined;
  if (!file && !redisGiven) problems.push('-f FILE (or GW_CONFIG) is required without --redis: the resource documents to serve');
  const prefix = args.values.get('prefix') ?? env.GW_PATH_PREFIX ?? '';
  if (prefix !== '' && !/^\/[A-Za-z0-9._~\-/]*[^/]$/.test(prefix)) problems.push(`--prefix must start with / and not end with /, got "${prefix}"`);
  const adminToken = inlineOrFile(env.GW_ADMIN_TOKEN, args.values.get('admin-token-file') ?? env.GW_ADMIN_TOKEN_FILE, '--admin-token-file', problems);
  if (adminToken !== null && adminToken.length < 16) problems.push('the admin token must be at least 16 characters');
  const redisUrl = args.values.get('redis') ?? env.GW_REDIS_URL ?? null;
  if (redisUrl !== null && !/^rediss?:\/\//.test(redisUrl)) problems.push('--redis must be a redis:// or rediss:// URL');
  const redisTlsCa = inlineOrFile(undefined, args.values.get('redis-tls-ca-file') ?? env.GW_REDIS_TLS_CA_FILE, '--redis-tls-ca-file', problems, false);
  const redisPassword = inlineOrFile(env.GW_REDIS_PASSWORD, args.values.get('redis-password-file') ?? env.GW_REDIS_PASSWORD_FILE, '--redis-password-file', problems);
  const encryptionKeyText = inlineOrFile(env.GW_ENCRYPTION_KEY, args.values.get('encryption-key-file') ?? env.GW_ENCRYPTION_KEY_FILE, '--encryption-key-file', problems);
  const encryptionKey = encryptionKeyFrom(encryptionKeyText, problems);
  if (redisUrl !== null && encryptionKeyText === null) problems.push('--redis needs an encryption key for provider secrets: GW_ENCRYPTION_KEY or --encryption-key-file');
  const maxBodyMb = positive(args.values.get('max-body-mb'), DEFAULT_PIPELINE_CONFIG.maxBodyBytes / 1024 / 1024, '--max-body-mb', problems);
  const config: ServeConfig = {
    file: file || null,
    host: args.values.get('host') ?? env.GW_HOST ?? '127.0.0.1',
    port: port(args.values.get('port') ?? env.GW_PORT, defaults.port, '--port', problems),
    socketPath: args.values.get('socket') ?? env.GW_SOCKET ?? null,
    adminHost: args.values.get('admin-host') ?? env.GW_ADMIN_HOST ?? '127.0.0.1',
    adminPort: port(args.values.get('admin-port') ?? env.GW_ADMIN_PORT, 9090, '--admin-port', problems),
    adminToken,
    redisUrl,
    redisTlsCa,
    redisPassword,
    encryptionKey,
    pipeline: Object.freeze({
      ...DEFAULT_PIPELINE_CONFIG,
      pathPrefix: prefix,
      maxBodyBytes: Math.round(maxBodyMb * 1024 * 1024),
      leaseTtlMs: positive(env.GW_LEASE_TTL_MS, DEFAULT_PIPELINE_CONFIG.leaseTtlMs, 'GW_LEASE_TTL_MS', problems),
      slotTtlMs: positive(env.GW_SLOT_TTL_MS, DEFAULT_PIPELINE_CONFIG.slotTtlMs, 'GW_SLOT_TTL_MS', problems),
      redactionBudgetMs: positive(env.GW_REDACTION_BUDGET_MS, DEFAULT_PIPELINE_CONFIG.redactionBudgetMs, 'GW_REDACTION_BUDGET_MS', problems),
    }),
    shutdownGraceMs: positive(args.values.get('shutdown-grace-ms') ?? env.GW_SHUTDOWN_GRACE_MS, 30_000, '--shutdown-grace-ms', problems),
    upstreamHeadersTimeoutMs: positive(env.GW_UPSTREAM_HEADERS_TIMEOUT_MS, 600_000, 'GW_UPSTREAM_HEADERS_TIMEOUT_MS', problems),
    upstreamBodyTimeoutMs: positive(env.GW_UPSTREAM_BODY_TIMEOUT_MS, 600_000, 'GW_UPSTREAM_BODY_TIMEOUT_MS', problems),
    logLevel: env.GW_LOG_LEVEL ?? 'info',
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config);
}
