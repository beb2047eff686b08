import { EXPORT_USAGE_COMMAND } from './commands.js';
import { parseCommandLine } from './command-line.js';
import { inlineOrFile } from './file-inputs.js';
import { ConfigError } from './config-error.js';
import { checkRedisUrl } from './redis-url-check.js';
import { readUsageStoreConfig, type UsageStoreConfig } from './usage-config.js';
import { envText } from './env-settings.js';

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
  const args = parseCommandLine(EXPORT_USAGE_COMMAND, argv, env);
  const problems: string[] = [];
  const redisUrl = args.value('redis') ?? '';
  if (redisUrl === '') problems.push('--redis URL (or GW_REDIS_URL) is required: where the data planes leave usage records');
  else checkRedisUrl(redisUrl, problems);
  const usage = readUsageStoreConfig(args, env, problems);
  if (usage.postgresUrl === null) problems.push('--postgres URL (or GW_POSTGRES_URL) is required: where usage records are kept');
  const portRaw = args.value('admin-port') ?? '9091';
  const adminPort = Number(portRaw);
  if (!Number.isInteger(adminPort) || adminPort < 0 || adminPort > 65535) problems.push(`--admin-port must be a port number (0-65535), got "${portRaw}"`);
  const config = {
    redisUrl,
    redisTlsCa: inlineOrFile(undefined, args.value('redis-tls-ca-file'), '--redis-tls-ca-file', problems, false),
    redisPassword: inlineOrFile(envText(env, 'GW_REDIS_PASSWORD'), args.value('redis-password-file'), '--redis-password-file', problems),
    usage: usage as ExportConfig['usage'],
    adminHost: args.value('admin-host') ?? '127.0.0.1',
    adminPort,
    logLevel: envText(env, 'GW_LOG_LEVEL') ?? 'info',
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config);
}
