/**
 * The settings of `gw envoy-config`: what the generated Envoy bootstrap needs
 * to know about the deployment, each declared once in ENVOY_SETTING_DEFS —
 * its values-file key, its flag, its kind, its default, its check and its
 * help. The EnvoySettings type, DEFAULT_ENVOY_SETTINGS, the flag of each key,
 * the resolver, `gw envoy-config --help` and docs/cli.md are all derived from
 * that table. Pure: the CLI reads files and argv, this module only checks
 * values, applies defaults and reports every problem at once.
 *
 * It lives in the configuration layer, not beside the bootstrap renderer
 * (src/envoy), so that src/envoy depends on src/config and never the reverse.
 */
import { isIP } from 'node:net';
import { DEFAULT_PIPELINE_CONFIG } from '../pipeline/config.js';
import { ConfigError } from './config-error.js';

const MIB = 1024 * 1024;

/** Where Envoy reaches `gw extproc`: a Unix socket (sidecar) or a TCP host:port. */
export type ProcessorEndpoint = { readonly socketPath: string } | { readonly host: string; readonly port: number };

export interface HostPort {
  readonly host: string;
  readonly port: number;
}

/** What each kind of setting becomes once resolved. */
interface ResolvedTypes {
  readonly text: string;
  readonly number: number;
  /** Written in MiB, held in bytes. */
  readonly mib: number;
  readonly urls: readonly string[];
  /** null: not set (the feature is off). */
  readonly hostPort: HostPort | null;
  readonly boolean: boolean;
  /** One of the two ways to name the processor (a socket path or host:port); both fill `processor`. */
  readonly socket: ProcessorEndpoint;
  readonly address: ProcessorEndpoint;
}

/** How each kind is written in a values file or on the command line (null: none). */
interface WrittenTypes {
  readonly text: string;
  readonly number: number;
  readonly mib: number;
  readonly urls: readonly string[];
  readonly hostPort: string | null;
  readonly boolean: boolean;
  readonly socket: string;
  readonly address: string | null;
}

export type EnvoySettingKind = keyof ResolvedTypes;

export interface EnvoySettingDef<K extends EnvoySettingKind = EnvoySettingKind, Key extends string = string, Field extends string = string> {
  /** The key in a `--values` file and in the chart's `gateway.envoy.settings`. */
  readonly key: Key;
  /** The EnvoySettings field it fills (several keys may fill one field: the first given wins, two given is an error). */
  readonly field: Field;
  /** The long flag, without dashes. */
  readonly flag: string;
  readonly placeholder: string;
  /** One line for `--help` and docs/cli.md. */
  readonly help: string;
  /** What it becomes in the bootstrap, for the settings table of docs/extproc.md. */
  readonly becomes: string;
  readonly kind: K;
  /** The value when the key is absent, as it would be written. */
  readonly default: WrittenTypes[K];
  /** Problems with a resolved value on its own; `name` is how messages name the setting. */
  check?(value: ResolvedTypes[K], name: string): string[];
}

/** One table entry; `field` defaults to the key. */
function setting<K extends EnvoySettingKind, const Key extends string, const Field extends string = Key>(
  def: Omit<EnvoySettingDef<K, Key, Field>, 'field'> & { readonly field?: Field },
): EnvoySettingDef<K, Key, Field> {
  return { ...def, field: (def.field ?? def.key) as Field };
}

/**
 * The Anthropic SDKs wait 10 minutes for a non-streaming answer by default
 * (and refuse non-streaming calls they expect to run longer), so no timeout on
 * the provider path may be shorter: the longest call the gateway supports is a
 * 10-minute non-streaming one. Streams are bounded only by their idle gap.
 */
export const MIN_STREAM_IDLE_TIMEOUT_SECONDS = 600;
/** Share of the container memory limit the overload manager lets Envoy's heap use. */
export const HEAP_SHARE = 0.8;
/**
 * `gw extproc` accepts gRPC messages up to 64 MiB (src/extproc/extproc-server.ts);
 * a buffered body is sent in one message, so a larger buffer would let a body
 * through Envoy that the processor then refuses at the gRPC layer (a bare 500
 * instead of the gateway's own 413).
 */
export const MAX_BUFFER_LIMIT_BYTES = 64 * MIB - 64 * 1024;
/** Envoy caps ext_proc `message_timeout` at one hour. */
const MAX_MESSAGE_TIMEOUT_SECONDS = 3600;
/** sun_path holds 108 bytes including the terminating NUL. */
const MAX_SOCKET_PATH = 107;
const PREFIX = /^\/[A-Za-z0-9._~\-/]*[^/]$/;

const port = (n: number, name: string): string[] => (Number.isInteger(n) && n >= 1 && n <= 65535 ? [] : [`${name} must be a port number (1-65535), got ${n}`]);
// Durations are written with millisecond precision; anything shorter would render as 0s.
const seconds =
  (max: number) =>
  (n: number, name: string): string[] =>
    Number.isFinite(n) && n >= 0.001 && n <= max ? [] : [`${name} must be between 0.001 and ${max} seconds, got ${n}`];
const positiveMib = (bytes: number, name: string): string[] => (Number.isInteger(bytes) && bytes > 0 ? [] : [`${name} must be a positive number of MiB, got ${bytes / MIB}`]);
const hostOf = (host: string, name: string): string[] => (host === '' || /[\s/]/.test(host) ? [`${name} has an invalid host "${host}"`] : []);
const isLoopback = (address: string): boolean => /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address) || address === '::1';

/** Every Envoy setting, in the order of `--help`, docs/cli.md and the values-file key list. */
export const ENVOY_SETTING_DEFS = [
  setting({
    key: 'listenAddress',
    flag: 'listen-address',
    placeholder: 'ADDR',
    help: 'address Envoy takes callers on',
    becomes: "listener address (must be an IP); also the ready listener's",
    kind: 'text',
    default: '0.0.0.0',
    // Envoy does not resolve names for listeners.
    check: (v, name) => (isIP(v) === 0 ? [`${name} must be an IP address (e.g. 0.0.0.0 or ::), got "${v}"`] : []),
  }),
  setting({ key: 'listenPort', flag: 'listen-port', placeholder: 'N', help: 'port Envoy takes callers on', becomes: 'listener port', kind: 'number', default: 8080, check: port }),
  setting({
    key: 'adminAddress',
    flag: 'admin-address',
    placeholder: 'ADDR',
    help: "address of Envoy's admin interface",
    becomes: 'Envoy admin address: must be loopback (`127.x` or `::1`)',
    kind: 'text',
    default: '127.0.0.1',
    // The admin interface serves POST /quitquitquit, /drain_listeners and config dumps to anyone who reaches it.
    check: (v, name): string[] =>
      isLoopback(v)
        ? []
        : [`${name} must be a loopback address (127.0.0.1 or ::1): Envoy's admin interface answers POST /quitquitquit to anyone who reaches it; probe ${label('readyPort')} instead, got "${v}"`],
  }),
  setting({ key: 'adminPort', flag: 'admin-port', placeholder: 'N', help: "port of Envoy's admin interface", becomes: 'Envoy admin port', kind: 'number', default: 9901, check: port }),
  // GET /ready on listenAddress: 200 while live, 503 once draining.
  setting({
    key: 'readyPort',
    flag: 'ready-port',
    placeholder: 'N',
    help: 'port of the readiness listener (/ready)',
    becomes: 'the `gw_ready` listener: `GET /ready`, `GET /stats/prometheus`',
    kind: 'number',
    default: 9902,
    check: port,
  }),
  setting({
    key: 'pathPrefix',
    flag: 'prefix',
    placeholder: '/PATH',
    help: 'the API path prefix, as given to gw extproc --prefix',
    becomes: 'only checked, and recorded in the header comment (see below)',
    kind: 'text',
    // It does not change the route table (every route matches prefix `/`; gw extproc strips it and sets
    // `:path`): it is checked here so both sides are configured with one value.
    default: '',
    check: (v, name) => (v !== '' && !PREFIX.test(v) ? [`${name} must start with / and not end with /, got "${v}"`] : []),
  }),
  setting({
    key: 'processorSocket',
    field: 'processor',
    flag: 'processor-socket',
    placeholder: 'PATH',
    help: "gw extproc's Unix socket",
    becomes: 'ext_proc cluster: a `pipe` endpoint (sidecar layout)',
    kind: 'socket',
    default: '/var/run/gw/extproc.sock',
    check: (p, name) => {
      if (!('socketPath' in p)) return [];
      if (!p.socketPath.startsWith('/') && !p.socketPath.startsWith('@')) return [`${name} must be an absolute path (or @name for an abstract socket), got "${p.socketPath}"`];
      return Buffer.byteLength(p.socketPath) > MAX_SOCKET_PATH ? [`${name} is longer than ${MAX_SOCKET_PATH} bytes, the Unix socket path limit`] : [];
    },
  }),
  setting({
    key: 'processorAddress',
    field: 'processor',
    flag: 'processor-address',
    placeholder: 'HOST:PORT',
    help: 'gw extproc over TCP instead of a socket',
    becomes: 'ext_proc cluster: `host:port` or `[v6]:port`. An IP gives a STATIC cluster, a name a STRICT_DNS one',
    kind: 'address',
    default: null,
    check: (p, name) => ('host' in p ? [...hostOf(p.host, name), ...port(p.port, name)] : []),
  }),
  setting({
    key: 'providers',
    flag: 'provider',
    placeholder: 'URL',
    help: 'a provider base URL Envoy may route to (repeat for more)',
    becomes: 'hosts the DNS cache resolves at start (`preresolve_hostnames`); may be empty',
    kind: 'urls',
    // Hosts Envoy resolves at start (the dynamic forward proxy's preresolve_hostnames); any other
    // host a ProviderCredential names is resolved on its first request, so none needs a redeploy.
    default: ['https://api.anthropic.com'],
    check: (urls, name) => urls.flatMap((base) => providerUrlProblems(base, name)),
  }),
  setting({
    key: 'messageTimeoutSeconds',
    flag: 'message-timeout-seconds',
    placeholder: 'N',
    help: "how long Envoy waits for each of gw extproc's answers",
    becomes: 'ext_proc `message_timeout`',
    kind: 'number',
    // Above the default caller-slot queue wait (GatewaySettings callerConcurrency.queueWaitSeconds,
    // 5 s), which the processor spends inside its request_headers answer: a wait that ran into
    // the message timer would turn the intended 429 into Envoy's 504.
    default: 10,
    check: seconds(MAX_MESSAGE_TIMEOUT_SECONDS),
  }),
  setting({
    key: 'bufferLimitMb',
    field: 'bufferLimitBytes',
    flag: 'buffer-limit-mb',
    placeholder: 'N',
    help: 'per-connection buffer, in MiB',
    becomes: 'listener `per_connection_buffer_limit_bytes`',
    kind: 'mib',
    // Listener per_connection_buffer_limit_bytes: bounds BUFFERED request (and JSON response) bodies.
    default: 40,
    check: (bytes, name) => [
      ...positiveMib(bytes, name),
      ...(Number.isInteger(bytes) && bytes > MAX_BUFFER_LIMIT_BYTES ? [`${name} must be below 64 MiB, the largest message gw extproc accepts, got ${bytes / MIB} MiB`] : []),
    ],
  }),
  setting({
    key: 'maxBodyMb',
    field: 'maxBodyBytes',
    flag: 'max-body-mb',
    placeholder: 'N',
    help: 'largest request body buffered for gw extproc, in MiB',
    becomes: 'only checked: the `--max-body-mb` that `gw extproc` runs with',
    kind: 'mib',
    // The body limit gw extproc runs with (its --max-body-mb); the buffer limit must exceed it.
    default: DEFAULT_PIPELINE_CONFIG.maxBodyBytes / MIB,
    check: positiveMib,
  }),
  setting({
    key: 'streamIdleTimeoutSeconds',
    flag: 'stream-idle-timeout-seconds',
    placeholder: 'N',
    help: 'longest silence on a stream',
    becomes: "HCM `stream_idle_timeout` and each route's `idle_timeout`; at least 600",
    kind: 'number',
    // HCM stream_idle_timeout and each route's idle_timeout. Above the SDKs' 10-minute wait for a
    // non-streaming answer, with room for the provider's own queueing before its first byte.
    default: 900,
    check: (n, name) => [
      ...seconds(86_400)(n, name),
      ...(Number.isFinite(n) && n < MIN_STREAM_IDLE_TIMEOUT_SECONDS
        ? [`${name} must be at least ${MIN_STREAM_IDLE_TIMEOUT_SECONDS}: the Anthropic SDKs wait 10 minutes for a non-streaming answer, which sends no byte until it is ready, got ${n}`]
        : []),
    ],
  }),
  // HCM drain_timeout: the HTTP/2 GOAWAY grace period while a connection drains.
  setting({
    key: 'drainTimeoutSeconds',
    flag: 'drain-timeout-seconds',
    placeholder: 'N',
    help: 'how long connections drain on shutdown',
    becomes: 'HCM `drain_timeout`',
    kind: 'number',
    default: 5,
    check: seconds(3600),
  }),
  setting({
    key: 'connectTimeoutSeconds',
    flag: 'connect-timeout-seconds',
    placeholder: 'N',
    help: 'timeout to connect to a provider',
    becomes: "provider clusters' `connect_timeout`. The processor cluster always uses 1 s",
    kind: 'number',
    default: 5,
    check: seconds(300),
  }),
  setting({
    key: 'upstreamCaFile',
    flag: 'upstream-ca-file',
    placeholder: 'PATH',
    help: 'CA bundle that verifies the providers',
    becomes: '`trusted_ca` for provider certificates',
    kind: 'text',
    // Inside the Envoy container.
    default: '/etc/ssl/certs/ca-certificates.crt',
    check: (v, name) => (v === '' || !v.startsWith('/') ? [`${name} must be an absolute path, got "${v}"`] : []),
  }),
  setting({
    key: 'maxConcurrentRequests',
    flag: 'max-concurrent-requests',
    placeholder: 'N',
    help: 'requests in flight before Envoy sheds load',
    becomes: "every cluster's circuit breaker, and the DNS cache's pending-request breaker",
    kind: 'number',
    // The circuit-breaker ceiling per cluster (connections, pending and active requests); Envoy's own default is 1024.
    default: 4096,
    check: (n, name) => (Number.isInteger(n) && n >= 1 && n <= 0xffff_ffff ? [] : [`${name} must be a whole number from 1 to ${0xffff_ffff}, got ${n}`]),
  }),
  setting({
    key: 'tracingCollector',
    flag: 'tracing-collector',
    placeholder: 'HOST:PORT',
    help: 'OTLP/gRPC collector for Envoy traces (none: no tracing)',
    becomes: "the `gw_otel_collector` cluster and the HCM's OpenTelemetry tracer; none leaves tracing out",
    kind: 'hostPort',
    // None leaves tracing out of the bootstrap.
    default: null,
    check: (c, name) => (c === null ? [] : [...hostOf(c.host, name), ...port(c.port, name)]),
  }),
  // Verified against upstreamCaFile.
  setting({
    key: 'tracingCollectorTls',
    flag: 'tracing-collector-tls',
    placeholder: 'true|false',
    help: 'speak TLS to the collector',
    becomes: 'TLS to the collector, verified against `upstreamCaFile`',
    kind: 'boolean',
    default: false,
  }),
  setting({
    key: 'tracingServiceName',
    flag: 'tracing-service-name',
    placeholder: 'NAME',
    help: "Envoy's service name in traces",
    becomes: "the tracer's `service_name`",
    kind: 'text',
    default: 'gw-envoy',
    check: (v, name) => (/^[A-Za-z0-9._-]{1,100}$/.test(v) ? [] : [`${name} must be 1-100 letters, digits, dots, dashes or underscores, got "${v}"`]),
  }),
  setting({
    key: 'tracingSamplingPercent',
    flag: 'tracing-sampling-percent',
    placeholder: 'N',
    help: 'share of new traces Envoy starts',
    becomes: "the HCM tracing `random_sampling` of new traces (a caller's sampled `traceparent` is always followed)",
    kind: 'number',
    // A caller's sampled traceparent is always followed.
    default: 100,
    check: (n, name) => (Number.isFinite(n) && n >= 0 && n <= 100 ? [] : [`${name} must be between 0 and 100, got ${n}`]),
  }),
  setting({
    key: 'observeResponseBody',
    flag: 'observe-response-body',
    placeholder: 'true|false',
    help: 'meter streamed responses through a second, observing ext_proc filter (no chunk waits on the processor)',
    becomes: 'a second ext_proc filter in `observability_mode` that streams response bodies to the processor without holding them; see docs/extproc.md',
    kind: 'boolean',
    // Off: every response chunk of a stream is answered by the processor before Envoy sends it on.
    default: false,
  }),
  setting({
    key: 'memoryLimitMb',
    field: 'memoryLimitBytes',
    flag: 'memory-limit-mb',
    placeholder: 'N',
    help: "the Envoy container's memory limit; the overload manager keeps the heap below it",
    becomes: "the Envoy container's memory limit; the overload manager's heap ceiling is 80 % of it",
    kind: 'mib',
    // The overload manager's heap ceiling is HEAP_SHARE of it, so Envoy sheds load before the kernel kills it.
    default: 1024,
    check: (bytes, name) => (Number.isFinite(bytes) && bytes >= 64 * MIB ? [] : [`${name} must be at least 64 MiB (the Envoy container's memory limit), got ${bytes / MIB}`]),
  }),
] as const;

type Def = (typeof ENVOY_SETTING_DEFS)[number];

/** The resolved settings: one field per table entry (or pair of entries, for the processor). */
export type EnvoySettings = { readonly [D in Def as D['field']]: ResolvedTypes[D['kind']] };

/** The keys of a `--values` file (and of the Helm chart's `gateway.envoy.settings`). */
export type EnvoyValueKey = Def['key'];
export const VALUE_KEYS: readonly EnvoyValueKey[] = Object.freeze(ENVOY_SETTING_DEFS.map((d) => d.key));

/** The flag that sets each values key. */
export const FLAG_OF: Readonly<Record<EnvoyValueKey, string>> = Object.freeze(Object.fromEntries(ENVOY_SETTING_DEFS.map((d) => [d.key, `--${d.flag}`])) as Record<EnvoyValueKey, string>);

/** Raw values as read from a values file or flags; anything may be wrong with them. */
export type EnvoyValues = Partial<Record<EnvoyValueKey, unknown>>;

// Takes any string so the table's own checks may name other settings without a circular type.
function label(key: string): string {
  return `${key} (${FLAG_OF[key as EnvoyValueKey]})`;
}

/** A default as `--help` and docs show it; undefined when there is none to show. */
export function shownDefault(def: EnvoySettingDef): string | undefined {
  const d = def.default;
  if (d === null || d === '') return undefined;
  return Array.isArray(d) ? d.join(',') : String(d);
}

/** `host:port` or `[v6]:port`; null when malformed. */
export function parseHostPort(text: string): HostPort | null {
  const match = /^\[([^\]]+)\]:(\d+)$/.exec(text) ?? /^([^:[\]\s]+):(\d+)$/.exec(text);
  if (!match) return null;
  const n = Number(match[2]);
  if (!Number.isInteger(n) || n < 1 || n > 65535) return null;
  return { host: match[1] as string, port: n };
}

function providerUrlProblems(base: string, name: string): string[] {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    return [`${name}: "${base}" is not a URL`];
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return [`${name}: "${base}" must be an http:// or https:// URL`];
  const problems: string[] = [];
  if (url.username !== '' || url.password !== '') problems.push(`${name}: "${base}" must not carry credentials; they belong in ProviderCredentials`);
  if (url.search !== '' || url.hash !== '') problems.push(`${name}: "${base}" must not have a query or fragment`);
  if (url.hostname === '') problems.push(`${name}: "${base}" has no host`);
  return problems;
}

/** One written value → its resolved form, or a problem (undefined then). */
function parseValue(def: EnvoySettingDef, raw: unknown, problems: string[]): unknown {
  const name = label(def.key);
  const asText = (): string | undefined => {
    if (typeof raw === 'string') return raw;
    problems.push(`${name} must be a string, got ${JSON.stringify(raw)}`);
    return undefined;
  };
  switch (def.kind) {
    case 'text':
      return asText();
    case 'number':
    case 'mib': {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN;
      if (!Number.isFinite(n)) {
        problems.push(`${name} must be a number, got ${JSON.stringify(raw)}`);
        return undefined;
      }
      return def.kind === 'mib' ? Math.round(n * MIB) : n;
    }
    case 'urls':
      if (Array.isArray(raw) && raw.every((p): p is string => typeof p === 'string')) return Object.freeze([...raw]);
      problems.push(`${name} must be a list of base URLs, got ${JSON.stringify(raw)}`);
      return undefined;
    case 'hostPort': {
      if (raw === null || raw === '') return null;
      const parsed = typeof raw === 'string' ? parseHostPort(raw) : null;
      if (parsed === null) problems.push(`${name} must be host:port of an OTLP/gRPC collector, got ${JSON.stringify(raw)}`);
      return parsed ?? undefined;
    }
    case 'boolean':
      if (raw === true || raw === 'true') return true;
      if (raw === false || raw === 'false') return false;
      problems.push(`${name} must be true or false, got ${JSON.stringify(raw)}`);
      return undefined;
    case 'socket': {
      const path = asText();
      return path === undefined ? undefined : Object.freeze({ socketPath: path });
    }
    case 'address': {
      const text = asText();
      if (text === undefined) return undefined;
      const parsed = parseHostPort(text);
      if (parsed === null) problems.push(`${name} must be host:port (or [v6]:port) with a port 1-65535, got "${text}"`);
      return parsed === null ? undefined : Object.freeze(parsed);
    }
  }
}

const given = (values: EnvoyValues, def: EnvoySettingDef): boolean => values[def.key as EnvoyValueKey] !== undefined && values[def.key as EnvoyValueKey] !== null;

/** The entries of each field, in table order. */
const DEFS_BY_FIELD: ReadonlyMap<string, readonly EnvoySettingDef[]> = (() => {
  const map = new Map<string, EnvoySettingDef[]>();
  for (const def of ENVOY_SETTING_DEFS as readonly EnvoySettingDef[]) map.set(def.field, [...(map.get(def.field) ?? []), def]);
  return map;
})();

/**
 * Values file + flags → settings. Unknown keys, wrong types and bad values
 * are all collected and thrown together as one ConfigError.
 */
export function resolveEnvoySettings(values: EnvoyValues): EnvoySettings {
  const problems: string[] = [];
  for (const key of Object.keys(values)) {
    if (!(VALUE_KEYS as readonly string[]).includes(key)) problems.push(`unknown setting "${key}"; known settings: ${VALUE_KEYS.join(', ')}`);
  }
  const settings: Record<string, unknown> = {};
  for (const [field, defs] of DEFS_BY_FIELD) {
    // The field's default comes from the entry that has one (for the processor: the socket).
    const fallbackDef = defs.find((d) => d.default !== null) ?? (defs[0] as EnvoySettingDef);
    const fallback = parseValue(fallbackDef, fallbackDef.default, problems);
    const set = defs.filter((d) => given(values, d));
    if (set.length > 1) {
      problems.push(`set either ${set.map((d) => label(d.key)).join(' or ')}, not both`);
      settings[field] = fallback;
      continue;
    }
    const def = set[0];
    settings[field] = def === undefined ? fallback : (parseValue(def, values[def.key as EnvoyValueKey], problems) ?? fallback);
  }
  const resolved = settings as EnvoySettings;
  problems.push(...envoySettingsProblems(resolved));
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(resolved);
}

/** Every problem with a settings object (empty when it is usable): each setting's own check, then how they fit together. */
export function envoySettingsProblems(s: EnvoySettings): string[] {
  const problems: string[] = [];
  const fields = s as unknown as Readonly<Record<string, unknown>>;
  for (const def of ENVOY_SETTING_DEFS as readonly EnvoySettingDef[]) {
    if (def.check !== undefined) problems.push(...def.check(fields[def.field] as never, label(def.key)));
  }
  if (s.adminAddress === s.listenAddress && s.adminPort === s.listenPort) problems.push(`${label('adminPort')} and ${label('listenPort')} must differ on the same address (both ${s.listenPort})`);
  if (s.readyPort === s.listenPort) problems.push(`${label('readyPort')} and ${label('listenPort')} must differ (both ${s.listenPort})`);
  // 0.0.0.0 covers loopback too, so the ready listener and admin may never share a port.
  if (s.readyPort === s.adminPort) problems.push(`${label('readyPort')} and ${label('adminPort')} must differ (both ${s.adminPort})`);
  // Strictly larger: a body just over the gateway's limit must still reach the processor,
  // which answers with the gateway's own 413 instead of Envoy's bare one.
  if (Number.isInteger(s.bufferLimitBytes) && s.bufferLimitBytes > 0 && s.bufferLimitBytes <= s.maxBodyBytes) {
    problems.push(`${label('bufferLimitMb')} (${s.bufferLimitBytes / MIB} MiB) must be larger than the gateway's body limit ${label('maxBodyMb')} (${s.maxBodyBytes / MIB} MiB)`);
  }
  if (Number.isFinite(s.memoryLimitBytes) && s.memoryLimitBytes >= 64 * MIB && Number.isInteger(s.bufferLimitBytes) && s.memoryLimitBytes * HEAP_SHARE < 2 * s.bufferLimitBytes) {
    // Below two buffered bodies the overload manager would refuse nearly every large request.
    problems.push(`${label('memoryLimitMb')} (${s.memoryLimitBytes / MIB} MiB) leaves Envoy less heap than two buffered bodies of ${label('bufferLimitMb')} (${s.bufferLimitBytes / MIB} MiB)`);
  }
  return problems;
}

/** Throws a ConfigError listing every problem; for callers that built EnvoySettings by hand. */
export function assertEnvoySettings(s: EnvoySettings): void {
  const problems = envoySettingsProblems(s);
  if (problems.length > 0) throw new ConfigError(problems);
}

/** Every setting at its default: the table's defaults, resolved and checked like any other values. */
export const DEFAULT_ENVOY_SETTINGS: EnvoySettings = resolveEnvoySettings({});
