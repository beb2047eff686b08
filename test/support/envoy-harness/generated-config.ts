/**
 * Harness options that stand for the bootstrap `gw envoy-config` generates:
 * the route table, catch-all and header handling are read from the generated
 * document itself, so the harness and the real Envoy config cannot drift.
 */
import { DEFAULT_ENVOY_SETTINGS } from '../../../src/config/envoy-settings.js';
import { envoyBootstrap } from '../../../src/envoy/bootstrap.js';
import type { EnvoySettings } from '../../../src/config/envoy-settings.js';
import type { LocalReplyConfigDoc } from './local-reply.js';
import type { EnvoyHarnessOptions } from './options.js';
import { readOverloadConfig } from './overload.js';
import { GATEWAY_PROCESSING_MODE, type HarnessProcessingMode } from './processing-mode.js';

interface RouteDoc {
  match: { headers?: Array<{ name: string; string_match?: { exact: string } }> };
  route?: { cluster: string };
  direct_response?: { status: number; body?: { inline_string?: string } };
  request_headers_to_remove?: string[];
  response_headers_to_remove?: string[];
  typed_per_filter_config?: Record<string, { host_rewrite_header?: string }>;
}

interface ClusterDoc {
  name: string;
  cluster_type?: { name: string };
  transport_socket?: unknown;
  typed_extension_protocol_options?: Record<string, { explicit_http_config?: { http_protocol_options?: { enable_trailers?: boolean } } }>;
}

interface AccessLogDoc {
  name?: string;
  typed_config?: { '@type'?: string; log_format?: { json_format?: Record<string, unknown> } };
}

interface ExtProcDoc {
  '@type'?: string;
  metadata_options?: { receiving_namespaces?: { untyped?: string[] } };
  grpc_service?: { initial_metadata?: Array<{ key: string; value: string }> };
  observability_mode?: boolean;
  failure_mode_allow?: boolean;
  processing_mode?: Partial<HarnessProcessingMode>;
  forward_rules?: { allowed_headers?: { patterns: Array<{ exact?: string }> } };
  deferred_close_timeout?: string;
}

const EXT_PROC = 'type.googleapis.com/envoy.extensions.filters.http.ext_proc.v3.ExternalProcessor';

function initialMetadata(doc: ExtProcDoc): Record<string, string> {
  return Object.fromEntries((doc.grpc_service?.initial_metadata ?? []).map((m) => [m.key, m.value]));
}

/** The deciding filter's metadata and the observing filter, as the harness models them. */
function extProcFilters(filters: HcmDoc['http_filters']): Pick<EnvoyHarnessOptions, 'processorMetadata' | 'observer'> {
  const extProcs = filters.filter((f) => f.typed_config['@type'] === EXT_PROC);
  const [decide, ...rest] = extProcs;
  if (!decide || decide.typed_config.observability_mode) throw new Error('envoy-harness: the first ext_proc filter must be the deciding one');
  const observe = rest[0]?.typed_config;
  if (rest.length > 1 || (observe && !observe.observability_mode)) throw new Error('envoy-harness: only one more ext_proc filter, in observability_mode, is modelled');
  const metadata = initialMetadata(decide.typed_config);
  if (!observe) return { processorMetadata: metadata };
  const patterns = observe.forward_rules?.allowed_headers?.patterns;
  if (patterns?.some((p) => p.exact === undefined)) throw new Error('envoy-harness: only exact forward_rules patterns are modelled');
  return {
    processorMetadata: metadata,
    observer: {
      processingMode: { ...GATEWAY_PROCESSING_MODE, ...observe.processing_mode },
      metadata: initialMetadata(observe),
      failureModeAllow: observe.failure_mode_allow ?? false,
      ...(patterns ? { allowedHeaders: patterns.map((p) => (p.exact ?? '').toLowerCase()) } : {}),
      deferredCloseTimeoutMs: millis(observe.deferred_close_timeout) ?? 5000,
    },
  };
}

interface HcmDoc {
  access_log?: AccessLogDoc[];
  generate_request_id?: boolean;
  http_protocol_options?: { enable_trailers?: boolean };
  request_headers_timeout?: string;
  request_timeout?: string;
  stream_idle_timeout?: string;
  max_request_headers_kb?: number;
  common_http_protocol_options?: { max_headers_count?: number };
  local_reply_config?: LocalReplyConfigDoc;
  http_filters: Array<{ name: string; typed_config: ExtProcDoc }>;
  scheme_header_transformation?: { match_upstream?: boolean };
  early_header_mutation_extensions?: Array<{ typed_config: { mutations: Array<{ remove?: string; remove_on_match?: { key_matcher: { prefix?: string } } }> } }>;
  route_config: { virtual_hosts: Array<{ routes: RouteDoc[] }> };
}

/** An Envoy Duration as the generator writes it ("30s", "2.5s"); "0s" disables. */
function millis(duration: string | undefined): number | undefined {
  if (duration === undefined) return undefined;
  const match = /^(\d+(?:\.\d+)?)s$/.exec(duration);
  if (!match) throw new Error(`the generated bootstrap has a duration the harness cannot read: ${duration}`);
  const ms = Math.round(Number(match[1]) * 1000);
  return ms === 0 ? undefined : ms;
}

const GRACEFUL_CLOSE = 'envoy.reloadable_features.ext_proc_graceful_grpc_close';
const REMOTE_CLOSE_TIMEOUT = 'envoy.filters.http.ext_proc.remote_close_timeout_milliseconds';

/** ext_proc's close as the static runtime sets it (the last layer that has a key wins, as in Envoy). */
function gracefulClose(layers: Array<{ static_layer?: Record<string, unknown> }>): Pick<EnvoyHarnessOptions, 'gracefulCloseMs'> {
  let graceful = false;
  let timeoutMs = 1000; // Envoy's DefaultRemoteCloseTimeoutMilliseconds
  for (const layer of layers) {
    const values = layer.static_layer ?? {};
    if (GRACEFUL_CLOSE in values) graceful = values[GRACEFUL_CLOSE] === true;
    if (REMOTE_CLOSE_TIMEOUT in values) timeoutMs = Number(values[REMOTE_CLOSE_TIMEOUT]);
  }
  return graceful ? { gracefulCloseMs: timeoutMs } : {};
}

/** The harness options for the bootstrap the generator makes from these settings (default: the defaults). */
export function generatedConfigHarnessOptions(settings: EnvoySettings = DEFAULT_ENVOY_SETTINGS): Omit<EnvoyHarnessOptions, 'processor'> {
  return harnessOptionsFromBootstrap(envoyBootstrap(settings));
}

const STDOUT_LOG = 'type.googleapis.com/envoy.extensions.access_loggers.stream.v3.StdoutAccessLog';

/** The one stdout JSON access log the harness can print; anything else is refused. */
function accessLogFormat(logs: AccessLogDoc[] | undefined): Record<string, unknown> | undefined {
  if (!logs || logs.length === 0) return undefined;
  const [log, ...rest] = logs;
  const format = log?.typed_config?.log_format?.json_format;
  if (rest.length > 0 || log?.typed_config?.['@type'] !== STDOUT_LOG || !format) {
    throw new Error('envoy-harness: only one stdout access log with a json_format is modelled');
  }
  return format;
}

/**
 * The harness options for a bootstrap document: `envoyBootstrap()`'s object,
 * or the YAML `gw envoy-config` wrote, parsed.
 */
export function harnessOptionsFromBootstrap(bootstrap: object): Omit<EnvoyHarnessOptions, 'processor'> {
  const doc = bootstrap as {
    overload_manager?: unknown;
    layered_runtime?: { layers?: Array<{ static_layer?: Record<string, unknown> }> };
    static_resources: { listeners: Array<{ filter_chains: Array<{ filters: Array<{ typed_config: HcmDoc }> }> }>; clusters: ClusterDoc[] };
  };
  const hcm = doc.static_resources.listeners[0]?.filter_chains[0]?.filters[0]?.typed_config as HcmDoc;
  const routes = hcm.route_config.virtual_hosts[0]?.routes ?? [];
  const dynamicClusters: Record<string, 'http' | 'https'> = {};
  let hostHeader: string | undefined;
  let routeHeader: string | undefined;
  let toRemove: string[] = [];
  let responseToRemove: string[] = [];
  let upstreamHttp1Trailers = false;
  for (const route of routes) {
    const cluster = doc.static_resources.clusters.find((c) => c.name === route.route?.cluster);
    if (!cluster || cluster.cluster_type?.name !== 'envoy.clusters.dynamic_forward_proxy') continue;
    dynamicClusters[cluster.name] = cluster.transport_socket ? 'https' : 'http';
    if (!cluster.transport_socket) {
      upstreamHttp1Trailers = Object.values(cluster.typed_extension_protocol_options ?? {}).some((o) => o.explicit_http_config?.http_protocol_options?.enable_trailers === true);
    }
    hostHeader = Object.values(route.typed_per_filter_config ?? {})[0]?.host_rewrite_header;
    routeHeader = route.match.headers?.find((h) => h.string_match?.exact === cluster.name)?.name;
    toRemove = route.request_headers_to_remove ?? [];
    responseToRemove = route.response_headers_to_remove ?? [];
  }
  const catchAll = routes.at(-1)?.direct_response;
  const mutations = hcm.early_header_mutation_extensions?.flatMap((e) => e.typed_config.mutations) ?? [];
  if (!hostHeader || !routeHeader || !catchAll) throw new Error('the generated bootstrap no longer has the routes the harness reads');
  return {
    clusters: {},
    dynamicClusters,
    routeHeader,
    upstreamHostHeader: hostHeader,
    requestHeadersToRemove: toRemove,
    responseHeadersToRemove: responseToRemove,
    catchAll: { status: catchAll.status, body: catchAll.body?.inline_string ?? '' },
    generateRequestId: hcm.generate_request_id ?? true,
    schemeMatchUpstream: hcm.scheme_header_transformation?.match_upstream ?? false,
    downstreamHttp1Trailers: hcm.http_protocol_options?.enable_trailers ?? false,
    upstreamHttp1Trailers,
    earlyRemoveHeaders: mutations.flatMap((m) => (m.remove ? [m.remove] : [])),
    earlyRemoveHeaderPrefixes: mutations.flatMap((m) => (m.remove_on_match?.key_matcher.prefix ? [m.remove_on_match.key_matcher.prefix] : [])),
    allowModeOverride: true,
    ...gracefulClose(doc.layered_runtime?.layers ?? []),
    ...(hcm.access_log ? { accessLogFormat: accessLogFormat(hcm.access_log) } : {}),
    ...(doc.overload_manager !== undefined ? { overload: readOverloadConfig(doc.overload_manager) } : {}),
    ...extProcFilters(hcm.http_filters),
    receivingNamespaces: hcm.http_filters.flatMap((f) => f.typed_config.metadata_options?.receiving_namespaces?.untyped ?? []),
    localReplyConfig: hcm.local_reply_config,
    requestHeadersTimeoutMs: millis(hcm.request_headers_timeout),
    requestTimeoutMs: millis(hcm.request_timeout),
    streamIdleTimeoutMs: millis(hcm.stream_idle_timeout),
    ...(hcm.max_request_headers_kb !== undefined ? { maxRequestHeadersKb: hcm.max_request_headers_kb } : {}),
    ...(hcm.common_http_protocol_options?.max_headers_count !== undefined ? { maxHeadersCount: hcm.common_http_protocol_options.max_headers_count } : {}),
  };
}
