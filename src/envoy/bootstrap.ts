/**
 * The Envoy v3 bootstrap that puts `gw extproc` in front of the providers.
 * Envoy carries the bytes; every decision (auth, redaction, credential,
 * upstream, path) is the processor's, so the route table only has to send a
 * request to the cluster the processor named in the routing header.
 *
 * Pure: settings in, a plain object (or its YAML) out. Key order is fixed by
 * construction, so the same settings always render the same bytes.
 */
import { isIP } from 'node:net';
import { Document, isMap, isSeq, type Node } from 'yaml';
import { DYNAMIC_CLUSTERS, ROUTE_HEADER, UPSTREAM_HOST_HEADER } from './cluster-name.js';
import { accessLogFormat } from './access-log.js';
import { downstreamRequestLimits, listenerConnectionLimitKey, maxDownstreamConnections } from './downstream-limits.js';
import { ENVOY_REPLY_MARK_HEADERS, localReplyConfig, PROCESSOR_REPLY_NAMESPACE } from './local-reply.js';
import { assertEnvoySettings, type EnvoySettings, HEAP_SHARE } from '../config/envoy-settings.js';
import { preresolvedHosts } from './preresolve.js';
import { EXTPROC_ROLE_METADATA, EXTPROC_ROLES, OBSERVE_FILTER, OBSERVE_ID_HEADER } from './observe.js';

/** The cluster Envoy's ext_proc filter streams to. Provider clusters start with gw_http(s)_, so no clash. */
export const EXTPROC_CLUSTER = 'gw_extproc';
export const EXTPROC_FILTER = 'envoy.filters.http.ext_proc';
/** The OTLP/gRPC collector Envoy's tracer exports to (only with tracing on). */
export const OTEL_COLLECTOR_CLUSTER = 'gw_otel_collector';
const LISTENER = 'gw';
/** The processor is local (sidecar socket or in-cluster); it answers a connect at once or not at all. */
const PROCESSOR_CONNECT_TIMEOUT = '1s';

/** The readiness listener Envoy answers the kubelet's probes on (admin stays on loopback). */
const READY_LISTENER = 'gw_ready';
const DNS_CACHE = 'gw_provider_dns';
/** The admin interface as a cluster, so the ready listener can serve /stats/prometheus from it. */
const ADMIN_CLUSTER = 'gw_envoy_admin';

const TYPE = {
  hcm: 'type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager',
  extProc: 'type.googleapis.com/envoy.extensions.filters.http.ext_proc.v3.ExternalProcessor',
  router: 'type.googleapis.com/envoy.extensions.filters.http.router.v3.Router',
  healthCheck: 'type.googleapis.com/envoy.extensions.filters.http.health_check.v3.HealthCheck',
  dfpFilter: 'type.googleapis.com/envoy.extensions.filters.http.dynamic_forward_proxy.v3.FilterConfig',
  dfpPerRoute: 'type.googleapis.com/envoy.extensions.filters.http.dynamic_forward_proxy.v3.PerRouteConfig',
  dfpCluster: 'type.googleapis.com/envoy.extensions.clusters.dynamic_forward_proxy.v3.ClusterConfig',
  earlyMutation: 'type.googleapis.com/envoy.extensions.http.early_header_mutation.header_mutation.v3.HeaderMutation',
  stdoutLog: 'type.googleapis.com/envoy.extensions.access_loggers.stream.v3.StdoutAccessLog',
  fixedHeap: 'type.googleapis.com/envoy.extensions.resource_monitors.fixed_heap.v3.FixedHeapConfig',
  httpOptions: 'type.googleapis.com/envoy.extensions.upstreams.http.v3.HttpProtocolOptions',
  upstreamTls: 'type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext',
  openTelemetry: 'type.googleapis.com/envoy.config.trace.v3.OpenTelemetryConfig',
} as const;
const DFP_FILTER = 'envoy.filters.http.dynamic_forward_proxy';

/**
 * HTTP/2 PING on idle provider and client connections: a peer that vanished
 * without a FIN (a NAT or load balancer dropping state) is noticed within
 * interval + timeout instead of holding a stream until the idle timeout.
 */
const HTTP2_KEEPALIVE = { interval: '30s', timeout: '20s' } as const;
/** TCP keepalive on provider connections (HTTP/1.1 ones have no PING). Seconds. */
const TCP_KEEPALIVE = { keepalive_time: 60, keepalive_interval: 15, keepalive_probes: 4 } as const;
const HTTP_OPTIONS_KEY = 'envoy.extensions.upstreams.http.v3.HttpProtocolOptions';

/** Envoy Duration text with millisecond precision ("300s", "2.5s"). */
export function duration(seconds: number): string {
  return `${Number(seconds.toFixed(3))}s`;
}

function socketAddress(address: string, port: number): object {
  return { socket_address: { address, port_value: port } };
}

function circuitBreakers(max: number): object {
  return { thresholds: [{ priority: 'DEFAULT', max_connections: max, max_pending_requests: max, max_requests: max }] };
}

function extProcCluster(s: EnvoySettings): object {
  const endpoint = 'socketPath' in s.processor ? { address: { pipe: { path: s.processor.socketPath } } } : { address: socketAddress(s.processor.host, s.processor.port) };
  // A DNS name (e.g. a Service) is resolved and every address used; an IP literal needs no DNS.
  const type = 'socketPath' in s.processor || isIP(s.processor.host) !== 0 ? 'STATIC' : 'STRICT_DNS';
  return {
    name: EXTPROC_CLUSTER,
    type,
    connect_timeout: PROCESSOR_CONNECT_TIMEOUT,
    // gRPC needs HTTP/2 to the processor.
    typed_extension_protocol_options: {
      [HTTP_OPTIONS_KEY]: { '@type': TYPE.httpOptions, explicit_http_config: { http2_protocol_options: {} } },
    },
    circuit_breakers: circuitBreakers(s.maxConcurrentRequests),
    load_assignment: { cluster_name: EXTPROC_CLUSTER, endpoints: [{ lb_endpoints: [{ endpoint }] }] },
  };
}

/**
 * The DNS cache shared by the dynamic forward proxy filter and both clusters
 * (Envoy requires the same cache config on all three). Provider base URLs from
 * the settings are resolved at start; any other host on its first request.
 */
function dnsCache(s: EnvoySettings): object {
  const preresolve = preresolvedHosts(s.providers);
  return {
    name: DNS_CACHE,
    dns_lookup_family: 'V4_PREFERRED',
    max_hosts: 1024,
    // The cache's own circuit breaker bounds requests waiting on DNS (default 1024).
    dns_cache_circuit_breaker: { max_pending_requests: s.maxConcurrentRequests },
    ...(preresolve.length > 0 ? { preresolve_hostnames: preresolve.map((h) => ({ address: h.host, port_value: h.port })) } : {}),
  };
}

/**
 * One dynamic forward proxy cluster per scheme. The host comes from the
 * request (the processor's x-gw-upstream-host, copied into Host by the
 * filter before DNS), so a provider address that appears in a new
 * ProviderCredential needs no change here. TLS: SNI and the certificate's
 * subject name are both the request's host (auto_sni, auto_san_validation),
 * verified against upstreamCaFile.
 */
function providerCluster(name: string, tls: boolean, s: EnvoySettings): object {
  const http2 = { connection_keepalive: HTTP2_KEEPALIVE };
  return {
    name,
    connect_timeout: duration(s.connectTimeoutSeconds),
    lb_policy: 'CLUSTER_PROVIDED',
    cluster_type: { name: 'envoy.clusters.dynamic_forward_proxy', typed_config: { '@type': TYPE.dfpCluster, dns_cache_config: dnsCache(s) } },
    typed_extension_protocol_options: {
      [HTTP_OPTIONS_KEY]: {
        '@type': TYPE.httpOptions,
        ...(tls ? { upstream_http_protocol_options: { auto_sni: true, auto_san_validation: true } } : {}),
        // TLS origins negotiate HTTP/2 or HTTP/1.1 by ALPN; plain-HTTP ones (local runtimes) get HTTP/1.1.
        ...(tls ? { auto_config: { http_protocol_options: {}, http2_protocol_options: http2 } } : { explicit_http_config: { http_protocol_options: {} } }),
      },
    },
    circuit_breakers: circuitBreakers(s.maxConcurrentRequests),
    upstream_connection_options: { tcp_keepalive: TCP_KEEPALIVE },
    ...(tls
      ? {
          transport_socket: {
            name: 'envoy.transport_sockets.tls',
            typed_config: {
              '@type': TYPE.upstreamTls,
              // Without a validation_context Envoy would accept any certificate.
              common_tls_context: { validation_context: { trusted_ca: { filename: s.upstreamCaFile } } },
            },
          },
        }
      : {}),
  };
}

function collectorCluster(s: EnvoySettings, collector: NonNullable<EnvoySettings['tracingCollector']>): object {
  const literal = isIP(collector.host) !== 0;
  return {
    name: OTEL_COLLECTOR_CLUSTER,
    type: literal ? 'STATIC' : 'STRICT_DNS',
    connect_timeout: duration(s.connectTimeoutSeconds),
    // OTLP/gRPC needs HTTP/2.
    typed_extension_protocol_options: {
      [HTTP_OPTIONS_KEY]: { '@type': TYPE.httpOptions, explicit_http_config: { http2_protocol_options: {} } },
    },
    load_assignment: { cluster_name: OTEL_COLLECTOR_CLUSTER, endpoints: [{ lb_endpoints: [{ endpoint: { address: socketAddress(collector.host, collector.port) } }] }] },
    ...(s.tracingCollectorTls
      ? {
          transport_socket: {
            name: 'envoy.transport_sockets.tls',
            typed_config: {
              '@type': TYPE.upstreamTls,
              ...(literal ? {} : { sni: collector.host }),
              common_tls_context: {
                alpn_protocols: ['h2'],
                validation_context: {
                  trusted_ca: { filename: s.upstreamCaFile },
                  match_typed_subject_alt_names: [{ san_type: literal ? 'IP_ADDRESS' : 'DNS', matcher: { exact: collector.host } }],
                },
              },
            },
          },
        }
      : {}),
  };
}

/**
 * Envoy's OpenTelemetry tracer: a span per request, continuing the caller's
 * traceparent. The ext_proc filter runs its gRPC stream as a child span and
 * passes that span's context to the processor in the stream's metadata, so
 * the processor's spans join the same trace. Envoy itself injects nothing
 * into the provider request (no_context_propagation): the processor decides
 * per company whether the provider gets a traceparent.
 */
function tracing(s: EnvoySettings): object {
  return {
    random_sampling: { value: s.tracingSamplingPercent },
    no_context_propagation: true,
    provider: {
      name: 'envoy.tracers.opentelemetry',
      typed_config: {
        '@type': TYPE.openTelemetry,
        grpc_service: { envoy_grpc: { cluster_name: OTEL_COLLECTOR_CLUSTER }, timeout: '5s' },
        service_name: s.tracingServiceName,
      },
    },
  };
}

function routes(s: EnvoySettings): object[] {
  const idle = duration(s.streamIdleTimeoutSeconds);
  const byHeader = [DYNAMIC_CLUSTERS.https, DYNAMIC_CLUSTERS.http].map((cluster) => ({
    name: cluster,
    match: {
      prefix: '/',
      headers: [
        { name: ROUTE_HEADER, string_match: { exact: cluster } },
        { name: UPSTREAM_HOST_HEADER, present_match: true },
      ],
    },
    route: {
      cluster,
      // The 15 s default would cut long calls; the idle timeout is the guard instead.
      timeout: '0s',
      idle_timeout: idle,
    },
    // The filter copies the processor's host into Host before DNS (and so into SNI).
    typed_per_filter_config: { [DFP_FILTER]: { '@type': TYPE.dfpPerRoute, host_rewrite_header: UPSTREAM_HOST_HEADER } },
    // Applied by the router, after the processor: the provider never sees the routing headers.
    request_headers_to_remove: [ROUTE_HEADER, UPSTREAM_HOST_HEADER, ...(s.observeResponseBody ? [OBSERVE_ID_HEADER] : [])],
    // Applied to a provider's response before the processor sees it (and before
    // local_reply_config adds them to Envoy's own replies): only Envoy's replies carry these.
    response_headers_to_remove: [...ENVOY_REPLY_MARK_HEADERS],
  }));
  // The catch-all. Envoy matches a route before the processor has answered;
  // that first match sees no routing header (Envoy strips any the client sent)
  // and lands here, and the ext_proc filter runs all the same. The processor's
  // answer sets the routing headers and clears the route cache, so the router
  // re-matches one of the routes above before forwarding. Reaching this route
  // at forwarding time means the processor let the request pass without
  // deciding (a clean stream close): nothing checked it and no credential was
  // chosen, so it fails closed with a local reply: a gateway defect (500
  // internal_error once local_reply_config has put it in our shape).
  const catchAll = {
    name: 'gw_no_upstream',
    match: { prefix: '/' },
    direct_response: { status: 500, body: { inline_string: 'the gateway did not choose an upstream for this request' } },
  };
  return [...byHeader, catchAll];
}

function extProcFilter(s: EnvoySettings): object {
  return {
    name: EXTPROC_FILTER,
    typed_config: {
      '@type': TYPE.extProc,
      // No grpc_service timeout: it would bound the whole stream, and a stream lives as long as the response.
      // With the observing filter, the processor is told so it may hand a stream's body to it.
      grpc_service: {
        envoy_grpc: { cluster_name: EXTPROC_CLUSTER },
        ...(s.observeResponseBody ? { initial_metadata: [{ key: EXTPROC_ROLE_METADATA, value: EXTPROC_ROLES.decideObserved }] } : {}),
      },
      // Fail closed: auth, redaction and metering must never be skipped.
      failure_mode_allow: false,
      message_timeout: duration(s.messageTimeoutSeconds),
      processing_mode: {
        request_header_mode: 'SEND',
        request_body_mode: 'BUFFERED',
        response_header_mode: 'SEND',
        // The processor picks per response in its response_headers answer (mode_override):
        // STREAMED for SSE, BUFFERED for JSON. NONE here covers responses it never overrides.
        response_body_mode: 'NONE',
        // Trailers end a body whose last data message has no end_of_stream; the
        // processor must see them to know a request or response is complete.
        request_trailer_mode: 'SEND',
        response_trailer_mode: 'SEND',
      },
      // A header change Envoy refuses becomes a 500 instead of being dropped silently.
      mutation_rules: { disallow_is_error: true },
      allow_mode_override: true,
      // The processor marks its own immediate_response here, so local_reply_config leaves it alone.
      metadata_options: { receiving_namespaces: { untyped: [PROCESSOR_REPLY_NAMESPACE] } },
    },
  };
}

/**
 * The observing filter (observeResponseBody): Envoy's ext_proc in
 * observability_mode sends without waiting and ignores every answer
 * (source/extensions/filters/http/ext_proc/ext_proc.cc: decodeHeaders/encodeHeaders
 * -> sendHeadersInObservabilityMode returns Continue; onData ->
 * sendDataInObservabilityMode, STREAMED only; onReceiveMessage returns at once
 * in observability mode). Placed after the deciding filter, it sees the
 * request headers with the processor's OBSERVE_ID_HEADER and, on the encode
 * path (filters in reverse), each response chunk before the deciding filter.
 */
function observeFilter(): object {
  return {
    name: OBSERVE_FILTER,
    typed_config: {
      '@type': TYPE.extProc,
      grpc_service: { envoy_grpc: { cluster_name: EXTPROC_CLUSTER }, initial_metadata: [{ key: EXTPROC_ROLE_METADATA, value: EXTPROC_ROLES.observe }] },
      observability_mode: true,
      // A failed observing stream must not fail the request: onGrpcError sends a 500 local reply
      // unless failure_mode_allow (ext_proc.cc, Filter::onGrpcError). The processor then records
      // what it saw, as for a disconnect.
      failure_mode_allow: true,
      processing_mode: {
        // Carries OBSERVE_ID_HEADER: how the processor finds the request's deciding stream.
        request_header_mode: 'SEND',
        request_body_mode: 'NONE',
        // SEND, not SKIP: with SKIP and a STREAMED body the filter removes content-length from
        // every response, JSON included (ext_proc.cc encodeHeaders, shouldRemoveContentLength);
        // in observability mode the headers are sent and that branch is never reached.
        response_header_mode: 'SEND',
        response_body_mode: 'STREAMED',
        request_trailer_mode: 'SKIP',
        // Trailers end a body whose last data message has no end_of_stream.
        response_trailer_mode: 'SEND',
      },
      // Only the header the processor needs: the rest of the request (credentials included) is not sent twice.
      forward_rules: { allowed_headers: { patterns: [{ exact: OBSERVE_ID_HEADER }] } },
    },
  };
}

/**
 * Runs before the first route match (and before any filter): a client can
 * never name a cluster or a host, even if the processor let a request through
 * undecided. Envoy's own x-envoy-* request headers are not honoured from
 * external clients either (no internal_address_config: since Envoy 1.33 no
 * peer counts as internal), and removing them here keeps them from reaching
 * the processor or a provider.
 */
function earlyHeaderMutation(observed: boolean): object {
  return {
    name: 'envoy.http.early_header_mutation.header_mutation',
    typed_config: {
      '@type': TYPE.earlyMutation,
      // Only the routing headers: other x-gw-* headers are the caller's attribution input.
      mutations: [{ remove: ROUTE_HEADER }, { remove: UPSTREAM_HOST_HEADER }, ...(observed ? [{ remove: OBSERVE_ID_HEADER }] : []), { remove_on_match: { key_matcher: { prefix: 'x-envoy-' } } }],
    },
  };
}

function connectionManager(s: EnvoySettings): object {
  return {
    name: 'envoy.filters.network.http_connection_manager',
    typed_config: {
      '@type': TYPE.hcm,
      stat_prefix: LISTENER,
      codec_type: 'AUTO',
      // Envoy is the edge: x-forwarded-for is built from the peer address, not trusted from the client.
      use_remote_address: true,
      // The gateway issues its own request id (x-gw-request-id); an Envoy x-request-id would
      // only be forwarded to the provider. With tracing on, Envoy's sampling decision for a
      // new trace is made on the x-request-id, so Envoy must generate one.
      generate_request_id: s.tracingCollector !== null,
      ...(s.tracingCollector !== null ? { tracing: tracing(s) } : {}),
      // Over HTTP/2 Envoy would forward the caller's :scheme (http for an in-cluster caller)
      // to a TLS provider; send the scheme of the upstream connection instead.
      scheme_header_transformation: { match_upstream: true },
      // Head and request receipt deadlines, header count and size (request_timeout stops
      // once the request has gone upstream: a stream still lasts as long as the model writes).
      ...downstreamRequestLimits(),
      // No byte in either direction for this long ends the stream: a stalled upload gets 408,
      // and a caller that stops reading stalls the stream by flow control until it is reset.
      stream_idle_timeout: duration(s.streamIdleTimeoutSeconds),
      drain_timeout: duration(s.drainTimeoutSeconds),
      http2_protocol_options: { connection_keepalive: HTTP2_KEEPALIVE },
      early_header_mutation_extensions: [earlyHeaderMutation(s.observeResponseBody)],
      // Envoy's own answers (timeouts, codec refusals, overflow, the catch-all) in our error shape.
      local_reply_config: localReplyConfig(),
      access_log: [{ name: 'envoy.access_loggers.stdout', typed_config: { '@type': TYPE.stdoutLog, log_format: { json_format: accessLogFormat() } } }],
      route_config: {
        name: LISTENER,
        virtual_hosts: [{ name: LISTENER, domains: ['*'], routes: routes(s) }],
      },
      http_filters: [
        extProcFilter(s),
        ...(s.observeResponseBody ? [observeFilter()] : []),
        { name: DFP_FILTER, typed_config: { '@type': TYPE.dfpFilter, dns_cache_config: dnsCache(s) } },
        // No x-envoy-* headers of the router's own to providers or callers.
        { name: 'envoy.filters.http.router', typed_config: { '@type': TYPE.router, suppress_envoy_headers: true } },
      ],
    },
  };
}

/**
 * The kubelet's probe target. The health_check filter answers GET /ready
 * itself: 200 while Envoy is live, 503 once it drains (or after
 * /healthcheck/fail), so a draining pod leaves the Service at once. Besides
 * it only GET /stats/prometheus is served here, proxied from the admin
 * interface, which stays on loopback.
 */
function readyListener(s: EnvoySettings): object {
  return {
    name: READY_LISTENER,
    address: socketAddress(s.listenAddress, s.readyPort),
    filter_chains: [
      {
        filters: [
          {
            name: 'envoy.filters.network.http_connection_manager',
            typed_config: {
              '@type': TYPE.hcm,
              stat_prefix: READY_LISTENER,
              codec_type: 'AUTO',
              route_config: {
                name: READY_LISTENER,
                virtual_hosts: [
                  {
                    name: READY_LISTENER,
                    domains: ['*'],
                    routes: [
                      // Envoy's metrics for Prometheus, and nothing else of the admin interface.
                      {
                        match: { path: '/stats/prometheus', headers: [{ name: ':method', string_match: { exact: 'GET' } }] },
                        route: { cluster: ADMIN_CLUSTER },
                      },
                      { match: { prefix: '/' }, direct_response: { status: 404 } },
                    ],
                  },
                ],
              },
              http_filters: [
                {
                  name: 'envoy.filters.http.health_check',
                  typed_config: {
                    '@type': TYPE.healthCheck,
                    pass_through_mode: false,
                    headers: [{ name: ':path', string_match: { exact: '/ready' } }],
                  },
                },
                { name: 'envoy.filters.http.router', typed_config: { '@type': TYPE.router } },
              ],
            },
          },
        ],
      },
    ],
  };
}

/**
 * Sheds load before the container's memory limit: with 40 MiB buffered
 * bodies, a burst of large requests could otherwise take Envoy past the limit
 * and get it OOM-killed with every stream it carries. The heap ceiling is a
 * share of the limit (the rest is Envoy's non-heap memory and tcmalloc's
 * slack); near it Envoy returns freed memory, then answers new requests 503
 * and closes idle keep-alive connections, and lets streams in flight finish.
 */
function overloadManager(s: EnvoySettings): object {
  const monitor = 'envoy.resource_monitors.fixed_heap';
  const at = (value: number): object[] => [{ name: monitor, threshold: { value } }];
  return {
    refresh_interval: '0.25s',
    resource_monitors: [{ name: monitor, typed_config: { '@type': TYPE.fixedHeap, max_heap_size_bytes: Math.floor(s.memoryLimitBytes * HEAP_SHARE) } }],
    actions: [
      { name: 'envoy.overload_actions.shrink_heap', triggers: at(0.9) },
      { name: 'envoy.overload_actions.disable_http_keepalive', triggers: at(0.92) },
      { name: 'envoy.overload_actions.stop_accepting_requests', triggers: at(0.95) },
    ],
  };
}

/**
 * Runtime keys ext_proc needs: without graceful close Envoy ends every Process stream with
 * END_STREAM and then RST_STREAM (client_impl.cc ProcessorStreamImpl::close), and a Node
 * HTTP/2 server (nghttp2 >= 1.57: 1,000 resets, then 33 per second) answers a faster flow of
 * resets with GOAWAY, failing every stream in flight on the connection. With it Envoy
 * half-closes and waits for the processor's close (halfCloseAndDeleteOnRemoteClose), which the
 * processor sends as soon as it sees the half-close. See docs/extproc.md ("How Envoy ends a
 * Process stream").
 */
export const EXT_PROC_RUNTIME = Object.freeze({
  'envoy.reloadable_features.ext_proc_graceful_grpc_close': true,
  // Envoy's default, written out so the harness and a reader see the wait it bounds.
  'envoy.filters.http.ext_proc.remote_close_timeout_milliseconds': 1000,
});

/**
 * Static runtime values: ext_proc's close, and the caller listener's connection limit
 * (Envoy has it only as a runtime value): past it a new connection is closed at once.
 * Envoy core has no limit per client address; see docs/extproc.md.
 */
function staticRuntime(s: EnvoySettings): object {
  return {
    layers: [
      {
        name: 'gw_static',
        static_layer: { ...EXT_PROC_RUNTIME, [listenerConnectionLimitKey(LISTENER)]: maxDownstreamConnections(s.maxConcurrentRequests) },
      },
      // What Envoy has without a layered_runtime: runtime changes through the (loopback) admin interface.
      { name: 'admin', admin_layer: {} },
    ],
  };
}

/** The bootstrap as a plain object (snake_case field names, as Envoy reads them). Throws ConfigError on bad settings. */
export function envoyBootstrap(settings: EnvoySettings): object {
  assertEnvoySettings(settings);
  return {
    admin: { address: socketAddress(settings.adminAddress, settings.adminPort) },
    overload_manager: overloadManager(settings),
    layered_runtime: staticRuntime(settings),
    static_resources: {
      listeners: [
        {
          name: LISTENER,
          address: socketAddress(settings.listenAddress, settings.listenPort),
          // BUFFERED request bodies (and JSON responses the processor buffers) must fit here.
          per_connection_buffer_limit_bytes: settings.bufferLimitBytes,
          filter_chains: [{ filters: [connectionManager(settings)] }],
        },
        readyListener(settings),
      ],
      clusters: [
        extProcCluster(settings),
        providerCluster(DYNAMIC_CLUSTERS.https, true, settings),
        providerCluster(DYNAMIC_CLUSTERS.http, false, settings),
        {
          name: ADMIN_CLUSTER,
          type: 'STATIC',
          connect_timeout: PROCESSOR_CONNECT_TIMEOUT,
          load_assignment: { cluster_name: ADMIN_CLUSTER, endpoints: [{ lb_endpoints: [{ endpoint: { address: socketAddress(settings.adminAddress, settings.adminPort) } }] }] },
        },
        ...(settings.tracingCollector !== null ? [collectorCluster(settings, settings.tracingCollector)] : []),
      ],
    },
  };
}

function describeProcessor(s: EnvoySettings): string {
  return 'socketPath' in s.processor ? `unix:${s.processor.socketPath}` : `${s.processor.host}:${s.processor.port}`;
}

/** The bootstrap as YAML, with a header and a few comments that say why. Deterministic. */
export function renderEnvoyBootstrap(settings: EnvoySettings): string {
  const bootstrap = envoyBootstrap(settings);
  const doc = new Document(bootstrap);
  doc.commentBefore = [
    ' Envoy bootstrap generated by `gw envoy-config`. Do not edit; regenerate instead.',
    ` processor: ${describeProcessor(settings)}; path prefix: ${settings.pathPrefix === '' ? '(none)' : settings.pathPrefix}`,
    ' (gw extproc strips the prefix and sets :path, so every route matches "/".)',
    ` Run Envoy with --concurrency set to the container's CPU limit (it starts one worker per host CPU otherwise).`,
  ].join('\n');
  const hcmPath = ['static_resources', 'listeners', 0, 'filter_chains', 0, 'filters', 0, 'typed_config'];
  const routesNode = doc.getIn([...hcmPath, 'route_config', 'virtual_hosts', 0, 'routes'], true);
  if (isSeq(routesNode)) {
    const first = routesNode.items[0] as Node | undefined;
    if (first) first.commentBefore = ` One route per dynamic forward proxy cluster, chosen by the ${ROUTE_HEADER} header the processor sets; it names the host in ${UPSTREAM_HOST_HEADER}.`;
    const last = routesNode.items[routesNode.items.length - 1] as Node | undefined;
    if (last) {
      last.commentBefore = [
        ' Catch-all: the first match (before the processor answers) lands here; the',
        ' processor then sets the routing headers and clears the route cache. Reached at',
        ' forwarding time only if the processor did not decide: fail closed.',
      ].join('\n');
    }
  }
  const extProc = doc.getIn([...hcmPath, 'http_filters', 0, 'typed_config'], true);
  const hcm = doc.getIn(hcmPath, true);
  if (isMap(hcm)) {
    const logs = hcm.items.find((pair) => (pair.key as { value?: unknown } | null)?.value === 'access_log');
    if (logs && logs.key && typeof logs.key === 'object') {
      (logs.key as Node).commentBefore = " One JSON line per request on stdout; x-gw-request-id joins it to the processor's logs. No credential header is logged.";
    }
  }
  if (isMap(extProc)) {
    const mode = extProc.items.find((pair) => (pair.key as { value?: unknown } | null)?.value === 'processing_mode');
    if (mode && mode.key && typeof mode.key === 'object') {
      (mode.key as Node).commentBefore = ' response_body_mode is switched per response with mode_override (STREAMED for SSE, BUFFERED for JSON).';
    }
  }
  return doc.toString({ lineWidth: 0 });
}
