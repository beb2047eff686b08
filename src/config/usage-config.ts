import type { CommandLine } from './command-line.js';
import { inlineOrFile } from './file-inputs.js';
import { envNumber, envText } from './env-settings.js';

/** Where Usage and Logs are kept, and the bounds on what waits in memory or Redis. */
export interface UsageStoreConfig {
  /** postgres:// URL (GW_POSTGRES_URL); null keeps usage in Redis or memory only. */
  readonly postgresUrl: string | null;
  /** Used when the URL carries none: PGPASSWORD, or --postgres-password-file. */
  readonly postgresPassword: string | null;
  /** Days records stay in PostgreSQL; 0 keeps them (GW_USAGE_RETENTION_DAYS). */
  readonly retentionDays: number;
  /** Records one company's Redis stream may hold unexported while PostgreSQL is away (GW_USAGE_BACKLOG_MAX). */
  readonly backlogMax: number;
  /** Global bound of the records one process holds in memory, in bytes (GW_USAGE_MEMORY_MB). */
  readonly memoryBytes: number;
  /** How long the exporter lease lasts without renewal (GW_USAGE_EXPORT_LEASE_MS): a dead exporter's successor waits this long. */
  readonly exportLeaseMs: number;
}

function integer(raw: string | undefined, fallback: number, name: string, min: number, problems: string[]): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) problems.push(`${name} must be an integer ≥ ${min}, got "${raw}"`);
  return n;
}

export function readUsageStoreConfig(args: CommandLine, env: NodeJS.ProcessEnv, problems: string[]): UsageStoreConfig {
  // Empty counts as unset, as for the other URLs an environment may blank out.
  const postgresUrl = args.value('postgres') || null;
  if (postgresUrl !== null && !/^postgres(ql)?:\/\/[^/]/.test(postgresUrl)) problems.push('--postgres must be a postgres:// or postgresql:// URL');
  const postgresPassword = inlineOrFile(envText(env, 'PGPASSWORD'), args.value('postgres-password-file'), '--postgres-password-file', problems);
  const memoryMb = envNumber(env, 'GW_USAGE_MEMORY_MB', problems);
  return Object.freeze({
    postgresUrl,
    postgresPassword,
    retentionDays: integer(args.declares('usage-retention-days') ? args.value('usage-retention-days') : env.GW_USAGE_RETENTION_DAYS, 0, '--usage-retention-days', 0, problems),
    backlogMax: envNumber(env, 'GW_USAGE_BACKLOG_MAX', problems),
    memoryBytes: Math.round(memoryMb * 1024 * 1024),
    exportLeaseMs: envNumber(env, 'GW_USAGE_EXPORT_LEASE_MS', problems),
  });
}
