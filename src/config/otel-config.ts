import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

/**
 * OpenTelemetry export settings, read the way every OpenTelemetry SDK reads
 * them (the OTEL_* environment variables of the specification) or from the
 * `otel:` mapping of a YAML file (--otel-config / GW_OTEL_CONFIG), whose keys
 * mirror the chart's `otel` values. A key set in the file wins over its
 * environment variable. Off unless an endpoint is configured.
 */
export type OtlpProtocol = 'grpc' | 'http/protobuf' | 'http/json';
export type SamplerName = 'always_on' | 'always_off' | 'traceidratio' | 'parentbased_always_on' | 'parentbased_always_off' | 'parentbased_traceidratio';

export interface OtlpExport {
  /** Full URL: the per-signal path (/v1/traces, /v1/metrics) is already added for HTTP. */
  readonly url: string;
  readonly protocol: OtlpProtocol;
  /** Sent with every export; may carry a collector credential, so never logged. */
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly compression: 'gzip' | 'none';
  /** PEM text, read at startup so a missing file is a startup problem. */
  readonly ca: string | null;
  readonly clientCert: string | null;
  readonly clientKey: string | null;
  /** gRPC without TLS to an endpoint given without a scheme or with http://. */
  readonly insecure: boolean;
}

export interface OtelConfig {
  readonly traces: OtlpExport | null;
  readonly metrics: OtlpExport | null;
  readonly serviceName: string;
  readonly resourceAttributes: Readonly<Record<string, string>>;
  readonly sampler: SamplerName;
  readonly samplerRatio: number;
  readonly metricIntervalMs: number;
}

const PROTOCOLS: readonly OtlpProtocol[] = ['grpc', 'http/protobuf', 'http/json'];
const SAMPLERS: readonly SamplerName[] = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'];

type Signal = 'traces' | 'metrics';
type FileValues = Record<string, unknown>;

/** The settings of the file, flattened to the names of the environment variables they stand for. */
const FILE_KEYS: Readonly<Record<string, string>> = {
  endpoint: 'ENDPOINT',
  protocol: 'PROTOCOL',
  headers: 'HEADERS',
  timeoutMs: 'TIMEOUT',
  compression: 'COMPRESSION',
  caFile: 'CERTIFICATE',
  clientCertFile: 'CLIENT_CERTIFICATE',
  clientKeyFile: 'CLIENT_KEY',
  insecure: 'INSECURE',
};

function fileSection(file: FileValues | null, signal: Signal | null): Record<string, string> {
  const out: Record<string, string> = {};
  const section = signal === null ? file : (file?.[signal] as FileValues | undefined);
  if (!section || typeof section !== 'object') return out;
  for (const [key, name] of Object.entries(FILE_KEYS)) {
    const value = section[key];
    if (value === undefined || value === null) continue;
    if (key === 'headers' && typeof value === 'object') {
      out[name] = Object.entries(value as Record<string, unknown>)
        .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
        .join(',');
    } else {
      out[name] = String(value);
    }
  }
  return out;
}

/** `k=v,k2=v2` with percent-encoded values (the W3C Baggage-like list the OTel spec uses). */
function keyValueList(raw: string, what: string, problems: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of raw.split(',')) {
    if (part.trim() === '') continue;
    const eq = part.indexOf('=');
    const key = eq === -1 ? '' : part.slice(0, eq).trim();
    if (key === '') {
      // The entry may carry a credential: name its position, never its text.
      problems.push(`${what}: every entry must be key=value`);
      continue;
    }
    try {
      out[decodeURIComponent(key)] = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      problems.push(`${what}: an entry is not valid percent-encoding`);
    }
  }
  return out;
}

function readPem(path: string | undefined, what: string, problems: string[]): string | null {
  if (path === undefined || path === '') return null;
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    problems.push(`${what} ${path}: ${(error as Error).message}`);
    return null;
  }
}

function signalExport(signal: Signal, env: NodeJS.ProcessEnv, file: FileValues | null, problems: string[]): OtlpExport | null {
  const SIGNAL = signal.toUpperCase();
  const fromFileSignal = fileSection(file, signal);
  const fromFile = fileSection(file, null);
  const value = (name: string): string | undefined => fromFileSignal[name] ?? env[`OTEL_EXPORTER_OTLP_${SIGNAL}_${name}`] ?? fromFile[name] ?? env[`OTEL_EXPORTER_OTLP_${name}`];
  const exporter = env[`OTEL_${SIGNAL}_EXPORTER`];
  if (exporter !== undefined && exporter !== 'otlp' && exporter !== 'none') problems.push(`OTEL_${SIGNAL}_EXPORTER must be otlp or none, got "${exporter}"`);
  if (exporter === 'none') return null;

  // A per-signal endpoint is used as given; the general one gets the signal's path (HTTP only).
  const specific = fromFileSignal.ENDPOINT ?? env[`OTEL_EXPORTER_OTLP_${SIGNAL}_ENDPOINT`];
  const general = fromFile.ENDPOINT ?? env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if ((specific ?? general ?? '') === '') return null;

  const protocolText = value('PROTOCOL') ?? 'http/protobuf';
  const protocol = PROTOCOLS.find((p) => p === protocolText);
  if (!protocol) problems.push(`OTEL_EXPORTER_OTLP_${SIGNAL}_PROTOCOL must be one of ${PROTOCOLS.join(', ')}, got "${protocolText}"`);

  let raw = (specific ?? general) as string;
  // gRPC endpoints are often written host:port; the spec reads that as http:// unless told otherwise.
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) raw = `${value('INSECURE') === 'false' ? 'https' : 'http'}://${raw}`;
  let url: URL | null = null;
  try {
    url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
    if (url.username !== '' || url.password !== '') throw new Error('credentials');
  } catch {
    url = null;
    problems.push(`the OTLP ${signal} endpoint must be an http:// or https:// URL without credentials in it`);
  }
  if (url && specific === undefined && protocol !== 'grpc') {
    url.pathname = `${url.pathname.replace(/\/+$/, '')}/v1/${signal}`;
  }

  const timeoutText = value('TIMEOUT') ?? '10000';
  const timeoutMs = Number(timeoutText);
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) problems.push(`OTEL_EXPORTER_OTLP_${SIGNAL}_TIMEOUT must be a positive number of milliseconds, got "${timeoutText}"`);
  const compression = value('COMPRESSION') ?? 'none';
  if (compression !== 'gzip' && compression !== 'none') problems.push(`OTEL_EXPORTER_OTLP_${SIGNAL}_COMPRESSION must be gzip or none, got "${compression}"`);
  const insecureText = value('INSECURE');
  if (insecureText !== undefined && insecureText !== 'true' && insecureText !== 'false') problems.push(`OTEL_EXPORTER_OTLP_${SIGNAL}_INSECURE must be true or false`);

  const config: OtlpExport = {
    url: url?.toString() ?? '',
    protocol: protocol ?? 'http/protobuf',
    headers: keyValueList(value('HEADERS') ?? '', `OTEL_EXPORTER_OTLP_${SIGNAL}_HEADERS`, problems),
    timeoutMs,
    compression: compression === 'gzip' ? 'gzip' : 'none',
    ca: readPem(value('CERTIFICATE'), `OTEL_EXPORTER_OTLP_${SIGNAL}_CERTIFICATE`, problems),
    clientCert: readPem(value('CLIENT_CERTIFICATE'), `OTEL_EXPORTER_OTLP_${SIGNAL}_CLIENT_CERTIFICATE`, problems),
    clientKey: readPem(value('CLIENT_KEY'), `OTEL_EXPORTER_OTLP_${SIGNAL}_CLIENT_KEY`, problems),
    insecure: url?.protocol === 'http:' && insecureText !== 'false',
  };
  if ((config.clientCert === null) !== (config.clientKey === null)) problems.push(`OTLP ${signal}: a client certificate and a client key go together`);
  return Object.freeze(config);
}

function readFile(path: string | undefined, problems: string[]): FileValues | null {
  if (path === undefined || path === '') return null;
  let doc: unknown;
  try {
    doc = parse(readFileSync(path, 'utf8'));
  } catch (error) {
    problems.push(`--otel-config ${path}: ${(error as Error).message.split('\n')[0]}`);
    return null;
  }
  const otel = (doc as { otel?: unknown } | null)?.otel;
  if (typeof otel !== 'object' || otel === null || Array.isArray(otel)) {
    problems.push(`--otel-config ${path}: expected a mapping under the key "otel"`);
    return null;
  }
  const known = new Set([...Object.keys(FILE_KEYS), 'traces', 'metrics', 'serviceName', 'resourceAttributes', 'sampler', 'samplerArg', 'metricExportIntervalMs', 'enabled']);
  for (const key of Object.keys(otel)) if (!known.has(key)) problems.push(`--otel-config ${path}: unknown key otel.${key}`);
  return otel as FileValues;
}

/**
 * Read once at startup; every problem is reported together (by the caller's
 * ConfigError), and header values never appear in a problem.
 */
export function readOtelConfig(env: NodeJS.ProcessEnv, filePath: string | undefined, defaultServiceName: string, problems: string[]): OtelConfig {
  const file = readFile(filePath, problems);
  const disabled = file?.enabled === false || (file?.enabled === undefined && env.OTEL_SDK_DISABLED === 'true');
  const traces = signalExport('traces', env, file, problems);
  const metrics = signalExport('metrics', env, file, problems);

  const samplerText = (file?.sampler as string | undefined) ?? env.OTEL_TRACES_SAMPLER ?? 'parentbased_always_on';
  const sampler = SAMPLERS.find((s) => s === samplerText);
  if (!sampler) problems.push(`OTEL_TRACES_SAMPLER must be one of ${SAMPLERS.join(', ')}, got "${samplerText}"`);
  const argText = file?.samplerArg !== undefined ? String(file.samplerArg) : env.OTEL_TRACES_SAMPLER_ARG;
  const samplerRatio = argText === undefined ? 1 : Number(argText);
  if (!Number.isFinite(samplerRatio) || samplerRatio < 0 || samplerRatio > 1) problems.push(`OTEL_TRACES_SAMPLER_ARG must be a ratio between 0 and 1, got "${argText}"`);

  const resourceAttributes = keyValueList(env.OTEL_RESOURCE_ATTRIBUTES ?? '', 'OTEL_RESOURCE_ATTRIBUTES', problems);
  const fileAttributes = file?.resourceAttributes;
  if (fileAttributes !== undefined) {
    if (typeof fileAttributes !== 'object' || fileAttributes === null) problems.push('otel.resourceAttributes must be a mapping');
    else for (const [k, v] of Object.entries(fileAttributes)) resourceAttributes[k] = String(v);
  }
  const serviceName = (file?.serviceName as string | undefined) ?? env.OTEL_SERVICE_NAME ?? resourceAttributes['service.name'] ?? defaultServiceName;

  const intervalText = file?.metricExportIntervalMs !== undefined ? String(file.metricExportIntervalMs) : env.OTEL_METRIC_EXPORT_INTERVAL;
  const metricIntervalMs = intervalText === undefined ? 60_000 : Number(intervalText);
  if (!Number.isFinite(metricIntervalMs) || metricIntervalMs < 100) problems.push(`OTEL_METRIC_EXPORT_INTERVAL must be at least 100 (milliseconds), got "${intervalText}"`);

  return Object.freeze({
    traces: disabled ? null : traces,
    metrics: disabled ? null : metrics,
    serviceName,
    resourceAttributes: Object.freeze(resourceAttributes),
    sampler: sampler ?? 'parentbased_always_on',
    samplerRatio,
    metricIntervalMs,
  });
}
