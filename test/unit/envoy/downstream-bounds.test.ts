/**
 * The generated bootstrap's bounds on caller connections and requests, and
 * its local_reply_config, as fields of the document (the strict
 * go-control-plane check is test/integration/envoy/envoy-config-validate.test.ts;
 * the behaviour through the harness is test/integration/envoy-harness/local-replies.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONNECTION_LIMITS } from '../../../src/config/serve-config.js';
import { envoyBootstrap } from '../../../src/envoy/bootstrap.js';
import { MAX_HEADERS_COUNT, MAX_REQUEST_HEADERS_KB } from '../../../src/envoy/downstream-limits.js';
import { PROCESSOR_REPLY_KEY, PROCESSOR_REPLY_NAMESPACE, PROCESSOR_REPLY_ORIGIN } from '../../../src/envoy/local-reply.js';
import { DEFAULT_ENVOY_SETTINGS } from '../../../src/config/envoy-settings.js';
import { FAULTS } from '../../../src/errors/catalogue.js';
import { RETRY_ADVICE } from '../../../src/errors/retry-advice.js';
import { DEFAULT_PIPELINE_CONFIG } from '../../../src/pipeline/config.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- walking a generated document */
type J = any;

function parts(maxConcurrentRequests = DEFAULT_ENVOY_SETTINGS.maxConcurrentRequests) {
  const bootstrap = envoyBootstrap({ ...DEFAULT_ENVOY_SETTINGS, maxConcurrentRequests }) as J;
  const listener = bootstrap.static_resources.listeners[0];
  const hcm = listener.filter_chains[0].filters[0].typed_config;
  return { bootstrap, listener, hcm, mappers: hcm.local_reply_config.mappers as J[] };
}

describe('caller request bounds in the generated bootstrap', () => {
  it('times the head and the request receipt as gw serve does', () => {
    const { hcm } = parts();
    expect(hcm.request_headers_timeout).toBe(`${DEFAULT_CONNECTION_LIMITS.headersTimeoutMs / 1000}s`);
    expect(hcm.request_headers_timeout).toBe('30s');
    expect(hcm.request_timeout).toBe(`${DEFAULT_CONNECTION_LIMITS.requestTimeoutMs / 1000}s`);
    expect(hcm.stream_idle_timeout).toBe('900s');
  });

  it("bounds header count and size above the processor's limits, so the processor normally answers first", () => {
    const { hcm } = parts();
    expect(hcm.max_request_headers_kb).toBe(MAX_REQUEST_HEADERS_KB);
    expect(MAX_REQUEST_HEADERS_KB * 1024).toBeGreaterThan(DEFAULT_PIPELINE_CONFIG.maxRequestHeaderBytes);
    // Envoy's own hard maximum for max_request_headers_kb is 8192.
    expect(MAX_REQUEST_HEADERS_KB).toBeLessThanOrEqual(8192);
    expect(hcm.common_http_protocol_options).toEqual({ max_headers_count: MAX_HEADERS_COUNT });
    expect(MAX_HEADERS_COUNT).toBeGreaterThan(DEFAULT_PIPELINE_CONFIG.maxRequestHeaders);
  });

  it("caps the caller listener's open connections through the runtime key Envoy reads for it", () => {
    const { bootstrap, listener } = parts(1000);
    const layers: J[] = bootstrap.layered_runtime.layers;
    expect(layers[0].static_layer[`envoy.resource_limits.listener.${listener.name}.connection_limit`]).toBe(2000);
    // Without a layered_runtime Envoy has an admin layer; it stays.
    expect(layers.map((l) => Object.keys(l).filter((k) => k !== 'name'))).toEqual([['static_layer'], ['admin_layer']]);
  });

  it("makes Envoy end each Process stream by half-close and the processor's close, not a reset", () => {
    const layers: J[] = parts().bootstrap.layered_runtime.layers;
    expect(layers[0].static_layer).toMatchObject({
      'envoy.reloadable_features.ext_proc_graceful_grpc_close': true,
      'envoy.filters.http.ext_proc.remote_close_timeout_milliseconds': 1000,
    });
  });

  it('lets the processor mark its own replies through an accepted dynamic metadata namespace', () => {
    const { hcm } = parts();
    const extProc = hcm.http_filters.find((f: J) => f.name === 'envoy.filters.http.ext_proc').typed_config;
    expect(extProc.metadata_options.receiving_namespaces.untyped).toEqual([PROCESSOR_REPLY_NAMESPACE]);
  });
});

describe('local_reply_config in the generated bootstrap', () => {
  it('first leaves a reply the processor marked as its own untouched (no status, body or format change)', () => {
    const [first] = parts().mappers;
    expect(first).toEqual({
      filter: {
        metadata_filter: {
          matcher: { filter: PROCESSOR_REPLY_NAMESPACE, path: [{ key: PROCESSOR_REPLY_KEY }], value: { string_match: { exact: PROCESSOR_REPLY_ORIGIN } } },
          match_if_key_not_found: false,
        },
      },
    });
    // No top-level body_format: a matched mapper without an override keeps Envoy's plain %LOCAL_REPLY_BODY%.
    expect(parts().hcm.local_reply_config.body_format).toBeUndefined();
  });

  it('renders every other local reply in our shape, with a fault from the catalogue, its retry advice and a fresh request id', () => {
    const rest = parts().mappers.slice(1);
    expect(rest.length).toBeGreaterThan(5);
    for (const mapper of rest) {
      const body = mapper.body_format_override.json_format;
      expect(Object.keys(FAULTS)).toContain(body.fault);
      expect(body).toEqual({
        type: 'error',
        error: { type: FAULTS[body.fault as keyof typeof FAULTS].type, message: expect.stringMatching(/^gw: .+ \(envoy: %RESPONSE_CODE_DETAILS%\)$/) },
        source: 'gateway',
        fault: body.fault,
        request_id: '%RESP(X-GW-REQUEST-ID)%',
      });
      const headers = Object.fromEntries(mapper.headers_to_add.map((h: J) => [h.header.key, h.header.value]));
      expect(headers).toEqual({
        'x-gw-source': 'gateway',
        'x-gw-fault': body.fault,
        'x-gw-request-id': '%UNIQUE_ID%',
        'x-should-retry': String(RETRY_ADVICE[body.fault as keyof typeof RETRY_ADVICE]),
      });
      expect(mapper.headers_to_add.every((h: J) => h.append_action === 'OVERWRITE_IF_EXISTS_OR_ADD')).toBe(true);
    }
  });

  it("maps Envoy's statuses to the catalogue's faults, and upstream failures by their response flags", () => {
    const rest: J[] = parts().mappers.slice(1);
    const byStatus = new Map<number, string>();
    for (const m of rest) {
      const cmp = m.filter.status_code_filter?.comparison;
      if (cmp?.op === 'EQ') byStatus.set(cmp.value.default_value, m.body_format_override.json_format.fault);
    }
    expect(Object.fromEntries(byStatus)).toEqual({
      400: 'invalid_request',
      404: 'not_found',
      408: 'request_timeout',
      413: 'request_too_large',
      431: 'headers_too_large',
      500: 'internal_error',
      502: 'upstream_unreachable',
      503: 'overloaded',
      504: 'gateway_timeout',
    });
    // Each one-to-one mapping keeps the catalogue's status for its fault.
    for (const [status, fault] of byStatus) expect(FAULTS[fault as keyof typeof FAULTS].status).toBe(status);
    const [unreachable, overload] = rest;
    expect(unreachable.filter.response_flag_filter.flags).toEqual(expect.arrayContaining(['UF', 'UH', 'URX', 'DF']));
    expect(unreachable.status_code).toBe(502);
    expect(unreachable.body_format_override.json_format.fault).toBe('upstream_unreachable');
    expect(overload.filter.response_flag_filter.flags).toEqual(['OM', 'UO']);
    expect(overload.body_format_override.json_format.fault).toBe('overloaded');
    // The flag mappers come before the status mappers: a connect failure is Envoy's 503, not overload.
    const firstStatus = rest.findIndex((m) => m.filter.status_code_filter);
    expect(firstStatus).toBe(2);
    // Anything else: 4xx invalid_request, 5xx internal_error, keeping Envoy's status.
    const [other4xx, other5xx] = rest.slice(-2);
    expect(other4xx.filter.and_filter.filters.map((f: J) => [f.status_code_filter.comparison.op, f.status_code_filter.comparison.value.default_value])).toEqual([
      ['GE', 400],
      ['LE', 499],
    ]);
    expect(other4xx.body_format_override.json_format.fault).toBe('invalid_request');
    expect(other4xx.status_code).toBeUndefined();
    expect(other5xx.filter.status_code_filter.comparison).toMatchObject({ op: 'GE', value: { default_value: 500 } });
    expect(other5xx.body_format_override.json_format.fault).toBe('internal_error');
  });
});
