import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ConfigError } from '../../../src/config/load-resources.js';
import { envoyBootstrap, EXTPROC_CLUSTER, OTEL_COLLECTOR_CLUSTER, renderEnvoyBootstrap } from '../../../src/envoy/bootstrap.js';
import { DEFAULT_ENVOY_SETTINGS, type EnvoySettings, parseHostPort, resolveEnvoySettings } from '../../../src/envoy/settings.js';
import { clusterNameForOrigin, ROUTE_HEADER } from '../../../src/upstream/cluster-name.js';

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
  it('routes every provider origin by the routing header to a declared cluster of the same name', () => {
    const { routes, cluster, clusters } = parts(settings());
    const forwarding = routes.filter((r) => r.route);
    expect(forwarding.map((r) => r.route.cluster)).toEqual(PROVIDERS.map((p) => clusterNameForOrigin(new URL(p).origin)));
    for (const r of forwarding) {
      expect(cluster(r.route.cluster), `cluster ${r.route.cluster}`).toBeDefined();
      expect(r.match.prefix).toBe('/');
      expect(r.match.headers).toEqual([{ name: ROUTE_HEADER, string_match: { exact: r.route.cluster } }]);
      expect(r.route).toEqual({ cluster: r.route.cluster, timeout: '0s', idle_timeout: '300s', auto_host_rewrite: true });
      expect(r.request_headers_to_remove).toEqual([ROUTE_HEADER]);
    }
    // ext_proc cluster + one per provider origin, nothing else.
    expect(clusters.map((c) => c.name).sort()).toEqual([EXTPROC_CLUSTER, ...forwarding.map((r) => r.route.cluster)].sort());
  });

  it('names clusters exactly as the processor does (clusterNameForOrigin), for the values it will send', () => {
    const { routes } = parts(settings({ providers: ['https://api.anthropic.com:443/', 'http://10.0.0.7:8000/v1'] }));
    expect(routes.filter((r) => r.route).map((r) => r.match.headers[0].string_match.exact)).toEqual(['gw_https_api_anthropic_com_443', 'gw_http_10_0_0_7_8000']);
  });

  it('declares one cluster per distinct origin; base paths are the processor\'s business', () => {
    const { routes, clusters } = parts(settings({ providers: ['https://openrouter.ai/api', 'https://openrouter.ai', 'https://openrouter.ai/api/v2'] }));
    expect(routes.filter((r) => r.route)).toHaveLength(1);
    expect(clusters).toHaveLength(2);
    expect(JSON.stringify(routes)).not.toContain('prefix_rewrite');
  });

  it('ends with a fail-closed catch-all that forwards nowhere', () => {
    const { routes } = parts(settings());
    const last = routes[routes.length - 1];
    expect(last.match).toEqual({ prefix: '/' });
    expect(last.route).toBeUndefined();
    expect(last.direct_response.status).toBe(502);
    expect(routes.filter((r) => !r.route)).toHaveLength(1);
  });

  it('puts TLS with SNI and SAN checks on https clusters only', () => {
    const { cluster } = parts(settings({ upstreamCaFile: '/etc/gw/ca.pem' }));
    for (const host of ['api.anthropic.com', 'openrouter.ai']) {
      const c = cluster(clusterNameForOrigin(`https://${host}`));
      expect(c.transport_socket.name).toBe('envoy.transport_sockets.tls');
      const tls = c.transport_socket.typed_config;
      expect(tls['@type']).toBe('type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext');
      expect(tls.sni).toBe(host);
      expect(tls.common_tls_context.validation_context).toEqual({
        trusted_ca: { filename: '/etc/gw/ca.pem' },
        match_typed_subject_alt_names: [{ san_type: 'DNS', matcher: { exact: host } }],
      });
      expect(c.load_assignment.endpoints[0].lb_endpoints[0].endpoint.address.socket_address).toEqual({ address: host, port_value: 443 });
      expect(c.typed_extension_protocol_options['envoy.extensions.upstreams.http.v3.HttpProtocolOptions'].auto_config).toBeDefined();
    }
    const local = cluster('gw_http_ollama_local_11434');
    expect(local.transport_socket).toBeUndefined();
    expect(local.typed_extension_protocol_options['envoy.extensions.upstreams.http.v3.HttpProtocolOptions'].explicit_http_config).toEqual({ http_protocol_options: {} });
    // auto_host_rewrite takes the endpoint hostname: with the port when it is not the scheme's default.
    expect(local.load_assignment.endpoints[0].lb_endpoints[0].endpoint).toEqual({
      address: { socket_address: { address: 'ollama.local', port_value: 11434 } },
      hostname: 'ollama.local:11434',
    });
    for (const c of [cluster('gw_https_api_anthropic_com_443'), local]) {
      expect(c.type).toBe('LOGICAL_DNS');
      expect(c.connect_timeout).toBe('5s');
    }
  });

  it('verifies IP-literal https upstreams by IP SAN, without SNI', () => {
    const { cluster } = parts(settings({ providers: ['https://[2001:db8::5]:8443'] }));
    const c = cluster(clusterNameForOrigin('https://[2001:db8::5]:8443'));
    expect(c.type).toBe('STATIC');
    expect(c.load_assignment.endpoints[0].lb_endpoints[0].endpoint.address.socket_address).toEqual({ address: '2001:db8::5', port_value: 8443 });
    const tls = c.transport_socket.typed_config;
    expect(tls.sni).toBeUndefined();
    expect(tls.common_tls_context.validation_context.match_typed_subject_alt_names).toEqual([{ san_type: 'IP_ADDRESS', matcher: { exact: '2001:db8::5' } }]);
  });

  it('raises the circuit breakers of every cluster to maxConcurrentRequests', () => {
    const { clusters } = parts(settings({ maxConcurrentRequests: 9000 }));
    for (const c of clusters) {
      expect(c.circuit_breakers.thresholds).toEqual([{ priority: 'DEFAULT', max_connections: 9000, max_pending_requests: 9000, max_requests: 9000 }]);
    }
  });
});

describe('envoyBootstrap ext_proc and connection manager', () => {
  it('configures the ext_proc filter fail-closed, with mode override and the processing mode the processor expects', () => {
    const { filters, cluster } = parts(settings({ messageTimeoutSeconds: 7.5 }));
    expect(filters.map((f) => f.name)).toEqual(['envoy.filters.http.ext_proc', 'envoy.filters.http.router']);
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
      request_trailer_mode: 'SKIP',
      response_trailer_mode: 'SKIP',
    });
    expect(ext.grpc_service).toEqual({ envoy_grpc: { cluster_name: EXTPROC_CLUSTER } });
    expect(cluster(EXTPROC_CLUSTER)).toBeDefined();
    expect(filters[1].typed_config['@type']).toBe('type.googleapis.com/envoy.extensions.filters.http.router.v3.Router');
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
    expect(listener.per_connection_buffer_limit_bytes).toBe(48 * 1024 * 1024);
    expect(listener.address).toEqual({ socket_address: { address: '0.0.0.0', port_value: 8080 } });
    expect(bootstrap.admin).toEqual({ address: { socket_address: { address: '127.0.0.1', port_value: 9901 } } });
    expect(hcm['@type']).toBe('type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager');
    expect(hcm.request_timeout).toBe('0s');
    expect(hcm.stream_idle_timeout).toBe('600s');
    expect(hcm.drain_timeout).toBe('20s');
    expect(hcm.use_remote_address).toBe(true);
    expect(hcm.generate_request_id).toBe(false);
    expect(hcm.route_config.virtual_hosts[0].routes.filter((r: J) => r.route).every((r: J) => r.route.idle_timeout === '600s')).toBe(true);
  });

  it('uses the default 40 MiB buffer, above the gateway\'s 32 MiB body limit', () => {
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
    expect(problems).toEqual([
      expect.stringMatching(/unknown setting "streamIdleTimeout"/),
      expect.stringMatching(/set either processorSocket .* or processorAddress .*, not both/),
      expect.stringMatching(/providers \(--provider\) must be a list of base URLs/),
      expect.stringMatching(/listenPort \(--listen-port\) must be a number, got "eighty"/),
      expect.stringMatching(/bufferLimitMb .* must be below 64 MiB/),
    ]);
  });

  it('refuses two origins that would share a cluster name', () => {
    const problems = problemsOf(() => resolveEnvoySettings({ providers: ['https://a-b.example', 'https://a.b.example'] }));
    expect(problems).toEqual([expect.stringMatching(/"https:\/\/a-b.example" and "https:\/\/a.b.example" both map to cluster gw_https_a_b_example_443/)]);
  });

  it('refuses an empty provider list, a bad processor address and a clash of admin and listener', () => {
    const problems = problemsOf(() => resolveEnvoySettings({ providers: [], processorAddress: 'no-port', adminAddress: '0.0.0.0', adminPort: 8080 }));
    expect(problems).toHaveLength(3);
    expect(problems.join('\n')).toMatch(/at least one provider/);
    expect(problems.join('\n')).toMatch(/processorAddress \(--processor-address\) must be host:port/);
    expect(problems.join('\n')).toMatch(/adminPort .* and listenPort .* must differ/);
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
