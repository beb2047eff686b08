/**
 * Settings of `gw envoy-config`: what the generated Envoy bootstrap needs to
 * know about the deployment. Pure: the CLI reads files and argv, this module
 * only checks values, applies defaults and reports every problem at once.
 */
import { isIP } from 'node:net';
import { ConfigError } from '../config/load-resources.js';
import { DEFAULT_PIPELINE_CONFIG } from '../pipeline/config.js';

const MIB = 1024 * 1024;

/** Where Envoy reaches `gw extproc`: a Unix socket (sidecar) or a TCP host:port. */
export type ProcessorEndpoint = { readonly socketPath: string } | { readonly host: string; readonly port: number };

export interface EnvoySettings {
  /** Listener bind address (an IP literal; Envoy does not resolve names for listeners). */
  readonly listenAddress: string;
  readonly listenPort: number;
  /**
   * Envoy's own admin interface. Loopback only: it serves POST /quitquitquit,
   * /drain_listeners and config dumps to anyone who reaches it.
   */
  readonly adminAddress: string;
  readonly adminPort: number;
  /** The readiness listener (on listenAddress): GET /ready, 200 while live, 503 once draining. */
  readonly readyPort: number;
  /**
   * The `{base_url}` prefix, '' for none. It does not change the route table:
   * every route matches prefix `/` and `gw extproc --prefix` strips it and
   * sets `:path`. Checked here so both sides are configured with one value.
   */
  readonly pathPrefix: string;
  readonly processor: ProcessorEndpoint;
  /**
   * Provider base URLs whose hosts Envoy resolves at start (the dynamic forward
   * proxy's preresolve_hostnames). Any other host a ProviderCredential names is
   * resolved on its first request; none needs a redeploy.
   */
  readonly providers: readonly string[];
  /** ext_proc `message_timeout`: how long Envoy waits for each processor answer. */
  readonly messageTimeoutSeconds: number;
  /** Listener `per_connection_buffer_limit_bytes`: bounds BUFFERED request (and JSON response) bodies. */
  readonly bufferLimitBytes: number;
  /** The body limit `gw extproc` runs with (its `--max-body-mb`); the buffer limit must exceed it. */
  readonly maxBodyBytes: number;
  /**
   * HCM `stream_idle_timeout` and each route's `idle_timeout`: the "no bytes for this long" guard.
   * At least MIN_STREAM_IDLE_TIMEOUT_SECONDS: a non-streaming call sends nothing until its answer.
   */
  readonly streamIdleTimeoutSeconds: number;
  /** HCM `drain_timeout`: the HTTP/2 GOAWAY grace period while a connection drains. */
  readonly drainTimeoutSeconds: number;
  /** Provider clusters' `connect_timeout`. */
  readonly connectTimeoutSeconds: number;
  /** CA bundle that provider certificates are verified against (inside the Envoy container). */
  readonly upstreamCaFile: string;
  /** Circuit-breaker ceiling per cluster (connections, pending and active requests); Envoy's default is 1024. */
  readonly maxConcurrentRequests: number;
  /**
   * OTLP/gRPC collector (host:port) for Envoy's OpenTelemetry tracer; null
   * (the default) leaves tracing out of the bootstrap.
   */
  readonly tracingCollector: { readonly host: string; readonly port: number } | null;
  /** Speak TLS to the collector, verified against upstreamCaFile. */
  readonly tracingCollectorTls: boolean;
  readonly tracingServiceName: string;
  /** Share of new traces Envoy starts (a caller's sampled traceparent is always followed). */
  readonly tracingSamplingPercent: number;
  /**
   * The Envoy container's memory limit. The overload manager's heap ceiling is
   * HEAP_SHARE of it, so Envoy sheds load before the kernel kills it.
   */
  readonly memoryLimitBytes: number;
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

export const DEFAULT_PROCESSOR_SOCKET = '/var/run/gw/extproc.sock';

export const DEFAULT_ENVOY_SETTINGS: EnvoySettings = Object.freeze({
  listenAddress: '0.0.0.0',
  listenPort: 8080,
  adminAddress: '127.0.0.1',
  adminPort: 9901,
  readyPort: 9902,
  pathPrefix: '',
  processor: Object.freeze({ socketPath: DEFAULT_PROCESSOR_SOCKET }),
  providers: Object.freeze(['https://api.anthropic.com']),
  // Above the default caller-slot queue wait (GatewaySettings callerConcurrency.queueWaitSeconds,
  // 5 s), which the processor spends inside its request_headers answer: a wait that ran into
  // the message timer would turn the intended 429 into Envoy's 504.
  messageTimeoutSeconds: 10,
  bufferLimitBytes: 40 * MIB,
  maxBodyBytes: DEFAULT_PIPELINE_CONFIG.maxBodyBytes,
  // Above the SDKs' 10-minute wait for a non-streaming answer, with room for the
  // provider's own queueing before its first byte.
  streamIdleTimeoutSeconds: 900,
  drainTimeoutSeconds: 5,
  connectTimeoutSeconds: 5,
  upstreamCaFile: '/etc/ssl/certs/ca-certificates.crt',
  maxConcurrentRequests: 4096,
  tracingCollector: null,
  tracingCollectorTls: false,
  tracingServiceName: 'gw-envoy',
  tracingSamplingPercent: 100,
  memoryLimitBytes: 1024 * MIB,
});

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

/**
 * The keys of a `--values` file (and of the Helm chart's `envoy` values).
 * Each one has a matching CLI flag; see FLAG_OF.
 */
export const VALUE_KEYS = [
  'listenAddress',
  'listenPort',
  'adminAddress',
  'adminPort',
  'readyPort',
  'pathPrefix',
  'processorSocket',
  'processorAddress',
  'providers',
  'messageTimeoutSeconds',
  'bufferLimitMb',
  'maxBodyMb',
  'streamIdleTimeoutSeconds',
  'drainTimeoutSeconds',
  'connectTimeoutSeconds',
  'upstreamCaFile',
  'maxConcurrentRequests',
  'tracingCollector',
  'tracingCollectorTls',
  'tracingServiceName',
  'tracingSamplingPercent',
  'memoryLimitMb',
] as const;

export type EnvoyValueKey = (typeof VALUE_KEYS)[number];

/** The flag that sets each values key. */
export const FLAG_OF: Readonly<Record<EnvoyValueKey, string>> = Object.freeze({
  listenAddress: '--listen-address',
  listenPort: '--listen-port',
  adminAddress: '--admin-address',
  adminPort: '--admin-port',
  readyPort: '--ready-port',
  pathPrefix: '--prefix',
  processorSocket: '--processor-socket',
  processorAddress: '--processor-address',
  providers: '--provider',
  messageTimeoutSeconds: '--message-timeout-seconds',
  bufferLimitMb: '--buffer-limit-mb',
  maxBodyMb: '--max-body-mb',
  streamIdleTimeoutSeconds: '--stream-idle-timeout-seconds',
  drainTimeoutSeconds: '--drain-timeout-seconds',
  connectTimeoutSeconds: '--connect-timeout-seconds',
  upstreamCaFile: '--upstream-ca-file',
  maxConcurrentRequests: '--max-concurrent-requests',
  tracingCollector: '--tracing-collector',
  tracingCollectorTls: '--tracing-collector-tls',
  tracingServiceName: '--tracing-service-name',
  tracingSamplingPercent: '--tracing-sampling-percent',
  memoryLimitMb: '--memory-limit-mb',
});

/** Raw values as read from a values file or flags; anything may be wrong with them. */
export type EnvoyValues = Partial<Record<EnvoyValueKey, unknown>>;

const label = (key: EnvoyValueKey): string => `${key} (${FLAG_OF[key]})`;

/** `host:port` or `[v6]:port`; null when malformed. */
export function parseHostPort(text: string): { host: string; port: number } | null {
  const match = /^\[([^\]]+)\]:(\d+)$/.exec(text) ?? /^([^:[\]\s]+):(\d+)$/.exec(text);
  if (!match) return null;
  const port = Number(match[2]);
  if (!Number.isInteger(port) || port < 1 || port > 65535) return null;
  return { host: match[1] as string, port };
}

/** A URL's host as Envoy wants it in a socket_address: IPv6 without brackets. */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * Values file + flags → settings. Unknown keys, wrong types and bad values
 * are all collected and thrown together as one ConfigError.
 */
export function resolveEnvoySettings(values: EnvoyValues, defaults: EnvoySettings = DEFAULT_ENVOY_SETTINGS): EnvoySettings {
  const problems: string[] = [];
  for (const key of Object.keys(values)) {
    if (!(VALUE_KEYS as readonly string[]).includes(key)) problems.push(`unknown setting "${key}"; known settings: ${VALUE_KEYS.join(', ')}`);
  }
  const text = (key: EnvoyValueKey, fallback: string): string => {
    const v = values[key];
    if (v === undefined || v === null) return fallback;
    if (typeof v !== 'string') {
      problems.push(`${label(key)} must be a string, got ${JSON.stringify(v)}`);
      return fallback;
    }
    return v;
  };
  const num = (key: EnvoyValueKey, fallback: number): number => {
    const v = values[key];
    if (v === undefined || v === null) return fallback;
    const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
    if (!Number.isFinite(n)) {
      problems.push(`${label(key)} must be a number, got ${JSON.stringify(v)}`);
      return fallback;
    }
    return n;
  };

  let processor: ProcessorEndpoint = defaults.processor;
  const socket = values.processorSocket;
  const address = values.processorAddress;
  if (socket !== undefined && socket !== null && address !== undefined && address !== null) {
    problems.push(`set either ${label('processorSocket')} or ${label('processorAddress')}, not both`);
  } else if (address !== undefined && address !== null) {
    const raw = text('processorAddress', '');
    const parsed = parseHostPort(raw);
    if (parsed) processor = parsed;
    else if (typeof address === 'string') problems.push(`${label('processorAddress')} must be host:port (or [v6]:port) with a port 1-65535, got "${raw}"`);
  } else if (socket !== undefined && socket !== null) {
    processor = { socketPath: text('processorSocket', DEFAULT_PROCESSOR_SOCKET) };
  }

  let providers: readonly string[] = defaults.providers;
  const rawProviders = values.providers;
  if (rawProviders !== undefined && rawProviders !== null) {
    if (Array.isArray(rawProviders) && rawProviders.every((p): p is string => typeof p === 'string')) providers = rawProviders;
    else problems.push(`${label('providers')} must be a list of base URLs, got ${JSON.stringify(rawProviders)}`);
  }

  let tracingCollector = defaults.tracingCollector;
  const rawCollector = values.tracingCollector;
  if (rawCollector !== undefined && rawCollector !== null && rawCollector !== '') {
    const parsed = typeof rawCollector === 'string' ? parseHostPort(rawCollector) : null;
    if (parsed) tracingCollector = parsed;
    else problems.push(`${label('tracingCollector')} must be host:port of an OTLP/gRPC collector, got ${JSON.stringify(rawCollector)}`);
  }
  const rawTls = values.tracingCollectorTls;
  let tracingCollectorTls = defaults.tracingCollectorTls;
  if (rawTls !== undefined && rawTls !== null) {
    if (rawTls === true || rawTls === 'true') tracingCollectorTls = true;
    else if (rawTls === false || rawTls === 'false') tracingCollectorTls = false;
    else problems.push(`${label('tracingCollectorTls')} must be true or false, got ${JSON.stringify(rawTls)}`);
  }

  const settings: EnvoySettings = {
    listenAddress: text('listenAddress', defaults.listenAddress),
    listenPort: num('listenPort', defaults.listenPort),
    adminAddress: text('adminAddress', defaults.adminAddress),
    adminPort: num('adminPort', defaults.adminPort),
    readyPort: num('readyPort', defaults.readyPort),
    pathPrefix: text('pathPrefix', defaults.pathPrefix),
    processor,
    providers,
    messageTimeoutSeconds: num('messageTimeoutSeconds', defaults.messageTimeoutSeconds),
    bufferLimitBytes: Math.round(num('bufferLimitMb', defaults.bufferLimitBytes / MIB) * MIB),
    maxBodyBytes: Math.round(num('maxBodyMb', defaults.maxBodyBytes / MIB) * MIB),
    streamIdleTimeoutSeconds: num('streamIdleTimeoutSeconds', defaults.streamIdleTimeoutSeconds),
    drainTimeoutSeconds: num('drainTimeoutSeconds', defaults.drainTimeoutSeconds),
    connectTimeoutSeconds: num('connectTimeoutSeconds', defaults.connectTimeoutSeconds),
    upstreamCaFile: text('upstreamCaFile', defaults.upstreamCaFile),
    maxConcurrentRequests: num('maxConcurrentRequests', defaults.maxConcurrentRequests),
    tracingCollector,
    tracingCollectorTls,
    tracingServiceName: text('tracingServiceName', defaults.tracingServiceName),
    tracingSamplingPercent: num('tracingSamplingPercent', defaults.tracingSamplingPercent),
    memoryLimitBytes: Math.round(num('memoryLimitMb', defaults.memoryLimitBytes / MIB) * MIB),
  };
  problems.push(...envoySettingsProblems(settings));
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(settings);
}

/** One host:port Envoy resolves at start. */
export interface PreresolvedHost {
  readonly host: string;
  readonly port: number;
}

/**
 * The distinct provider hosts in first-seen order. Base paths are the
 * processor's business (it sets `:path`), and IP literals need no DNS.
 * Throws on a malformed URL; call envoySettingsProblems first.
 */
export function preresolvedHosts(providers: readonly string[]): PreresolvedHost[] {
  const seen = new Map<string, PreresolvedHost>();
  for (const base of providers) {
    const url = new URL(base);
    const host = bareHost(url);
    if (isIP(host) !== 0) continue;
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    const key = `${host}:${port}`;
    if (!seen.has(key)) seen.set(key, { host, port });
  }
  return [...seen.values()];
}

function checkPort(name: string, n: number, problems: string[]): void {
  if (!Number.isInteger(n) || n < 1 || n > 65535) problems.push(`${name} must be a port number (1-65535), got ${n}`);
}

function checkSeconds(name: string, n: number, max: number, problems: string[]): void {
  // Durations are written with millisecond precision; anything shorter would render as 0s.
  if (!Number.isFinite(n) || n < 0.001 || n > max) problems.push(`${name} must be between 0.001 and ${max} seconds, got ${n}`);
}

/** Every problem with a settings object (empty when it is usable). */
export function envoySettingsProblems(s: EnvoySettings): string[] {
  const problems: string[] = [];
  if (isIP(s.listenAddress) === 0) problems.push(`${label('listenAddress')} must be an IP address (e.g. 0.0.0.0 or ::), got "${s.listenAddress}"`);
  checkPort(label('listenPort'), s.listenPort, problems);
  if (!isLoopback(s.adminAddress)) {
    problems.push(
      `${label('adminAddress')} must be a loopback address (127.0.0.1 or ::1): Envoy's admin interface answers POST /quitquitquit to anyone who reaches it; probe ${label('readyPort')} instead, got "${s.adminAddress}"`,
    );
  }
  checkPort(label('adminPort'), s.adminPort, problems);
  checkPort(label('readyPort'), s.readyPort, problems);
  if (s.adminAddress === s.listenAddress && s.adminPort === s.listenPort) problems.push(`${label('adminPort')} and ${label('listenPort')} must differ on the same address (both ${s.listenPort})`);
  if (s.readyPort === s.listenPort) problems.push(`${label('readyPort')} and ${label('listenPort')} must differ (both ${s.listenPort})`);
  // 0.0.0.0 covers loopback too, so the ready listener and admin may never share a port.
  if (s.readyPort === s.adminPort) problems.push(`${label('readyPort')} and ${label('adminPort')} must differ (both ${s.adminPort})`);
  if (s.pathPrefix !== '' && !PREFIX.test(s.pathPrefix)) problems.push(`${label('pathPrefix')} must start with / and not end with /, got "${s.pathPrefix}"`);

  if ('socketPath' in s.processor) {
    const path = s.processor.socketPath;
    if (!path.startsWith('/') && !path.startsWith('@')) problems.push(`${label('processorSocket')} must be an absolute path (or @name for an abstract socket), got "${path}"`);
    else if (Buffer.byteLength(path) > MAX_SOCKET_PATH) problems.push(`${label('processorSocket')} is longer than ${MAX_SOCKET_PATH} bytes, the Unix socket path limit`);
  } else {
    const { host, port } = s.processor;
    if (host === '' || /[\s/]/.test(host)) problems.push(`${label('processorAddress')} has an invalid host "${host}"`);
    checkPort(label('processorAddress'), port, problems);
  }

  for (const base of s.providers) {
    let url: URL;
    try {
      url = new URL(base);
    } catch {
      problems.push(`${label('providers')}: "${base}" is not a URL`);
      continue;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      problems.push(`${label('providers')}: "${base}" must be an http:// or https:// URL`);
      continue;
    }
    if (url.username !== '' || url.password !== '') problems.push(`${label('providers')}: "${base}" must not carry credentials; they belong in ProviderCredentials`);
    if (url.search !== '' || url.hash !== '') problems.push(`${label('providers')}: "${base}" must not have a query or fragment`);
    if (url.hostname === '') problems.push(`${label('providers')}: "${base}" has no host`);
  }

  checkSeconds(label('messageTimeoutSeconds'), s.messageTimeoutSeconds, MAX_MESSAGE_TIMEOUT_SECONDS, problems);
  checkSeconds(label('streamIdleTimeoutSeconds'), s.streamIdleTimeoutSeconds, 86_400, problems);
  if (Number.isFinite(s.streamIdleTimeoutSeconds) && s.streamIdleTimeoutSeconds < MIN_STREAM_IDLE_TIMEOUT_SECONDS) {
    problems.push(
      `${label('streamIdleTimeoutSeconds')} must be at least ${MIN_STREAM_IDLE_TIMEOUT_SECONDS}: the Anthropic SDKs wait 10 minutes for a non-streaming answer, which sends no byte until it is ready, got ${s.streamIdleTimeoutSeconds}`,
    );
  }
  checkSeconds(label('drainTimeoutSeconds'), s.drainTimeoutSeconds, 3600, problems);
  checkSeconds(label('connectTimeoutSeconds'), s.connectTimeoutSeconds, 300, problems);

  if (!Number.isInteger(s.maxBodyBytes) || s.maxBodyBytes <= 0) problems.push(`${label('maxBodyMb')} must be a positive number of MiB, got ${s.maxBodyBytes / MIB}`);
  if (!Number.isInteger(s.bufferLimitBytes) || s.bufferLimitBytes <= 0) {
    problems.push(`${label('bufferLimitMb')} must be a positive number of MiB, got ${s.bufferLimitBytes / MIB}`);
  } else {
    // Strictly larger: a body just over the gateway's limit must still reach the processor,
    // which answers with the gateway's own 413 instead of Envoy's bare one.
    if (s.bufferLimitBytes <= s.maxBodyBytes) {
      problems.push(`${label('bufferLimitMb')} (${s.bufferLimitBytes / MIB} MiB) must be larger than the gateway's body limit ${label('maxBodyMb')} (${s.maxBodyBytes / MIB} MiB)`);
    }
    if (s.bufferLimitBytes > MAX_BUFFER_LIMIT_BYTES) problems.push(`${label('bufferLimitMb')} must be below 64 MiB, the largest message gw extproc accepts, got ${s.bufferLimitBytes / MIB} MiB`);
  }
  if (s.upstreamCaFile === '' || !s.upstreamCaFile.startsWith('/')) problems.push(`${label('upstreamCaFile')} must be an absolute path, got "${s.upstreamCaFile}"`);
  if (!Number.isInteger(s.maxConcurrentRequests) || s.maxConcurrentRequests < 1 || s.maxConcurrentRequests > 0xffff_ffff) {
    problems.push(`${label('maxConcurrentRequests')} must be a whole number from 1 to ${0xffff_ffff}, got ${s.maxConcurrentRequests}`);
  }
  if (s.tracingCollector !== null) {
    if (s.tracingCollector.host === '' || /[\s/]/.test(s.tracingCollector.host)) problems.push(`${label('tracingCollector')} has an invalid host "${s.tracingCollector.host}"`);
    checkPort(label('tracingCollector'), s.tracingCollector.port, problems);
  }
  if (!/^[A-Za-z0-9._-]{1,100}$/.test(s.tracingServiceName)) problems.push(`${label('tracingServiceName')} must be 1-100 letters, digits, dots, dashes or underscores, got "${s.tracingServiceName}"`);
  if (!Number.isFinite(s.tracingSamplingPercent) || s.tracingSamplingPercent < 0 || s.tracingSamplingPercent > 100) {
    problems.push(`${label('tracingSamplingPercent')} must be between 0 and 100, got ${s.tracingSamplingPercent}`);
  }
  if (!Number.isFinite(s.memoryLimitBytes) || s.memoryLimitBytes < 64 * MIB) {
    problems.push(`${label('memoryLimitMb')} must be at least 64 MiB (the Envoy container's memory limit), got ${s.memoryLimitBytes / MIB}`);
  } else if (Number.isInteger(s.bufferLimitBytes) && s.memoryLimitBytes * HEAP_SHARE < 2 * s.bufferLimitBytes) {
    // Below two buffered bodies the overload manager would refuse nearly every large request.
    problems.push(`${label('memoryLimitMb')} (${s.memoryLimitBytes / MIB} MiB) leaves Envoy less heap than two buffered bodies of ${label('bufferLimitMb')} (${s.bufferLimitBytes / MIB} MiB)`);
  }
  return problems;
}

function isLoopback(address: string): boolean {
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address) || address === '::1';
}

/** Throws a ConfigError listing every problem; for callers that built EnvoySettings by hand. */
export function assertEnvoySettings(s: EnvoySettings): void {
  const problems = envoySettingsProblems(s);
  if (problems.length > 0) throw new ConfigError(problems);
}
