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
import { ROUTE_HEADER } from '../upstream/cluster-name.js';
import { assertEnvoySettings, bareHost, type EnvoySettings, providerOrigins, type ProviderOrigin } from './settings.js';

export { DEFAULT_ENVOY_SETTINGS, resolveEnvoySettings, type EnvoySettings } from './settings.js';

/** The cluster Envoy's ext_proc filter streams to. Provider clusters start with gw_http(s)_, so no clash. */
export const EXTPROC_CLUSTER = 'gw_extproc';
export const EXTPROC_FILTER = 'envoy.filters.http.ext_proc';
/** The OTLP/gRPC collector Envoy's tracer exports to (only with tracing on). */
export const OTEL_COLLECTOR_CLUSTER = 'gw_otel_collector';
const LISTENER = 'gw';
/** The processor is local (sidecar socket or in-cluster); it answers a connect at once or not at all. */
const PROCESSOR_CONNECT_TIMEOUT = '1s';

const TYPE = {
  hcm: 'type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager',
  extProc: 'type.googleapis.com/envoy.extensions.filters.http.ext_proc.v3.ExternalProcessor',
  router: 'type.googleapis.com/envoy.extensions.filters.http.router.v3.Router',
  httpOptions: 'type.googleapis.com/envoy.extensions.upstreams.http.v3.HttpProtocolOptions',
  upstreamTls: 'type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext',
  openTelemetry: 'type.googleapis.com/envoy.config.trace.v3.OpenTelemetryConfig',
} as const;
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
  const endpoint =
    'socketPath' in s.processor
      ? { address: { pipe: { path: s.processor.socketPath } } }
      : { address: socketAddress(s.processor.host, s.processor.port) };
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

function providerCluster(p: ProviderOrigin, s: EnvoySettings): object {
  const https = p.url.protocol === 'https:';
  const host = bareHost(p.url);
  const literal = isIP(host) !== 0;
  const port = Number(p.url.port || (https ? 443 : 80));
  const cluster: Record<string, unknown> = {
    name: p.cluster,
    // LOGICAL_DNS: one connection target at a time from DNS, as suits large
    // providers behind many rotating addresses. An IP literal needs no DNS.
    type: literal ? 'STATIC' : 'LOGICAL_DNS',
    ...(literal ? {} : { dns_lookup_family: 'V4_PREFERRED' }),
    connect_timeout: duration(s.connectTimeoutSeconds),
    typed_extension_protocol_options: {
      [HTTP_OPTIONS_KEY]: {
        '@type': TYPE.httpOptions,
        // TLS origins negotiate HTTP/2 or HTTP/1.1 by ALPN; plain-HTTP ones (local runtimes) get HTTP/1.1.
        ...(https ? { auto_config: { http_protocol_options: {}, http2_protocol_options: {} } } : { explicit_http_config: { http_protocol_options: {} } }),
      },
    },
    circuit_breakers: circuitBreakers(s.maxConcurrentRequests),
    load_assignment: {
      cluster_name: p.cluster,
      endpoints: [
        {
          lb_endpoints: [
            {
              // hostname is what auto_host_rewrite puts in Host (with the port when it is not the default).
              endpoint: { address: socketAddress(host, port), hostname: p.url.host },
            },
          ],
        },
      ],
    },
  };
  if (https) {
    cluster.transport_socket = {
      name: 'envoy.transport_sockets.tls',
      typed_config: {
        '@type': TYPE.upstreamTls,
        // SNI carries a host name; TLS has no SNI for IP literals, whose certificates name the IP.
        ...(literal ? {} : { sni: host }),
        common_tls_context: {
          // Without a validation_context Envoy would accept any certificate.
          validation_context: {
            trusted_ca: { filename: s.upstreamCaFile },
            match_typed_subject_alt_names: [{ san_type: literal ? 'IP_ADDRESS' : 'DNS', matcher: { exact: host } }],
          },
        },
      },
    };
  }
  return cluster;
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

function routes(origins: readonly ProviderOrigin[], s: EnvoySettings): object[] {
  const idle = duration(s.streamIdleTimeoutSeconds);
  const byHeader = origins.map((p) => ({
    name: p.cluster,
    match: { prefix: '/', headers: [{ name: ROUTE_HEADER, string_match: { exact: p.cluster } }] },
    route: {
      cluster: p.cluster,
      // The 15 s default would cut long streams; the idle timeout is the guard instead.
      timeout: '0s',
      idle_timeout: idle,
      auto_host_rewrite: true,
    },
    // Applied by the router, after the processor: the provider never sees the routing header.
    request_headers_to_remove: [ROUTE_HEADER],
  }));
  // The catch-all. Envoy matches a route before the processor has answered;
  // that first match normally sees no routing header and lands here, and the
  // ext_proc filter runs all the same. The processor's answer removes any
  // x-gw-* header the client sent, sets the routing header and clears the
  // route cache, so the router re-matches one of the routes above before
  // forwarding. Reaching this route at forwarding time means the processor
  // named a cluster this config does not declare (a provider missing from the
  // settings) or let the request pass without deciding (a clean stream
  // close). Sending it to some provider anyway would hand one provider's
  // credential to another, or forward an undecided request, so it fails
  // closed with a local reply.
  const catchAll = {
    name: 'gw_no_upstream',
    match: { prefix: '/' },
    direct_response: { status: 502, body: { inline_string: `gw: no Envoy route for the upstream the gateway chose; add its base URL to gw envoy-config --provider\n` } },
  };
  return [...byHeader, catchAll];
}

function extProcFilter(s: EnvoySettings): object {
  return {
    name: EXTPROC_FILTER,
    typed_config: {
      '@type': TYPE.extProc,
      // No grpc_service timeout: it would bound the whole stream, and a stream lives as long as the response.
      grpc_service: { envoy_grpc: { cluster_name: EXTPROC_CLUSTER } },
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
        request_trailer_mode: 'SKIP',
        response_trailer_mode: 'SKIP',
      },
      // A header change Envoy refuses becomes a 500 instead of being dropped silently.
      mutation_rules: { disallow_is_error: true },
      allow_mode_override: true,
    },
  };
}

function connectionManager(origins: readonly ProviderOrigin[], s: EnvoySettings): object {
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
      // No whole-request deadline: a stream lasts as long as the model writes.
      request_timeout: '0s',
      stream_idle_timeout: duration(s.streamIdleTimeoutSeconds),
      drain_timeout: duration(s.drainTimeoutSeconds),
      route_config: {
        name: LISTENER,
        virtual_hosts: [{ name: LISTENER, domains: ['*'], routes: routes(origins, s) }],
      },
      http_filters: [extProcFilter(s), { name: 'envoy.filters.http.router', typed_config: { '@type': TYPE.router } }],
    },
  };
}

/** The bootstrap as a plain object (snake_case field names, as Envoy reads them). Throws ConfigError on bad settings. */
export function envoyBootstrap(settings: EnvoySettings): object {
  assertEnvoySettings(settings);
  const origins = providerOrigins(settings.providers);
  return {
    admin: { address: socketAddress(settings.adminAddress, settings.adminPort) },
    static_resources: {
      listeners: [
        {
          name: LISTENER,
          address: socketAddress(settings.listenAddress, settings.listenPort),
          // BUFFERED request bodies (and JSON responses the processor buffers) must fit here.
          per_connection_buffer_limit_bytes: settings.bufferLimitBytes,
          filter_chains: [{ filters: [connectionManager(origins, settings)] }],
        },
      ],
      clusters: [
        extProcCluster(settings),
        ...origins.map((p) => providerCluster(p, settings)),
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
  ].join('\n');
  const hcmPath = ['static_resources', 'listeners', 0, 'filter_chains', 0, 'filters', 0, 'typed_config'];
  const routesNode = doc.getIn([...hcmPath, 'route_config', 'virtual_hosts', 0, 'routes'], true);
  if (isSeq(routesNode)) {
    const first = routesNode.items[0] as Node | undefined;
    if (first) first.commentBefore = ` One route per provider cluster, chosen by the ${ROUTE_HEADER} header the processor sets.`;
    const last = routesNode.items[routesNode.items.length - 1] as Node | undefined;
    if (last) {
      last.commentBefore = [
        ' Catch-all: the first match (before the processor answers) lands here; the',
        ' processor then sets the routing header and clears the route cache. Reached at',
        ' forwarding time only if the processor named an undeclared cluster or did not',
        ' decide: fail closed rather than send a request to the wrong provider.',
      ].join('\n');
    }
  }
  const extProc = doc.getIn([...hcmPath, 'http_filters', 0, 'typed_config'], true);
  if (isMap(extProc)) {
    const mode = extProc.items.find((pair) => (pair.key as { value?: unknown } | null)?.value === 'processing_mode');
    if (mode && mode.key && typeof mode.key === 'object') {
      (mode.key as Node).commentBefore = ' response_body_mode is switched per response with mode_override (STREAMED for SSE, BUFFERED for JSON).';
    }
  }
  return doc.toString({ lineWidth: 0 });
}
