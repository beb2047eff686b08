import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ConfigError } from '../../../src/config/config-error.js';
import { envoyBootstrap, EXTPROC_CLUSTER, OTEL_COLLECTOR_CLUSTER, renderEnvoyBootstrap } from '../../../src/envoy/bootstrap.js';
import { DEFAULT_ENVOY_SETTINGS, type EnvoySettings, parseHostPort, resolveEnvoySettings } from '../../../src/config/envoy-settings.js';
import { EXTPROC_ROLE_METADATA, EXTPROC_ROLES, OBSERVE_FILTER, OBSERVE_ID_HEADER } from '../../../src/envoy/observe.js';
import { clusterNameForOrigin, DYNAMIC_CLUSTERS, ROUTE_HEADER, UPSTREAM_HOST_HEADER } from '../../../src/envoy/cluster-name.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- walking a generated document */
type J = any;

const PROVIDERS = ['https://api.anthropic.com', 'https://openrouter.ai/api', 'http://ollama.local:11434'];

function settings(overrides: Partial<EnvoySettings> = {}): EnvoySettings {
  return { ...DEFAULT_ENVOY_SETTINGS, providers: PROVIDERS, ...overrides };
}

function parts(s: EnvoySettings) {
  const bootstrap = envoyBootstrap(s) as J;
  const listener = bootstrap.static_resources.listeners[0];
  const hcm = listener.filter_chains[0].filters[0].typed_config;
  const routes: J[] = hcm.route_config.virtual_hosts[0].routes;
  const filters: J[] = hcm.http_filters;
  const clusters: J[] = bootstrap.static_resources.clusters;
  const cluster = (name: string): J => clusters.find((c) => c.name === name);
  return { bootstrap, listener, hcm, routes, filters, clusters, cluster };
}

function problemsOf(run: () => unknown): readonly string[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('envoyBootstrap routes and clusters', () => {
  it("routes by the processor's cluster header to two dynamic forward proxy clusters, one per scheme", () => {
    const { routes, cluster, clusters } = parts(settings());
    const forwarding = routes.filter((r) => r.route);
    expect(forwarding.map((r) => r.route.cluster)).toEqual([DYNAMIC_CLUSTERS.https, DYNAMIC_CLUSTERS.http]);
    for (const r of forwarding) {
      const c = cluster(r.route.cluster);
      expect(c.cluster_type.name).toBe('envoy.clusters.dynamic_forward_proxy');
      expect(c.lb_policy).toBe('CLUSTER_PROVIDED');
      expect(r.match.prefix).toBe('/');
      expect(r.match.headers).toEqual([
        { name: ROUTE_HEADER, string_match: { exact: r.route.cluster } },
        { name: UPSTREAM_HOST_HEADER, present_match: true },
      ]);
      expect(r.route).toEqual({ cluster: r.route.cluster, timeout: '0s', idle_timeout: '900s' });
      // The DFP filter copies the processor's host into Host before DNS (and so into SNI).
      expect(r.typed_per_filter_config['envoy.filters.http.dynamic_forward_proxy'].host_rewrite_header).toBe(UPSTREAM_HOST_HEADER);
      expect(r.request_headers_to_remove).toEqual([ROUTE_HEADER, UPSTREAM_HOST_HEADER]);
    }
    expect(clusters.map((c) => c.name)).toEqual([EXTPROC_CLUSTER, DYNAMIC_CLUSTERS.https, DYNAMIC_CLUSTERS.http, 'gw_envoy_admin']);
    // The processor names exactly these clusters.
    expect(clusterNameForOrigin('https://api.anthropic.com')).toBe(DYNAMIC_CLUSTERS.https);
    expect(clusterNameForOrigin('http://10.0.0.7:8000')).toBe(DYNAMIC_CLUSTERS.http);
  });

  it('preresolves the listed provider hosts once each (base paths and IP literals need no DNS); filter and clusters share one cache', () => {
    const { filters, cluster } = parts(settings({ providers: ['https://openrouter.ai/api', 'https://openrouter.ai', 'http://ollama.local:11434', 'https://10.0.0.7:8443'] }));
    const cache = filters.find((f) => f.name === 'envoy.filters.http.dynamic_forward_proxy').typed_config.dns_cache_config;
    expect(cache.preresolve_hostnames).toEqual([
      { address: 'openrouter.ai', port_value: 443 },
      { address: 'ollama.local', port_value: 11434 },
    ]);
    for (const name of Object.values(DYNAMIC_CLUSTERS)) expect(cluster(name).cluster_type.typed_config.dns_cache_config).toEqual(cache);
  });

  it('ends with a fail-closed catch-all that forwards nowhere', () => {
    const { routes } = parts(settings());
    const last = routes[routes.length - 1];
    expect(last.match).toEqual({ prefix: '/' });
    expect(last.route).toBeUndefined();
    // A gateway defect (the processor did not decide): 500, put in our shape by local_reply_config.
    expect(last.direct_response.status).toBe(500);
    expect(routes.filter((r) => !r.route)).toHaveLength(1);
  });

  it("verifies TLS providers against the CA with SNI and SAN from the request's host; plain HTTP only for the http cluster", () => {
    const { cluster } = parts(settings({ upstreamCaFile: '/etc/gw/ca.pem' }));
    const tlsCluster = cluster(DYNAMIC_CLUSTERS.https);
    expect(tlsCluster.transport_socket.name).toBe('envoy.transport_sockets.tls');
    const tls = tlsCluster.transport_socket.typed_config;
    expect(tls['@type']).toBe('type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext');
    expect(tls.common_tls_context.validation_context).toEqual({ trusted_ca: { filename: '/etc/gw/ca.pem' } });
    const options = tlsCluster.typed_extension_protocol_options['envoy.extensions.upstreams.http.v3.HttpProtocolOptions'];
    expect(options.upstream_http_protocol_options).toEqual({ auto_sni: true, auto_san_validation: true });
    expect(options.auto_config.http2_protocol_options.connection_keepalive).toEqual({ interval: '30s', timeout: '20s' });
    const plain = cluster(DYNAMIC_CLUSTERS.http);
    expect(plain.transport_socket).toBeUndefined();
    expect(plain.typed_extension_protocol_options['envoy.extensions.upstreams.http.v3.HttpProtocolOptions'].explicit_http_config).toEqual({ http_protocol_options: {} });
    for (const c of [tlsCluster, plain]) {
      expect(c.connect_timeout).toBe('5s');
      expect(c.upstream_connection_options.tcp_keepalive).toEqual({ keepalive_time: 60, keepalive_interval: 15, keepalive_probes: 4 });
    }
  });

  it('raises the circuit breakers of every cluster to maxConcurrentRequests', () => {
    const { clusters } = parts(settings({ maxConcurrentRequests: 9000 }));
    for (const c of clusters.filter((x) => x.name !== 'gw_envoy_admin')) {
      expect(c.circuit_breakers.thresholds).toEqual([{ priority: 'DEFAULT', max_connections: 9000, max_pending_requests: 9000, max_requests: 9000 }]);
    }
  });
});

describe('envoyBootstrap ext_proc and connection manager', () => {
  it('configures the ext_proc filter fail-closed, with mode override and the processing mode the processor expects', () => {
    const { filters, cluster } = parts(settings({ messageTimeoutSeconds: 7.5 }));
    expect(filters.map((f) => f.name)).toEqual(['envoy.filters.http.ext_proc', 'envoy.filters.http.dynamic_forward_proxy', 'envoy.filters.http.router']);
    const ext = filters[0].typed_config;
    expect(ext['@type']).toBe('type.googleapis.com/envoy.extensions.filters.http.ext_proc.v3.ExternalProcessor');
    expect(ext.failure_mode_allow).toBe(false);
    expect(ext.message_timeout).toBe('7.5s');
    expect(ext.allow_mode_override).toBe(true);
    expect(ext.processing_mode).toEqual({
      request_header_mode: 'SEND',
      request_body_mode: 'BUFFERED',
      response_header_mode: 'SEND',
      response_body_mode: 'NONE',
      request_trailer_mode: 'SEND',
      response_trailer_mode: 'SEND',
    });
    expect(ext.grpc_service).toEqual({ envoy_grpc: { cluster_name: EXTPROC_CLUSTER } });
    expect(cluster(EXTPROC_CLUSTER)).toBeDefined();
    expect(filters[2].typed_config).toEqual({ '@type': 'type.googleapis.com/envoy.extensions.filters.http.router.v3.Router', suppress_envoy_headers: true });
  });

  it('sends :scheme of the upstream connection, strips routing and x-envoy-* headers before the first route match', () => {
    const { hcm } = parts(settings());
    expect(hcm.scheme_header_transformation).toEqual({ match_upstream: true });
    const early = hcm.early_header_mutation_extensions;
    expect(early).toHaveLength(1);
    expect(early[0].name).toBe('envoy.http.early_header_mutation.header_mutation');
    expect(early[0].typed_config.mutations).toEqual([{ remove: ROUTE_HEADER }, { remove: UPSTREAM_HOST_HEADER }, { remove_on_match: { key_matcher: { prefix: 'x-envoy-' } } }]);
    expect(hcm.internal_address_config).toBeUndefined();
  });

  it('logs one JSON line per request to stdout, with the gateway request id and no credential header', () => {
    const { hcm } = parts(settings());
    expect(hcm.access_log).toHaveLength(1);
    expect(hcm.access_log[0].name).toBe('envoy.access_loggers.stdout');
    const format = hcm.access_log[0].typed_config.log_format.json_format;
    expect(format).toMatchObject({ request_id: '%RESP(X-GW-REQUEST-ID)%', status: '%RESPONSE_CODE%', response_flags: '%RESPONSE_FLAGS%', upstream_host: '%UPSTREAM_HOST%' });
    const text = JSON.stringify(format).toLowerCase();
    for (const secret of ['authorization', 'x-api-key', 'cookie', '%req(:path)%']) expect(text).not.toContain(secret);
  });

  it('keeps admin on loopback and answers probes on a ready listener of its own', () => {
    const { bootstrap } = parts(settings({ readyPort: 9911 }));
    expect(bootstrap.admin.address.socket_address.address).toBe('127.0.0.1');
    const ready = bootstrap.static_resources.listeners[1];
    expect(ready.name).toBe('gw_ready');
    expect(ready.address.socket_address).toEqual({ address: '0.0.0.0', port_value: 9911 });
    const readyHcm = ready.filter_chains[0].filters[0].typed_config;
    expect(readyHcm.http_filters[0].name).toBe('envoy.filters.http.health_check');
    expect(readyHcm.http_filters[0].typed_config).toMatchObject({ pass_through_mode: false, headers: [{ name: ':path', string_match: { exact: '/ready' } }] });
    // Of the admin interface only its Prometheus stats are reachable there, and only by GET.
    const readyRoutes = readyHcm.route_config.virtual_hosts[0].routes;
    expect(readyRoutes.map((r: J) => r.route?.cluster ?? r.direct_response.status)).toEqual(['gw_envoy_admin', 404]);
    expect(readyRoutes[0].match).toEqual({ path: '/stats/prometheus', headers: [{ name: ':method', string_match: { exact: 'GET' } }] });
    expect(problemsOf(() => resolveEnvoySettings({ adminAddress: '0.0.0.0' }))).toEqual([expect.stringMatching(/adminAddress .* must be a loopback address/)]);
  });

  it('sheds load with the overload manager below the container memory limit', () => {
    const { bootstrap } = parts(settings({ memoryLimitBytes: 2048 * 1024 * 1024 }));
    const om = bootstrap.overload_manager;
    expect(om.resource_monitors[0].name).toBe('envoy.resource_monitors.fixed_heap');
    expect(om.resource_monitors[0].typed_config.max_heap_size_bytes).toBe(Math.floor(2048 * 1024 * 1024 * 0.8));
    expect(om.actions.map((a: J) => [a.name, a.triggers[0].threshold.value])).toEqual([
      ['envoy.overload_actions.shrink_heap', 0.9],
      ['envoy.overload_actions.disable_http_keepalive', 0.92],
      ['envoy.overload_actions.stop_accepting_requests', 0.95],
    ]);
    expect(problemsOf(() => resolveEnvoySettings({ memoryLimitMb: 64 }))).toEqual([expect.stringMatching(/memoryLimitMb .* leaves Envoy less heap than two buffered bodies/)]);
  });

  it('reaches the processor over HTTP/2 on a Unix socket by default', () => {
    const c = parts(settings()).cluster(EXTPROC_CLUSTER);
    expect(c.type).toBe('STATIC');
    expect(c.connect_timeout).toBe('1s');
    expect(c.typed_extension_protocol_options['envoy.extensions.upstreams.http.v3.HttpProtocolOptions'].explicit_http_config).toEqual({ http2_protocol_options: {} });
    expect(c.load_assignment.endpoints[0].lb_endpoints[0].endpoint.address).toEqual({ pipe: { path: '/var/run/gw/extproc.sock' } });
  });

  it('reaches a TCP processor by DNS name or IP', () => {
    const byName = parts(settings({ processor: { host: 'gw-extproc.gw.svc', port: 9002 } })).cluster(EXTPROC_CLUSTER);
    expect(byName.type).toBe('STRICT_DNS');
    expect(byName.load_assignment.endpoints[0].lb_endpoints[0].endpoint.address).toEqual({ socket_address: { address: 'gw-extproc.gw.svc', port_value: 9002 } });
    expect(byName.typed_extension_protocol_options['envoy.extensions.upstreams.http.v3.HttpProtocolOptions'].explicit_http_config).toEqual({ http2_protocol_options: {} });
    const byIp = parts(settings({ processor: { host: '127.0.0.1', port: 9002 } })).cluster(EXTPROC_CLUSTER);
    expect(byIp.type).toBe('STATIC');
  });

  it('sizes the listener buffer and sets the stream-friendly connection manager timeouts', () => {
    const { bootstrap, listener, hcm } = parts(settings({ bufferLimitBytes: 48 * 1024 * 1024, streamIdleTimeoutSeconds: 600, drainTimeoutSeconds: 20 }));
    expect(hcm.http2_protocol_options.connection_keepalive).toEqual({ interval: '30s', timeout: '20s' });
    expect(listener.per_connection_buffer_limit_bytes).toBe(48 * 1024 * 1024);
    expect(listener.address).toEqual({ socket_address: { address: '0.0.0.0', port_value: 8080 } });
    expect(bootstrap.admin).toEqual({ address: { socket_address: { address: '127.0.0.1', port_value: 9901 } } });
    expect(hcm['@type']).toBe('type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager');
    // request_timeout stops once the request has gone upstream, so it never bounds a provider's answer.
    expect(hcm.request_timeout).toBe('300s');
    expect(hcm.stream_idle_timeout).toBe('600s');
    expect(hcm.drain_timeout).toBe('20s');
    expect(hcm.use_remote_address).toBe(true);
    expect(hcm.generate_request_id).toBe(false);
    expect(hcm.route_config.virtual_hosts[0].routes.filter((r: J) => r.route).every((r: J) => r.route.idle_timeout === '600s')).toBe(true);
  });

  it("uses the default 40 MiB buffer, above the gateway's 32 MiB body limit", () => {
    const { listener } = parts(DEFAULT_ENVOY_SETTINGS);
    expect(listener.per_connection_buffer_limit_bytes).toBe(40 * 1024 * 1024);
    expect(DEFAULT_ENVOY_SETTINGS.bufferLimitBytes).toBeGreaterThan(DEFAULT_ENVOY_SETTINGS.maxBodyBytes);
  });

  it('answers at the root and under the prefix with the same routes (the processor strips the prefix)', () => {
    const plain = parts(settings()).routes;
    const prefixed = parts(settings({ pathPrefix: '/api' })).routes;
    expect(prefixed).toEqual(plain);
    expect(plain.every((r) => r.match.prefix === '/')).toBe(true);
    expect(renderEnvoyBootstrap(settings({ pathPrefix: '/api' }))).toContain('path prefix: /api');
  });
});

describe('envoyBootstrap observing filter (observeResponseBody)', () => {
  it('is absent by default: one ext_proc filter, no stream role, no observe header handling', () => {
    const { filters, routes, hcm } = parts(settings());
    expect(filters.filter((f) => f.typed_config['@type'].endsWith('ExternalProcessor'))).toHaveLength(1);
    expect(filters[0].typed_config.grpc_service.initial_metadata).toBeUndefined();
    expect(JSON.stringify([routes, hcm.early_header_mutation_extensions])).not.toContain(OBSERVE_ID_HEADER);
  });

  it('adds an observability_mode filter after the deciding one, streaming response bodies, fail-open, sending only the observe header', () => {
    const { filters, routes, hcm } = parts(settings({ observeResponseBody: true }));
    expect(filters.map((f) => f.name).slice(0, 2)).toEqual(['envoy.filters.http.ext_proc', OBSERVE_FILTER]);
    const decide = filters[0].typed_config;
    const observe = filters[1].typed_config;
    expect(decide.observability_mode).toBeUndefined();
    expect(decide.failure_mode_allow).toBe(false);
    expect(decide.grpc_service.initial_metadata).toEqual([{ key: EXTPROC_ROLE_METADATA, value: EXTPROC_ROLES.decideObserved }]);
    expect(observe).toMatchObject({
      observability_mode: true,
      failure_mode_allow: true,
      grpc_service: { envoy_grpc: { cluster_name: EXTPROC_CLUSTER }, initial_metadata: [{ key: EXTPROC_ROLE_METADATA, value: EXTPROC_ROLES.observe }] },
      processing_mode: { request_header_mode: 'SEND', request_body_mode: 'NONE', response_header_mode: 'SEND', response_body_mode: 'STREAMED', response_trailer_mode: 'SEND' },
      forward_rules: { allowed_headers: { patterns: [{ exact: OBSERVE_ID_HEADER }] } },
    });
    // The provider never sees the observe header, and a caller cannot send one.
    for (const route of routes.filter((r) => r.route)) expect(route.request_headers_to_remove).toContain(OBSERVE_ID_HEADER);
    expect(hcm.early_header_mutation_extensions[0].typed_config.mutations).toContainEqual({ remove: OBSERVE_ID_HEADER });
  });
});

describe('renderEnvoyBootstrap', () => {
  it('renders the same bytes every time, and the YAML holds exactly the bootstrap object', () => {
    const s = settings({ processor: { host: '10.1.2.3', port: 9002 } });
    const text = renderEnvoyBootstrap(s);
    expect(renderEnvoyBootstrap(s)).toBe(text);
    expect(parse(text)).toEqual(envoyBootstrap(s));
    expect(text.startsWith('# Envoy bootstrap generated by `gw envoy-config`')).toBe(true);
  });
});

describe('settings validation', () => {
  it('reports every problem of a hand-built settings object together', () => {
    const problems = problemsOf(() =>
      envoyBootstrap({
        ...DEFAULT_ENVOY_SETTINGS,
        listenAddress: 'example.com',
        listenPort: 70000,
        pathPrefix: 'api/',
        processor: { socketPath: 'relative.sock' },
        providers: ['ftp://files.example', 'https://user:pw@api.example.com'],
        messageTimeoutSeconds: 0,
        bufferLimitBytes: 16 * 1024 * 1024,
      }),
    );
    expect(problems).toHaveLength(8);
    expect(problems.join('\n')).toMatch(/listenAddress \(--listen-address\) must be an IP address/);
    expect(problems.join('\n')).toMatch(/listenPort \(--listen-port\) must be a port number/);
    expect(problems.join('\n')).toMatch(/pathPrefix \(--prefix\) must start with \//);
    expect(problems.join('\n')).toMatch(/processorSocket \(--processor-socket\) must be an absolute path/);
    expect(problems.join('\n')).toMatch(/"ftp:\/\/files.example" must be an http:\/\/ or https:\/\/ URL/);
    expect(problems.join('\n')).toMatch(/must not carry credentials/);
    expect(problems.join('\n')).toMatch(/messageTimeoutSeconds .* must be between 0.001 and 3600 seconds, got 0/);
    expect(problems.join('\n')).toMatch(/bufferLimitMb .* \(16 MiB\) must be larger than the gateway's body limit maxBodyMb \(--max-body-mb\) \(32 MiB\)/);
  });

  it('reports wrong types, unknown keys and bad values from a values file together', () => {
    const problems = problemsOf(() =>
      resolveEnvoySettings({
        listenPort: 'eighty',
        providers: 'https://api.anthropic.com',
        processorSocket: '/run/a.sock',
        processorAddress: 'h:1',
        bufferLimitMb: 100,
        streamIdleTimeout: 30,
      } as never),
    );
    // Unknown keys first, then each setting in the table's order, then the checks on the resolved settings.
    expect(problems).toEqual([
      expect.stringMatching(/unknown setting "streamIdleTimeout"/),
      expect.stringMatching(/listenPort \(--listen-port\) must be a number, got "eighty"/),
      expect.stringMatching(/set either processorSocket .* or processorAddress .*, not both/),
      expect.stringMatching(/providers \(--provider\) must be a list of base URLs/),
      expect.stringMatching(/bufferLimitMb .* must be below 64 MiB/),
    ]);
  });

  it("refuses an idle timeout below the SDKs' 10-minute wait for a non-streaming answer", () => {
    const problems = problemsOf(() => resolveEnvoySettings({ streamIdleTimeoutSeconds: 300 }));
    expect(problems).toEqual([expect.stringMatching(/streamIdleTimeoutSeconds .* must be at least 600/)]);
    expect(resolveEnvoySettings({ streamIdleTimeoutSeconds: 600 }).streamIdleTimeoutSeconds).toBe(600);
  });

  it('accepts an empty provider list (every host is then resolved on first use); refuses a bad processor address and port clashes', () => {
    expect(resolveEnvoySettings({ providers: [] }).providers).toEqual([]);
    const problems = problemsOf(() => resolveEnvoySettings({ processorAddress: 'no-port', listenAddress: '127.0.0.1', adminPort: 8080, readyPort: 8080 }));
    expect(problems).toHaveLength(4);
    expect(problems.join('\n')).toMatch(/processorAddress \(--processor-address\) must be host:port/);
    expect(problems.join('\n')).toMatch(/adminPort .* and listenPort .* must differ/);
    expect(problems.join('\n')).toMatch(/readyPort .* and listenPort .* must differ/);
    expect(problems.join('\n')).toMatch(/readyPort .* and adminPort .* must differ/);
  });

  it('applies defaults and converts MiB and numeric strings', () => {
    const s = resolveEnvoySettings({ listenPort: '10000', bufferLimitMb: 48, processorAddress: '[::1]:9002' });
    expect(s.listenPort).toBe(10000);
    expect(s.bufferLimitBytes).toBe(48 * 1024 * 1024);
    expect(s.processor).toEqual({ host: '::1', port: 9002 });
    expect(s.providers).toEqual(['https://api.anthropic.com']);
    expect(s.messageTimeoutSeconds).toBe(10);
  });

  it('parses host:port forms', () => {
    expect(parseHostPort('gw-extproc:9002')).toEqual({ host: 'gw-extproc', port: 9002 });
    expect(parseHostPort('[fd00::1]:50051')).toEqual({ host: 'fd00::1', port: 50051 });
    expect(parseHostPort('::1:9002')).toBeNull();
    expect(parseHostPort('host:0')).toBeNull();
    expect(parseHostPort('host')).toBeNull();
  });
});

describe('envoyBootstrap tracing', () => {
  it('leaves tracing out by default, and Envoy generates no request id', () => {
    const { hcm, clusters } = parts(settings());
    expect(hcm.tracing).toBeUndefined();
    expect(hcm.generate_request_id).toBe(false);
    expect(clusters.map((c) => c.name)).not.toContain(OTEL_COLLECTOR_CLUSTER);
  });

  it('adds the OpenTelemetry tracer, exporting over HTTP/2 to the collector, never propagating to the provider', () => {
    const s = resolveEnvoySettings({ providers: PROVIDERS, tracingCollector: 'otel-collector.obs:4317', tracingSamplingPercent: '25', tracingServiceName: 'edge-envoy' });
    const { hcm, cluster } = parts(s);
    expect(hcm.tracing).toEqual({
      random_sampling: { value: 25 },
      no_context_propagation: true,
      provider: {
        name: 'envoy.tracers.opentelemetry',
        typed_config: {
          '@type': 'type.googleapis.com/envoy.config.trace.v3.OpenTelemetryConfig',
          grpc_service: { envoy_grpc: { cluster_name: OTEL_COLLECTOR_CLUSTER }, timeout: '5s' },
          service_name: 'edge-envoy',
        },
      },
    });
    // Envoy samples new traces on its x-request-id.
    expect(hcm.generate_request_id).toBe(true);
    const collector = cluster(OTEL_COLLECTOR_CLUSTER);
    expect(collector.type).toBe('STRICT_DNS');
    expect(collector.load_assignment.endpoints[0].lb_endpoints[0].endpoint.address.socket_address).toEqual({ address: 'otel-collector.obs', port_value: 4317 });
    expect(collector.typed_extension_protocol_options['envoy.extensions.upstreams.http.v3.HttpProtocolOptions'].explicit_http_config).toEqual({ http2_protocol_options: {} });
    expect(collector.transport_socket).toBeUndefined();
  });

  it('speaks TLS to the collector when asked, verified by SAN', () => {
    const s = resolveEnvoySettings({ providers: PROVIDERS, tracingCollector: 'otel.example:4317', tracingCollectorTls: true });
    const tls = parts(s).cluster(OTEL_COLLECTOR_CLUSTER).transport_socket.typed_config;
    expect(tls.sni).toBe('otel.example');
    expect(tls.common_tls_context.validation_context.match_typed_subject_alt_names).toEqual([{ san_type: 'DNS', matcher: { exact: 'otel.example' } }]);
  });

  it('reports bad tracing settings together', () => {
    const problems = problemsOf(() => resolveEnvoySettings({ tracingCollector: 'no-port', tracingCollectorTls: 'yes', tracingSamplingPercent: 150, tracingServiceName: 'has space' }));
    expect(problems.join('\n')).toMatch(/tracingCollector \(--tracing-collector\) must be host:port/);
    expect(problems.join('\n')).toMatch(/tracingCollectorTls .* must be true or false/);
    expect(problems.join('\n')).toMatch(/tracingSamplingPercent .* between 0 and 100/);
    expect(problems.join('\n')).toMatch(/tracingServiceName/);
  });
});
