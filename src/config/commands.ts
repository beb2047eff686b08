// Every `gw` command's command line, declared once: the strict parser
// (command-line.ts), `gw <command> --help`, docs/cli.md and the README's
// command list are all made from these definitions.
import { ENVOY_SETTING_DEFS, shownDefault, VALUE_KEYS } from './envoy-settings.js';
import { DEFAULT_PIPELINE_CONFIG } from '../pipeline/config.js';

const MIB = 1024 * 1024;

export interface OptionDef {
  /** The long name, without dashes. */
  readonly name: string;
  /** One letter, without the dash. */
  readonly short?: string;
  readonly type: 'string' | 'boolean';
  /** May be given more than once; every value is kept. */
  readonly multiple?: boolean;
  /** What the value is, in the help: FILE, URL, N. */
  readonly placeholder?: string;
  /** Read when the flag is absent. */
  readonly env?: string;
  /** Used when neither the flag nor its environment variable is given. */
  readonly default?: string;
  /** A default the configuration computes (shown in the help, never applied by the parser). */
  readonly defaultNote?: string;
  readonly description: string;
}

export interface PositionalDef {
  readonly name: string;
  readonly description: string;
}

export interface CommandDef {
  /** As typed after `gw`: `serve`, `token create`. */
  readonly name: string;
  readonly summary: string;
  /** Required positional arguments, in order; a command without any refuses every positional. */
  readonly positionals: readonly PositionalDef[];
  readonly options: readonly OptionDef[];
  /** Paragraphs shown after the options. */
  readonly notes: readonly string[];
}

const str = (name: string, placeholder: string, description: string, extra: Partial<OptionDef> = {}): OptionDef => ({ name, type: 'string', placeholder, description, ...extra });
const bool = (name: string, description: string, extra: Partial<OptionDef> = {}): OptionDef => ({ name, type: 'boolean', description, ...extra });

const REDIS_OPTIONS: readonly OptionDef[] = [
  str('redis-tls-ca-file', 'FILE', 'extra CA (PEM) to verify a rediss:// server with', { env: 'GW_REDIS_TLS_CA_FILE' }),
  str('redis-password-file', 'FILE', 'Redis password kept apart from the URL (inline: GW_REDIS_PASSWORD)', { env: 'GW_REDIS_PASSWORD_FILE' }),
];

const ENCRYPTION_KEY_OPTION = str('encryption-key-file', 'FILE', 'AES-256-GCM key for provider secrets in Redis, base64 of 32 bytes (inline: GW_ENCRYPTION_KEY)', {
  env: 'GW_ENCRYPTION_KEY_FILE',
});

const POSTGRES_OPTIONS: readonly OptionDef[] = [
  str('postgres', 'URL', 'PostgreSQL for Usage and Logs (password in the URL or PGPASSWORD; TLS by sslmode)', { env: 'GW_POSTGRES_URL' }),
  str('postgres-password-file', 'FILE', 'PostgreSQL password kept apart from the URL', { env: 'GW_POSTGRES_PASSWORD_FILE' }),
];

const RETENTION_OPTION = str('usage-retention-days', 'N', 'days usage records stay in PostgreSQL; 0 keeps them', { env: 'GW_USAGE_RETENTION_DAYS', default: '0' });

function dataPlane(name: 'serve' | 'extproc', port: string): readonly OptionDef[] {
  return [
    str('file', 'FILE', 'multi-document YAML of GatewaySettings, GatewayToken, ProviderCredential and Secret; required without --redis', {
      short: 'f',
      env: 'GW_CONFIG',
    }),
    str('host', 'HOST', name === 'serve' ? 'address to listen on' : 'address to serve gRPC on', { env: 'GW_HOST', default: '127.0.0.1' }),
    str('port', 'N', name === 'serve' ? 'port to listen on' : 'port to serve gRPC on', { env: 'GW_PORT', default: port }),
    ...(name === 'extproc'
      ? [
          str('socket', 'PATH', 'serve gRPC on this Unix socket instead of --host/--port (the sidecar layout)', { env: 'GW_SOCKET' }),
          str('grpc-transport', 'grpc-js|http2', "the gRPC server under ext_proc: grpc-js, or the gateway's own on node:http2 (docs/extproc.md)", {
            env: 'GW_GRPC_TRANSPORT',
            default: 'grpc-js',
          }),
        ]
      : []),
    str('prefix', '/PATH', 'serve the API under this path prefix as well as at the root', { env: 'GW_PATH_PREFIX', default: '' }),
    str('max-body-mb', 'N', 'largest request body accepted, in MiB (413 beyond)', { default: String(DEFAULT_PIPELINE_CONFIG.maxBodyBytes / MIB) }),
    str('admin-host', 'HOST', 'address of the admin listener (/healthz, /readyz, /metrics, admin API)', { env: 'GW_ADMIN_HOST', default: '127.0.0.1' }),
    str('admin-port', 'N', 'port of the admin listener', { env: 'GW_ADMIN_PORT', default: '9090' }),
    str('admin-token-file', 'FILE', 'the admin API bearer token, at least 16 characters (inline: GW_ADMIN_TOKEN); none disables the admin API', {
      env: 'GW_ADMIN_TOKEN_FILE',
    }),
    str('admin-tokens-file', 'FILE', 'YAML list of admin tokens scoped to companies', { env: 'GW_ADMIN_TOKENS_FILE' }),
    str('admin-auth', 'token|kubernetes', 'who else reads the Usage and Logs API: Kubernetes bearer tokens with `kubernetes`', { env: 'GW_ADMIN_AUTH', default: 'token' }),
    str('kubeconfig', 'FILE', 'out of a cluster, the kubeconfig for --admin-auth kubernetes', { env: 'KUBECONFIG' }),
    str(
      'redis',
      'URL',
      'shared state: redis:// or rediss://; several host:port or ?cluster=true for Redis Cluster; redis-sentinel://s1:26379,s2:26379/<primary> (or ?sentinel=<primary>) for Sentinel; without it state is in this process',
      { env: 'GW_REDIS_URL' },
    ),
    ...REDIS_OPTIONS,
    ENCRYPTION_KEY_OPTION,
    ...POSTGRES_OPTIONS,
    RETENTION_OPTION,
    str('shutdown-grace-ms', 'N', 'how long requests in flight may finish after SIGTERM', { env: 'GW_SHUTDOWN_GRACE_MS', default: '30000' }),
    str('otel-config', 'FILE', 'OpenTelemetry export settings (docs/observability.md)', { env: 'GW_OTEL_CONFIG' }),
  ];
}

// The flags of `gw envoy-config`, one per Envoy setting (src/config/envoy-settings.ts declares each once).
const ENVOY_OPTIONS: readonly OptionDef[] = ENVOY_SETTING_DEFS.map((def) => {
  const shown = shownDefault(def);
  return {
    name: def.flag,
    type: 'string',
    placeholder: def.placeholder,
    description: def.help,
    ...(def.kind === 'urls' ? { multiple: true } : {}),
    ...(shown === undefined ? {} : { defaultNote: shown }),
  } satisfies OptionDef;
});

export const SERVE_COMMAND: CommandDef = {
  name: 'serve',
  summary: 'the one-machine data plane: the Anthropic Messages API over HTTP, with state in the process or in Redis',
  positionals: [],
  options: dataPlane('serve', '8080'),
  notes: ['SIGHUP re-reads the file; SIGTERM finishes the requests in flight, then stops. More settings are read from the environment: docs/configuration.md and the README.'],
};

export const EXTPROC_COMMAND: CommandDef = {
  name: 'extproc',
  summary: "the same pipeline as Envoy's External Processing server over gRPC (TCP or a Unix socket)",
  positionals: [],
  options: dataPlane('extproc', '9002'),
  notes: ['Put Envoy in front with the bootstrap of `gw envoy-config` (docs/extproc.md).'],
};

export const ENVOY_CONFIG_COMMAND: CommandDef = {
  name: 'envoy-config',
  summary: 'write the Envoy bootstrap that puts gw extproc in front of the providers',
  positionals: [],
  options: [
    str('values', 'FILE', `YAML or JSON with the same settings under camelCase keys (${VALUE_KEYS.join(', ')}); flags win over it`),
    str('out', 'FILE', 'write there instead of stdout'),
    ...ENVOY_OPTIONS,
    str('providers', 'URL,URL', 'several provider base URLs at once'),
  ],
  notes: ["A processor given on the command line replaces the values file's choice of either kind (socket or address)."],
};

export const REDACT_COMMAND: CommandDef = {
  name: 'redact',
  summary: 'show what secret scanning does to a request body: reads it on stdin, writes it with every credential replaced by [REDACTED: rule-id]',
  positionals: [],
  options: [
    bool('text', 'treat the input as plain text instead of a request body'),
    bool('json-report', 'write a JSON report instead: each finding (rule id, byte start and end in the input) and the redacted output'),
    str('budget-ms', 'MS', 'stop the scan after this long (the gateway always scans every byte)', { defaultNote: 'no limit' }),
  ],
  notes: ['Exit status: 0 done; 2 bad usage; 3 the time budget ran out, so the output may still contain credentials.'],
};

export const TOKEN_NEW_COMMAND: CommandDef = {
  name: 'token new',
  summary: 'print a fresh gwct_ token and its sha256: hash (put only the hash in a GatewayToken)',
  positionals: [],
  options: [],
  notes: [],
};

export const TOKEN_HASH_COMMAND: CommandDef = {
  name: 'token hash',
  summary: 'print the hash of a token read from stdin',
  positionals: [],
  options: [],
  notes: [],
};

const NAMESPACE_OPTION = str('namespace', 'NS', "the GatewayToken's namespace (its company)", { short: 'n', defaultNote: "the kubeconfig context's namespace, else default" });
const KUBECONFIG_OPTION = str('kubeconfig', 'FILE', 'the cluster to talk to (the first file of KUBECONFIG otherwise)', { defaultNote: '~/.kube/config' });

export const TOKEN_CREATE_COMMAND: CommandDef = {
  name: 'token create',
  summary: 'make a GatewayToken in a cluster and print its token once (only the hash reaches the cluster)',
  positionals: [{ name: 'NAME', description: 'the GatewayToken to create' }],
  options: [NAMESPACE_OPTION, str('display-name', 'TEXT', 'a label for people, at most 200 characters'), KUBECONFIG_OPTION],
  notes: ['A token is never rotated in place: create a new one, then revoke the old one.'],
};

export const TOKEN_REVOKE_COMMAND: CommandDef = {
  name: 'token revoke',
  summary: 'revoke a GatewayToken in a cluster: its next request fails with 401',
  positionals: [{ name: 'NAME', description: 'the GatewayToken to revoke' }],
  options: [NAMESPACE_OPTION, KUBECONFIG_OPTION],
  notes: [],
};

export const OPERATOR_COMMAND: CommandDef = {
  name: 'operator',
  summary: 'reconcile GatewayToken, ProviderCredential and GatewaySettings into the Redis the data planes read',
  positionals: [],
  options: [
    str('redis', 'URL', "the data planes' Redis (rediss:// for TLS, ?cluster=true or several hosts for Cluster, redis-sentinel:// for Sentinel); required", { env: 'GW_REDIS_URL' }),
    ENCRYPTION_KEY_OPTION,
    ...REDIS_OPTIONS,
    str('kubeconfig', 'FILE', 'the cluster to talk to', { env: 'KUBECONFIG', defaultNote: "the Pod's service account" }),
    str('namespace', 'NS', 'watch one namespace only', { short: 'n', env: 'GW_WATCH_NAMESPACE', defaultNote: 'every namespace' }),
    str('lease-name', 'NAME', 'the leader-election Lease', { env: 'GW_LEASE_NAME', default: 'gw-operator' }),
    str('lease-namespace', 'NS', 'where the Lease and the revocation ledger (ConfigMaps gw-revocations-*) live', {
      env: 'GW_LEASE_NAMESPACE',
      defaultNote: "the Pod's namespace, else --namespace, else default",
    }),
    str('identity', 'ID', 'this replica in the Lease', { env: 'GW_OPERATOR_IDENTITY', defaultNote: '<hostname>_<pid>' }),
    str('lease-duration-seconds', 'N', 'how long a leader holds the Lease without renewing it', { env: 'GW_LEASE_DURATION_SECONDS', default: '15' }),
    str('resync-seconds', 'N', 'full reconcile period', { env: 'GW_RESYNC_SECONDS', default: '60' }),
    str('admin-host', 'HOST', 'address of /healthz, /readyz and /metrics', { env: 'GW_ADMIN_HOST', default: '0.0.0.0' }),
    str('admin-port', 'N', 'port of /healthz, /readyz and /metrics', { env: 'GW_ADMIN_PORT', default: '9091' }),
    str('workers', 'N', 'namespaces reconciled at once', { env: 'GW_OPERATOR_WORKERS', default: '4' }),
    str('log-level', 'LEVEL', 'pino log level', { env: 'GW_LOG_LEVEL', default: 'info' }),
    str('otel-config', 'FILE', 'OpenTelemetry export of the reconcile spans', { env: 'GW_OTEL_CONFIG' }),
    ...POSTGRES_OPTIONS.map((o) => (o.name === 'postgres' ? { ...o, description: `${o.description}; with it the operator also runs the usage exporter` } : o)),
    RETENTION_OPTION,
  ],
  notes: ['docs/operator.md has the details.'],
};

export const EXPORT_USAGE_COMMAND: CommandDef = {
  name: 'export-usage',
  summary: 'move usage records from Redis to PostgreSQL (one active exporter at a time, by lease)',
  positionals: [],
  options: [
    str('redis', 'URL', 'where the data planes leave usage records; required', { env: 'GW_REDIS_URL' }),
    ...REDIS_OPTIONS,
    ...POSTGRES_OPTIONS.map((o) => (o.name === 'postgres' ? { ...o, description: `${o.description}; required` } : o)),
    RETENTION_OPTION,
    str('admin-host', 'HOST', 'address of /healthz, /readyz and /metrics', { env: 'GW_ADMIN_HOST', default: '127.0.0.1' }),
    str('admin-port', 'N', 'port of /healthz, /readyz and /metrics', { env: 'GW_ADMIN_PORT', default: '9091' }),
  ],
  notes: [],
};

const QUERY_OPTIONS: readonly OptionDef[] = [
  str('company', 'NS', 'one company (namespace) only'),
  str('since', 'TIME', 'from this date or date-time'),
  str('until', 'TIME', 'up to this date or date-time'),
];

const OUTPUT_OPTIONS: readonly OptionDef[] = [
  bool('json', 'print JSON instead of a table'),
  bool('csv', 'print CSV instead of a table'),
  str('admin-url', 'URL', 'the admin API of a running gateway (token in GW_ADMIN_TOKEN)', { env: 'GW_ADMIN_URL', default: 'http://127.0.0.1:9090' }),
  ...POSTGRES_OPTIONS.map((o) => (o.name === 'postgres' ? { ...o, description: 'read PostgreSQL directly instead of the admin API (password in the URL or PGPASSWORD)' } : o)),
];

export const LOGS_COMMAND: CommandDef = {
  name: 'logs',
  summary: 'list request records, newest or most expensive first',
  positionals: [],
  options: [
    ...QUERY_OPTIONS,
    str('address', 'ADDR', 'one caller (<token name>@<token domain>)'),
    str('model', 'MODEL', 'one model'),
    str('order', 'time|cost', 'newest first, or most expensive first', { default: 'time' }),
    str('limit', 'N', 'at most this many records (1 to 100000)', { default: '100' }),
    ...OUTPUT_OPTIONS,
  ],
  notes: [],
};

export const USAGE_COMMAND: CommandDef = {
  name: 'usage',
  summary: 'sum usage and cost by caller, model, provider, repo, application or end user',
  positionals: [],
  options: [
    ...QUERY_OPTIONS,
    str('by', 'GROUP', 'address, model, provider, repo, application or end_user', { default: 'address' }),
    str('period', 'day|week|month', 'one row per period as well'),
    ...OUTPUT_OPTIONS,
  ],
  notes: [],
};

/** Every command, in the order of `gw --help` and docs/cli.md. */
export const COMMANDS: readonly CommandDef[] = [
  SERVE_COMMAND,
  EXTPROC_COMMAND,
  ENVOY_CONFIG_COMMAND,
  OPERATOR_COMMAND,
  EXPORT_USAGE_COMMAND,
  TOKEN_NEW_COMMAND,
  TOKEN_HASH_COMMAND,
  TOKEN_CREATE_COMMAND,
  TOKEN_REVOKE_COMMAND,
  REDACT_COMMAND,
  LOGS_COMMAND,
  USAGE_COMMAND,
];
