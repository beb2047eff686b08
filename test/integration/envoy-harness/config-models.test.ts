/**
 * The harness's readers of the generated bootstrap's access log format and
 * overload manager refuse what they do not model, and render what they do
 * as Envoy does.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ENVOY_SETTINGS } from '../../../src/config/envoy-settings.js';
import { envoyBootstrap } from '../../../src/envoy/bootstrap.js';
import { compileJsonFormat, type StreamFacts } from '../../support/envoy-harness/access-log-format.js';
import { HeaderMap } from '../../support/envoy-harness/header-map.js';
import { ACTIONS, readOverloadConfig } from '../../support/envoy-harness/overload.js';

function facts(over: Partial<StreamFacts> = {}): StreamFacts {
  return {
    startTime: new Date('2026-01-02T03:04:05.678Z'),
    requestHeaders: HeaderMap.fromPairs([
      [':method', 'POST'],
      [':path', '/v1/messages?beta=true'],
      ['authorization', 'Bearer gwct_secret'],
    ]),
    responseHeaders: HeaderMap.fromPairs([
      [':status', '200'],
      ['x-gw-request-id', 'req_1'],
    ]),
    protocol: 'HTTP/1.1',
    responseCode: 200,
    responseCodeDetails: 'via_upstream',
    responseFlags: [],
    lastDownstreamTxMs: 12.7,
    lastDownstreamRxMs: 1.2,
    firstUpstreamRxMs: 9.9,
    upstreamCluster: 'gw_dfp_http',
    upstreamHost: '127.0.0.1:8000',
    upstreamTransportFailureReason: undefined,
    bodyBytesReceived: 42,
    bodyBytesSent: 99,
    downstreamRemoteAddress: '10.0.0.7',
    ...over,
  };
}

describe('access log json_format', () => {
  it('renders a lone operator typed (numbers, null when unset) and mixed text as a string with "-"', () => {
    const line = compileJsonFormat({
      code: '%RESPONSE_CODE%',
      duration: '%DURATION%',
      upstream: '%RESPONSE_DURATION%',
      flags: '%RESPONSE_FLAGS%',
      id: '%RESP(X-GW-REQUEST-ID)%',
      missing: '%REQ(X-NOT-THERE)%',
      fallback: '%REQ(X-NOT-THERE?:METHOD)%',
      path: '%REQ_WITHOUT_QUERY(:PATH)%',
      cut: '%REQ(:PATH):4%',
      text: 'took %DURATION% ms via %UPSTREAM_TRANSPORT_FAILURE_REASON%',
      nested: { host: '%UPSTREAM_HOST%' },
    });
    expect(JSON.parse(line(facts({ firstUpstreamRxMs: undefined })))).toEqual({
      code: 200,
      duration: 12,
      upstream: null,
      flags: '-',
      id: 'req_1',
      missing: null,
      fallback: 'POST',
      path: '/v1/messages',
      cut: '/v1/',
      text: 'took 12 ms via -',
      nested: { host: '127.0.0.1:8000' },
    });
    expect(JSON.parse(line(facts({ responseFlags: ['UF', 'DC'] }))).flags).toBe('UF,DC');
  });

  it('compiles the generated format, and refuses an operator or argument it does not model', () => {
    const hcm = (
      envoyBootstrap(DEFAULT_ENVOY_SETTINGS) as {
        static_resources: {
          listeners: Array<{ filter_chains: Array<{ filters: Array<{ typed_config: { access_log: Array<{ typed_config: { log_format: { json_format: Record<string, unknown> } } }> } }> }> }>;
        };
      }
    ).static_resources.listeners[0]?.filter_chains[0]?.filters[0]?.typed_config;
    const format = hcm?.access_log[0]?.typed_config.log_format.json_format as Record<string, unknown>;
    expect(() => compileJsonFormat(format)).not.toThrow();
    expect(compileJsonFormat(format)(facts())).not.toContain('gwct_');
    expect(() => compileJsonFormat({ a: '%UPSTREAM_LOCAL_ADDRESS%' })).toThrow(/UPSTREAM_LOCAL_ADDRESS.*not modelled/);
    expect(() => compileJsonFormat({ a: '%RESPONSE_CODE(X)%' })).toThrow(/not modelled/);
    expect(() => compileJsonFormat({ a: '%REQ%' })).toThrow(/not modelled/);
    expect(() => compileJsonFormat({ a: '100%' })).toThrow(/cannot read/);
  });
});

describe('overload_manager', () => {
  const monitor = {
    name: 'envoy.resource_monitors.fixed_heap',
    typed_config: { '@type': 'type.googleapis.com/envoy.extensions.resource_monitors.fixed_heap.v3.FixedHeapConfig', max_heap_size_bytes: 1000 },
  };
  const trigger = (value: number): object[] => [{ name: monitor.name, threshold: { value } }];

  it('reads the generated section', () => {
    const doc = envoyBootstrap(DEFAULT_ENVOY_SETTINGS) as { overload_manager: unknown };
    const config = readOverloadConfig(doc.overload_manager);
    expect(config.maxHeapBytes).toBe(Math.floor(DEFAULT_ENVOY_SETTINGS.memoryLimitBytes * 0.8));
    expect(config.thresholds.get(ACTIONS.stopAcceptingRequests)).toBe(0.95);
  });

  it('refuses monitors, actions and triggers it does not model', () => {
    expect(() => readOverloadConfig({ resource_monitors: [{ name: 'envoy.resource_monitors.cpu_utilization', typed_config: {} }] })).toThrow(/cpu_utilization.*not modelled/);
    expect(() => readOverloadConfig({ resource_monitors: [monitor], actions: [{ name: 'envoy.overload_actions.reduce_timeouts', triggers: trigger(0.5) }] })).toThrow(/reduce_timeouts.*not modelled/);
    expect(() =>
      readOverloadConfig({ resource_monitors: [monitor], actions: [{ name: ACTIONS.shrinkHeap, triggers: [{ name: monitor.name, scaled: { scaling_threshold: 0.5, saturation_threshold: 0.9 } }] }] }),
    ).toThrow(/only threshold triggers/);
    expect(() => readOverloadConfig({ actions: [{ name: ACTIONS.shrinkHeap, triggers: trigger(0.5) }] })).toThrow(/not a configured fixed_heap/);
    expect(() => readOverloadConfig({ refresh_interval: '250ms' })).toThrow(/refresh_interval/);
  });
});
