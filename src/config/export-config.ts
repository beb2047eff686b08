import { parseArgs } from './args.js';
import { inlineOrFile } from './file-inputs.js';
import { ConfigError } from './load-resources.js';
import { USAGE_OPTIONS, readUsageStoreConfig, type UsageStoreConfig } from './usage-config.js';

/** `gw export-usage`: the exporter alone, between one Redis and one PostgreSQL. */
export interface ExportConfig {
  readonly redisUrl: string;
  readonly redisTlsCa: string | null;
  readonly redisPassword: string | null;
  readonly usage: UsageStoreConfig & { readonly postgresUrl: string };
  readonly adminHost: string;
  readonly adminPort: number;
  readonly logLevel: string;
}

export function readExportConfig(argv: readonly string[], env: NodeJS.ProcessEnv): ExportConfig {
  const args = parseArgs(argv, []);
  const problems: string[] = [];
  for (const p of args.positional) problems.push(`unexpected argument "${p}"`);
  const known = new Set<string>(['redis', 'redis-tls-ca-file', 'redis-password-file', 'admin-port', 'admin-host', ...USAGE_OPTIONS]);
  for (const name of args.values.keys()) if (!known.has(name)) problems.push(`unknown option --${name}`);
  const redisUrl = args.values.get('redis') ?? env.GW_REDIS_URL ?? '';
  if (redisUrl === '') problems.push('--redis URL (or GW_REDIS_URL) is required: where the data planes leave usage records');
  else if (!/^rediss?:\/\//.test(redisUrl)) problems.push('--redis must be a redis:// or rediss:// URL');
  const usage = readUsageStoreConfig(args.values, env, problems);
  if (usage.postgresUrl === null) problems.push('--postgres URL (or GW_POSTGRES_URL) is required: where usage records are kept');
  const portRaw = args.values.get('admin-port') ?? env.GW_ADMIN_PORT ?? '9091';
  const adminPort = Number(portRaw);
  if (!Number.isInteger(adminPort) || adminPort < 0 || adminPort > 65535) problems.push(`--admin-port must be a port number (0-65535), got "${portRaw}"`);
  const config = {
    redisUrl,
    redisTlsCa: inlineOrFile(undefined, args.values.get('redis-tls-ca-file') ?? env.GW_REDIS_TLS_CA_FILE, '--redis-tls-ca-file', problems, false),
    redisPassword: inlineOrFile(env.GW_REDIS_PASSWORD, args.values.get('redis-password-file') ?? env.GW_REDIS_PASSWORD_FILE, '--redis-password-file', problems),
    usage: usage as ExportConfig['usage'],
    adminHost: args.values.get('admin-host') ?? env.GW_ADMIN_HOST ?? '127.0.0.1',
    adminPort,
    logLevel: env.GW_LOG_LEVEL ?? 'info',
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config);
}
