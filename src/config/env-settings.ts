import { availableParallelism } from 'node:os';
import { DEFAULT_HEALTH_MONITOR_OPTIONS } from '../credentials/health-monitor.js';
import { DEFAULT_PIPELINE_CONFIG } from '../pipeline/config.js';
import { DEFAULT_USAGE_MEMORY_BYTES } from '../state/usage-buffer.js';

/**
 * The settings read only from the environment (no flag), each declared once:
 * its variable, what it is, its unit, its default, its check and which
 * commands read it. The readers (serve-config, usage-config, …) take values
 * through `envNumber` / `envText`, and `--help`'s notes, docs/cli.md and the
 * README's table are rendered from this list (src/cli/cli-doc.ts), so none
 * of them can say another default. Flags with an environment variable are
 * declared in commands.ts; the OpenTelemetry variables are the OpenTelemetry
 * specification's own (otel-config.ts, docs/observability.md).
 */
export type EnvCheck = 'positive' | 'integer' | 'text' | 'secret';

export interface EnvSetting {
  readonly name: string;
  readonly help: string;
  readonly check: EnvCheck;
  /** Unit of a number, as docs show it. */
  readonly unit?: 'ms' | 'bytes' | 'bytes/s' | 'MiB' | 'count' | 'threads';
  /** The value when the variable is unset (null: none). */
  readonly default: number | string | null;
  /** How docs show the default when the number alone would mislead. */
  readonly defaultNote?: string;
  /** Smallest accepted value (an integer's; a positive number's when above 0). */
  readonly min?: number;
  /** Largest accepted value of an integer. */
  readonly max?: number;
  readonly commands: readonly ('serve' | 'extproc' | 'operator' | 'export-usage' | 'logs' | 'usage')[];
}

const PLANES = ['serve', 'extproc'] as const;
const SERVE = ['serve'] as const;
const USAGE_READERS = ['serve', 'extproc', 'operator', 'export-usage'] as const;

const settings = [
  {
    name: 'GW_ADMIN_TOKEN',
    check: 'secret',
    default: null,
    commands: [...PLANES, 'logs', 'usage'],
    help: 'the admin API bearer token, at least 16 characters (or --admin-token-file); none disables the admin API',
  },
  {
    name: 'GW_ENCRYPTION_KEY',
    check: 'secret',
    default: null,
    commands: [...PLANES, 'operator'],
    help: 'base64 of 32 bytes: the key that seals provider secrets in Redis (or --encryption-key-file); required with Redis',
  },
  { name: 'GW_REDIS_PASSWORD', check: 'secret', default: null, commands: [...PLANES, 'operator', 'export-usage'], help: 'Redis password apart from the URL (or --redis-password-file)' },
  { name: 'PGPASSWORD', check: 'secret', default: null, commands: USAGE_READERS, help: 'PostgreSQL password apart from the URL (or --postgres-password-file)' },
  { name: 'GW_LOG_LEVEL', check: 'text', default: 'info', commands: [...PLANES, 'export-usage'], help: 'pino log level (fatal, error, warn, info, debug, trace, silent)' },
  { name: 'GW_LEASE_TTL_MS', check: 'positive', unit: 'ms', default: DEFAULT_PIPELINE_CONFIG.leaseTtlMs, commands: PLANES, help: 'TTL of a credential lease, renewed while the answer streams' },
  { name: 'GW_SLOT_TTL_MS', check: 'positive', unit: 'ms', default: DEFAULT_PIPELINE_CONFIG.slotTtlMs, commands: PLANES, help: 'TTL of a caller slot, renewed while the answer streams' },
  {
    name: 'GW_MAX_REQUEST_HEADERS',
    check: 'positive',
    unit: 'count',
    default: DEFAULT_PIPELINE_CONFIG.maxRequestHeaders,
    commands: PLANES,
    help: 'caller header fields per request (431 headers_too_large beyond)',
  },
  {
    name: 'GW_MAX_REQUEST_HEADER_BYTES',
    check: 'positive',
    unit: 'bytes',
    default: DEFAULT_PIPELINE_CONFIG.maxRequestHeaderBytes,
    commands: PLANES,
    help: 'bytes of caller header names and values per request (431 beyond)',
  },
  { name: 'GW_UPSTREAM_HEADERS_TIMEOUT_MS', check: 'positive', unit: 'ms', default: 600_000, commands: PLANES, help: 'how long a provider may take to answer with its headers' },
  { name: 'GW_UPSTREAM_BODY_TIMEOUT_MS', check: 'positive', unit: 'ms', default: 600_000, commands: PLANES, help: 'how long a provider may stay silent mid-answer' },
  { name: 'GW_HEADERS_TIMEOUT_MS', check: 'positive', unit: 'ms', default: 30_000, commands: SERVE, help: 'the request head must arrive within this (408 request_timeout)' },
  { name: 'GW_REQUEST_TIMEOUT_MS', check: 'positive', unit: 'ms', default: 300_000, commands: SERVE, help: 'the whole request must arrive within this (408); not less than GW_HEADERS_TIMEOUT_MS' },
  { name: 'GW_BODY_MIN_BYTES_PER_SECOND', check: 'positive', unit: 'bytes/s', default: 1024, commands: SERVE, help: 'an upload slower than this over a window is cut (408)' },
  { name: 'GW_BODY_RATE_WINDOW_MS', check: 'positive', unit: 'ms', default: 10_000, commands: SERVE, help: 'the window the upload rate is measured over' },
  { name: 'GW_WRITE_IDLE_TIMEOUT_MS', check: 'positive', unit: 'ms', default: 60_000, commands: SERVE, help: 'a caller that reads nothing of an answer for this long is cut off' },
  { name: 'GW_KEEPALIVE_TIMEOUT_MS', check: 'positive', unit: 'ms', default: 65_000, commands: SERVE, help: 'idle keep-alive connections are closed after this' },
  { name: 'GW_MAX_CONNECTIONS_PER_ADDRESS', check: 'positive', unit: 'count', default: 1024, commands: SERVE, help: 'open connections per remote address (429 too_many_connections beyond)' },
  {
    name: 'GW_KEY_CHECK_INTERVAL_MS',
    check: 'positive',
    unit: 'ms',
    default: DEFAULT_HEALTH_MONITOR_OPTIONS.minCheckIntervalMs,
    commands: PLANES,
    help: 'at most one key check per credential in this window, however many callers get 401/403',
  },
  {
    name: 'GW_KEY_PROBE_INITIAL_MS',
    check: 'positive',
    unit: 'ms',
    default: DEFAULT_HEALTH_MONITOR_OPTIONS.probeInitialMs,
    commands: PLANES,
    help: 'first delay of the recovery probe of a rejected key (doubling after each refusal)',
  },
  { name: 'GW_KEY_PROBE_MAX_MS', check: 'positive', unit: 'ms', default: DEFAULT_HEALTH_MONITOR_OPTIONS.probeMaxMs, commands: PLANES, help: 'longest delay between recovery probes' },
  {
    name: 'GW_REDACTION_WORKERS',
    check: 'positive',
    unit: 'threads',
    default: Math.min(4, availableParallelism()),
    defaultNote: 'available cores, at most 4',
    commands: PLANES,
    help: 'worker threads that scan request bodies over 64 KiB for secrets',
  },
  {
    name: 'GW_IDLE_COLLECT_AFTER_MS',
    check: 'integer',
    min: 0,
    unit: 'ms',
    default: 5_000,
    commands: PLANES,
    help: "after this long with no request in flight, one compacting full collection gives the heap's free pages back (0: never; the image turns V8's own memory reducer off, so with 0 nothing shrinks an idle heap)",
  },
  {
    name: 'GW_USAGE_MEMORY_MB',
    check: 'positive',
    min: 1,
    unit: 'MiB',
    default: DEFAULT_USAGE_MEMORY_BYTES / 1024 / 1024,
    commands: PLANES,
    help: 'usage records kept in memory without Redis (oldest dropped beyond, and counted)',
  },
  {
    name: 'GW_REDIS_CONFIRM_REPLICAS',
    check: 'integer',
    min: 0,
    max: 16,
    unit: 'count',
    default: 1,
    defaultNote: '1 with Cluster or Sentinel, else 0',
    commands: PLANES,
    help: 'replicas that must hold a usage record (Redis WAIT) before the data plane lets it go, so a failover loses none (docs/resilience.md)',
  },
  {
    name: 'GW_REDIS_CONFIRM_TIMEOUT_MS',
    check: 'integer',
    min: 1,
    max: 5_000,
    unit: 'ms',
    default: 100,
    commands: PLANES,
    help: "WAIT's timeout per confirmation round of held usage records",
  },
  {
    name: 'GW_USAGE_BACKLOG_MAX',
    check: 'integer',
    min: 1,
    unit: 'count',
    default: 1_000_000,
    commands: USAGE_READERS,
    help: 'usage records a company stream in Redis holds before the oldest are trimmed',
  },
  {
    name: 'GW_USAGE_EXPORT_LEASE_MS',
    check: 'integer',
    min: 300,
    unit: 'ms',
    default: 15_000,
    commands: USAGE_READERS,
    help: 'how long the one active usage exporter holds its lease between renewals',
  },
] as const satisfies readonly EnvSetting[];

export type EnvName = (typeof settings)[number]['name'];
export const ENV_SETTINGS: readonly EnvSetting[] = Object.freeze(settings);
const BY_NAME = new Map<string, EnvSetting>(settings.map((s) => [s.name, s]));

export function envSetting(name: EnvName): EnvSetting {
  return BY_NAME.get(name) as EnvSetting;
}

/** The declared default of a number setting. */
export function envDefault(name: EnvName): number {
  return envSetting(name).default as number;
}

/**
 * A number setting from `env`, checked by its declaration. A bad value is reported in
 * `problems` (all reported together by the caller) and the default kept.
 */
export function envNumber(env: NodeJS.ProcessEnv, name: EnvName, problems: string[], options: { readonly fallback?: number } = {}): number {
  const setting = envSetting(name);
  // A default that depends on another setting (its defaultNote says how) is passed in by the reader.
  const fallback = options.fallback ?? (setting.default as number);
  const raw = env[name];
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (setting.check === 'integer') {
    const min = setting.min ?? 0;
    const max = setting.max;
    if (raw.trim() === '' || !Number.isInteger(n) || n < min || (max !== undefined && n > max)) {
      problems.push(max !== undefined ? `${name} must be an integer from ${min} to ${max}, got "${raw.slice(0, 40)}"` : `${name} must be an integer ≥ ${min}, got "${raw}"`);
      return fallback;
    }
    return n;
  }
  if (raw.trim() === '' || !Number.isFinite(n) || n <= 0 || (setting.min !== undefined && n < setting.min)) {
    problems.push(setting.min !== undefined ? `${name} must be a number ≥ ${setting.min}, got "${raw}"` : `${name} must be a positive number, got "${raw}"`);
    return fallback;
  }
  return n;
}

/** A text or secret setting from `env` (its declared default when unset). */
export function envText(env: NodeJS.ProcessEnv, name: EnvName): string | undefined {
  return env[name] ?? (envSetting(name).default as string | null) ?? undefined;
}
