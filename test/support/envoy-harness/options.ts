/**
 * Configuration, counters and access-log records of the Envoy harness. Names
 * follow Envoy's ext_proc filter config and stats (reference §1.5, §2.14) so
 * a test reads like the Envoy config it stands for.
 */
import type { ProtoStruct } from '../../../src/extproc/proto.js';
import type { MutationRules } from './header-mutation.js';
import type { OverloadConfig } from './overload.js';
import type { LocalReplyConfigDoc } from './local-reply.js';
import { GATEWAY_PROCESSING_MODE, type HarnessProcessingMode } from './processing-mode.js';

/** Cuts one upstream data event into the pieces the filter is handed. */
export type ChunkSplitter = (data: Buffer) => Buffer[];

export interface ResponseChunking {
  /** Default: each upstream data event is one chunk. */
  split?: ChunkSplitter;
  /**
   * true (default): the body ends with an empty chunk carrying
   * end_of_stream, as Envoy's HTTP/1 codec delivers the end of a chunked
   * upstream body. false: the last data chunk carries end_of_stream.
   */
  emptyFinalChunk?: boolean;
}

/** A second ext_proc filter in observability_mode, after the deciding one (observer-stream.ts). */
export interface ObserverFilterOptions {
  processingMode: HarnessProcessingMode;
  /** grpc_service.initial_metadata of its streams. */
  metadata: Record<string, string>;
  failureModeAllow: boolean;
  /** forward_rules.allowed_headers (exact names); undefined sends every header. */
  allowedHeaders?: string[];
  /** deferred_close_timeout; Envoy's default 5000 ms. */
  deferredCloseTimeoutMs: number;
}

export interface EnvoyHarnessOptions {
  /** The deciding filter's grpc_service.initial_metadata. */
  processorMetadata?: Record<string, string>;
  /** The observing ext_proc filter, when the config has one. */
  observer?: ObserverFilterOptions;
  /** The processor: `host:port`, a unix socket path, or `unix:/path`. */
  processor: string;
  /** Cluster name → base URL (only scheme, host and port are used). */
  clusters: Record<string, string>;
  /**
   * Routing header (Envoy route `headers` match): its value names a cluster.
   * Default `x-gw-upstream`.
   */
  routeHeader?: string;
  /**
   * A catch-all route to this cluster for requests whose routing header names
   * no cluster (an Envoy route with only `prefix: /`). Without it and without
   * catchAll, Envoy's router answers 404 (route_not_found).
   */
  defaultCluster?: string;
  /**
   * A catch-all `direct_response` route, as the generated bootstrap has
   * (`gw_no_upstream`, 502): Envoy answers it itself at forwarding time.
   */
  catchAll?: { status: number; body: string };
  /**
   * Clusters of type envoy.clusters.dynamic_forward_proxy, by name → scheme.
   * A request routed to one goes to the host named in upstreamHostHeader
   * (the filter's per-route host_rewrite_header), as the generated bootstrap does.
   */
  dynamicClusters?: Record<string, 'http' | 'https'>;
  /** The dynamic forward proxy's host_rewrite_header; default `x-gw-upstream-host`. */
  upstreamHostHeader?: string;
  /** PEM of the CA that TLS upstream certificates are verified against (upstreamCaFile). */
  upstreamCa?: string;
  /**
   * HCM scheme_header_transformation.match_upstream: send `:scheme` https to a
   * TLS upstream. Default true (generated bootstrap); false forwards the
   * downstream scheme as Envoy does without it.
   */
  schemeMatchUpstream?: boolean;
  /** HCM generate_request_id; default false (generated bootstrap; Envoy's own default is true). */
  generateRequestId?: boolean;
  /**
   * The HCM's early_header_mutation_extensions: request headers removed before
   * the first route match. Exact names and name prefixes; default none.
   */
  earlyRemoveHeaders?: string[];
  earlyRemoveHeaderPrefixes?: string[];
  processingMode?: Partial<HarnessProcessingMode>;
  /** allow_mode_override; default false (Envoy's default). */
  allowModeOverride?: boolean;
  /** message_timeout; default 200 ms like Envoy. Tests should use seconds. */
  messageTimeoutMs?: number;
  /** max_message_timeout; 0 (default) ignores override_message_timeout. */
  maxMessageTimeoutMs?: number;
  /** failure_mode_allow; default false (fail closed). */
  failureModeAllow?: boolean;
  /**
   * Runtime ext_proc_graceful_grpc_close (default false, as in Envoy): when set, closing a
   * stream half-closes and waits this long (remote_close_timeout_milliseconds) for the
   * processor's close before resetting.
   */
  gracefulCloseMs?: number;
  /** status_on_error; default 500. */
  statusOnError?: number;
  mutationRules?: MutationRules;
  /** metadata_options.receiving_namespaces.untyped */
  receivingNamespaces?: string[];
  /** per_connection_buffer_limit_bytes for BUFFERED bodies; default 32 MiB (our Envoy config). */
  bufferLimitBytes?: number;
  responseChunking?: ResponseChunking;
  /** Route auto_host_rewrite; default true (as for provider routes). */
  autoHostRewrite?: boolean;
  /**
   * The connection manager's http_protocol_options.enable_trailers: without it Envoy's
   * HTTP/1 codec ignores the trailers of a chunked request (source/common/http/http1/
   * codec_impl.cc, ConnectionImpl::onHeaderFieldImpl: "if (!enableTrailers()) ... ignore")
   * and ends the body with end_stream on its last data instead. Default false (Envoy's).
   */
  downstreamHttp1Trailers?: boolean;
  /**
   * The HTTP/1 provider cluster's http_protocol_options.enable_trailers: without it the
   * client codec ignores a provider's response trailers the same way. Default false (Envoy's).
   */
  upstreamHttp1Trailers?: boolean;
  /** Route request_headers_to_remove, applied when forwarding; default [routeHeader] (our provider routes drop it). */
  requestHeadersToRemove?: string[];
  /**
   * Route response_headers_to_remove, applied to a provider's response by the
   * router before any encoder filter (the processor) sees it; default none.
   */
  responseHeadersToRemove?: string[];
  /**
   * Route idle_timeout: no upstream byte for this long ends the request, with
   * a "stream timeout" local reply before the response headers (504 once the
   * request was fully received, 408 before) and a stream reset after them.
   * Default: none (undici's own 300 s limits).
   */
  routeIdleTimeoutMs?: number;
  /**
   * Envoy's watermark flow control on a STREAMED response body: stop reading
   * the upstream while bufferLimitBytes or more are sent to the processor but
   * not yet written to the client, so a client that stops reading holds the
   * upstream back by TCP backpressure. Default false (reads ahead without limit).
   */
  flowControl?: boolean;
  /**
   * Envoy's OpenTelemetry tracer, as the generated bootstrap sets it (HCM
   * tracing with no_context_propagation): the request gets an ingress span
   * continuing the caller's traceparent, the ext_proc gRPC stream a child span
   * whose context rides in the stream's initial metadata (Envoy 1.31+), and the
   * upstream request gets no trace header from Envoy. Default false.
   */
  tracing?: boolean;
  /**
   * The HCM's stdout access log `log_format.json_format`: with it the harness
   * prints one JSON line per request, as Envoy would (accessLogLines). Every
   * command operator in it must be one the harness models.
   */
  accessLogFormat?: Record<string, unknown>;
  /** The bootstrap's overload_manager, read by readOverloadConfig. Default: none. */
  overload?: OverloadConfig;
  /**
   * HCM local_reply_config: every local reply (codec refusals, timeouts, the
   * router's, ext_proc failures and immediate responses) is rewritten by it.
   * Default none: Envoy's plain-text replies.
   */
  localReplyConfig?: LocalReplyConfigDoc;
  /** HCM request_headers_timeout (408 "request header timeout"); default none (Envoy's default: disabled). */
  requestHeadersTimeoutMs?: number;
  /** HCM request_timeout (408 "request timeout" until the request has gone upstream); default none. */
  requestTimeoutMs?: number;
  /**
   * HCM stream_idle_timeout: no request or response byte passing for this long
   * ends the stream, with a "stream timeout" local reply (408 while the
   * request is incomplete, 504 after) before the response headers and a reset
   * after them. Default none (Envoy's default is 5 minutes; tests use short ones).
   */
  streamIdleTimeoutMs?: number;
  /** HCM max_request_headers_kb; default 60 (Envoy's). Larger heads get 431. */
  maxRequestHeadersKb?: number;
  /** common_http_protocol_options.max_headers_count; default 100 (Envoy's). More fields get 431. */
  maxHeadersCount?: number;
}

export interface ResolvedOptions {
  processorMetadata: Record<string, string>;
  observer: ObserverFilterOptions | undefined;
  processor: string;
  clusters: Map<string, URL>;
  routeHeader: string;
  defaultCluster: string | undefined;
  catchAll: { status: number; body: string } | undefined;
  dynamicClusters: Map<string, 'http' | 'https'>;
  upstreamHostHeader: string;
  upstreamCa: string | undefined;
  schemeMatchUpstream: boolean;
  generateRequestId: boolean;
  earlyRemoveHeaders: string[];
  earlyRemoveHeaderPrefixes: string[];
  processingMode: HarnessProcessingMode;
  allowModeOverride: boolean;
  messageTimeoutMs: number;
  maxMessageTimeoutMs: number;
  failureModeAllow: boolean;
  gracefulCloseMs: number | undefined;
  statusOnError: number;
  mutationRules: MutationRules;
  receivingNamespaces: Set<string>;
  bufferLimitBytes: number;
  split: ChunkSplitter;
  emptyFinalChunk: boolean;
  autoHostRewrite: boolean;
  downstreamHttp1Trailers: boolean;
  upstreamHttp1Trailers: boolean;
  requestHeadersToRemove: string[];
  responseHeadersToRemove: string[];
  routeIdleTimeoutMs: number | undefined;
  flowControl: boolean;
  tracing: boolean;
  accessLogFormat: Record<string, unknown> | undefined;
  overload: OverloadConfig | undefined;
  localReplyConfig: LocalReplyConfigDoc | undefined;
  requestHeadersTimeoutMs: number | undefined;
  requestTimeoutMs: number | undefined;
  streamIdleTimeoutMs: number | undefined;
  maxRequestHeadersKb: number;
  maxHeadersCount: number;
}

export function resolveOptions(o: EnvoyHarnessOptions): ResolvedOptions {
  const clusters = new Map(Object.entries(o.clusters).map(([name, url]) => [name, new URL(url)]));
  if (o.defaultCluster !== undefined && !clusters.has(o.defaultCluster)) {
    throw new Error(`defaultCluster ${o.defaultCluster} is not in clusters`);
  }
  return {
    processorMetadata: o.processorMetadata ?? {},
    observer: o.observer,
    processor: o.processor,
    clusters,
    routeHeader: (o.routeHeader ?? 'x-gw-upstream').toLowerCase(),
    defaultCluster: o.defaultCluster,
    catchAll: o.catchAll,
    dynamicClusters: new Map(Object.entries(o.dynamicClusters ?? {})),
    upstreamHostHeader: (o.upstreamHostHeader ?? 'x-gw-upstream-host').toLowerCase(),
    upstreamCa: o.upstreamCa,
    schemeMatchUpstream: o.schemeMatchUpstream ?? true,
    generateRequestId: o.generateRequestId ?? false,
    earlyRemoveHeaders: (o.earlyRemoveHeaders ?? []).map((h) => h.toLowerCase()),
    earlyRemoveHeaderPrefixes: (o.earlyRemoveHeaderPrefixes ?? []).map((h) => h.toLowerCase()),
    processingMode: { ...GATEWAY_PROCESSING_MODE, ...o.processingMode },
    allowModeOverride: o.allowModeOverride ?? false,
    messageTimeoutMs: o.messageTimeoutMs ?? 200,
    maxMessageTimeoutMs: o.maxMessageTimeoutMs ?? 0,
    failureModeAllow: o.failureModeAllow ?? false,
    gracefulCloseMs: o.gracefulCloseMs,
    statusOnError: o.statusOnError ?? 500,
    mutationRules: o.mutationRules ?? {},
    receivingNamespaces: new Set(o.receivingNamespaces ?? []),
    bufferLimitBytes: o.bufferLimitBytes ?? 32 * 1024 * 1024,
    split: o.responseChunking?.split ?? ((data) => [data]),
    emptyFinalChunk: o.responseChunking?.emptyFinalChunk ?? true,
    autoHostRewrite: o.autoHostRewrite ?? true,
    downstreamHttp1Trailers: o.downstreamHttp1Trailers ?? false,
    upstreamHttp1Trailers: o.upstreamHttp1Trailers ?? false,
    requestHeadersToRemove: (o.requestHeadersToRemove ?? [o.routeHeader ?? 'x-gw-upstream']).map((h) => h.toLowerCase()),
    responseHeadersToRemove: (o.responseHeadersToRemove ?? []).map((h) => h.toLowerCase()),
    routeIdleTimeoutMs: o.routeIdleTimeoutMs,
    flowControl: o.flowControl ?? false,
    tracing: o.tracing ?? false,
    accessLogFormat: o.accessLogFormat,
    overload: o.overload,
    localReplyConfig: o.localReplyConfig,
    requestHeadersTimeoutMs: o.requestHeadersTimeoutMs,
    requestTimeoutMs: o.requestTimeoutMs,
    streamIdleTimeoutMs: o.streamIdleTimeoutMs,
    // Envoy's defaults: api/envoy/extensions/filters/network/http_connection_manager/v3/
    // http_connection_manager.proto (max_request_headers_kb), api/envoy/config/core/v3/protocol.proto (max_headers_count).
    maxRequestHeadersKb: o.maxRequestHeadersKb ?? 60,
    maxHeadersCount: o.maxHeadersCount ?? 100,
  };
}

/** Envoy's ext_proc counters, plus a few the harness's tests need. */
export interface EnvoyHarnessStats {
  streams_started: number;
  streams_closed: number;
  /** Graceful closes the processor did not answer within remote_close_timeout_milliseconds (then reset). */
  remote_close_timeouts: number;
  streams_failed: number;
  stream_msgs_sent: number;
  /** Messages the observing filter sent (none of them waits for an answer). */
  observer_msgs_sent: number;
  stream_msgs_received: number;
  spurious_msgs_received: number;
  message_timeouts: number;
  failure_mode_allowed: number;
  rejected_header_mutations: number;
  clear_route_cache_ignored: number;
  /** Route re-selected after clear_route_cache with a header mutation. */
  route_cache_cleared: number;
  override_message_timeout_received: number;
  override_message_timeout_ignored: number;
  mode_overrides_applied: number;
  mode_overrides_ignored: number;
  immediate_responses: number;
  /** Client went away before the response was complete. */
  downstream_resets: number;
  /** Requests sent per cluster. */
  upstream_requests: Record<string, number>;
  /** Requests sent per upstream host (host:port), for dynamic forward proxy clusters. */
  upstream_hosts: Record<string, number>;
}

export function newStats(): EnvoyHarnessStats {
  return {
    streams_started: 0,
    streams_closed: 0,
    remote_close_timeouts: 0,
    streams_failed: 0,
    stream_msgs_sent: 0,
    observer_msgs_sent: 0,
    stream_msgs_received: 0,
    spurious_msgs_received: 0,
    message_timeouts: 0,
    failure_mode_allowed: 0,
    rejected_header_mutations: 0,
    clear_route_cache_ignored: 0,
    route_cache_cleared: 0,
    override_message_timeout_received: 0,
    override_message_timeout_ignored: 0,
    mode_overrides_applied: 0,
    mode_overrides_ignored: 0,
    immediate_responses: 0,
    downstream_resets: 0,
    upstream_requests: {},
    upstream_hosts: {},
  };
}

/** What Envoy's access log would say about one request. */
export interface AccessLogEntry {
  method: string;
  path: string;
  /** Status sent to the client; 0 when the stream was reset before headers. */
  status: number;
  /** %RESPONSE_CODE_DETAILS%: via_upstream, an immediate_response's details, an ext_proc error... */
  responseCodeDetails: string;
  /** Cluster the request went to, if any. */
  cluster: string | undefined;
  /** %UPSTREAM_HOST% as the harness knows it: the host:port connected to. */
  upstreamHost: string | undefined;
  /** dynamic_metadata accepted from the processor, by namespace (last write wins). */
  dynamicMetadata: Record<string, ProtoStruct>;
  /** The response did not complete normally (client disconnect or stream reset). */
  reset: boolean;
  /** With tracing: the trace, Envoy's ingress span and the ext_proc call's span it sent in metadata. */
  trace: { traceId: string; ingressSpanId: string; extProcSpanId: string } | undefined;
}
