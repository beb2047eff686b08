import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ENVOY_SETTINGS } from '../../src/config/envoy-settings.js';
import { DYNAMIC_CLUSTERS } from '../../src/envoy/cluster-name.js';
import { generatedConfigHarnessOptions } from '../support/envoy-harness/generated-config.js';
import { splitEvery, startEnvoyHarness, type EnvoyHarness } from '../support/envoy-harness/index.js';
import { writeGatewayConfig } from '../support/gateway-config.js';
import { spawnGw, waitForLogs, type GatewayProcess } from '../support/gateway-process.js';
import { DEFAULT_DELTAS, startMockProvider, type MockProvider } from '../support/mock-provider.js';

/**
 * What only the Envoy data plane has: which ext_proc messages were exchanged,
 * how the route was chosen, chunking of the response by Envoy, and stream
 * cancellation. The processor is the built `gw extproc`; Envoy is the harness.
 */
// Twice: as `gw envoy-config` renders by default, and with --observe-response-body (the
// response body of a stream reaches the processor through an observing filter that never waits).
describe.each([
  { variant: 'default config', observe: false },
  { variant: 'observing filter', observe: true },
])('gw extproc behind the Envoy harness ($variant)', ({ observe }) => {
  let vendor: MockProvider;
  let aggregator: MockProvider;
  let processor: GatewayProcess;
  let harness: EnvoyHarness;
  let token: string;

  beforeAll(async () => {
    vendor = await startMockProvider();
    aggregator = await startMockProvider({ models: ['z-ai/glm-4.6'] });
    const config = writeGatewayConfig({
      settings: { callerConcurrency: { default: 100, queueWaitSeconds: 1 } },
      credentials: [
        { name: 'vendor-key', provider: 'vendor', baseUrl: vendor.url, secret: 'sk-ant-api03-envoy-vendor-000000000', maxConcurrency: 1 },
        { name: 'agg-key', provider: 'provider_a', baseUrl: aggregator.url, secret: 'sk-or-envoy-agg-00000000000000000', maxConcurrency: 60 },
      ],
    });
    token = config.tokens.alice as string;
    processor = await spawnGw('extproc', config.file);
    const port = processor.output.map((l) => /listening on [^:]+:(\d+)/.exec(l)?.[1]).find(Boolean);
    harness = await startEnvoyHarness({
      processor: `127.0.0.1:${port}`,
      ...generatedConfigHarnessOptions({ ...DEFAULT_ENVOY_SETTINGS, observeResponseBody: observe }),
      messageTimeoutMs: 10_000,
      // Envoy hands the filter pieces of its own choosing: cut every 7 bytes, so SSE events straddle chunks.
      responseChunking: { split: splitEvery(7), emptyFinalChunk: true },
    });
  });

  afterAll(async () => {
    await harness?.close();
    await processor?.stop();
    await vendor?.close();
    await aggregator?.close();
  });

  function post(body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<Response> {
    return fetch(`${harness.url}/v1/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      ...(signal ? { signal } : {}),
    });
  }

  it('answers 401 immediately at the request headers: the body is never sent to the processor, nothing goes upstream', async () => {
    await harness.idle();
    const sentBefore = harness.stats.stream_msgs_sent;
    const upstreamBefore = vendor.seen.length;
    const res = await post({ model: 'claude-haiku-4-5', max_tokens: 5, messages: [] }, { authorization: 'Bearer gwct_wrong' });
    expect(res.status).toBe(401);
    expect(res.headers.get('x-gw-fault')).toBe('no_session');
    await res.text();
    await harness.idle();
    expect(harness.stats.stream_msgs_sent - sentBefore).toBe(1);
    expect(harness.accessLog.at(-1)?.responseCodeDetails).toBe('gw_no_session');
    expect(vendor.seen.length).toBe(upstreamBefore);
  });

  it('answers 403 after reading the body', async () => {
    await harness.idle();
    const sentBefore = harness.stats.stream_msgs_sent;
    const res = await post({ model: 'gpt-17-turbo', max_tokens: 5, messages: [] });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/^gw: "gpt-17-turbo" is not a model/);
    await harness.idle();
    expect(harness.stats.stream_msgs_sent - sentBefore).toBe(2);
  });

  it('routes each provider to its own host through the dynamic forward proxy headers and clear_route_cache', async () => {
    await harness.idle();
    const cleared = harness.stats.route_cache_cleared;
    const a = await post({ model: 'claude-haiku-4-5', max_tokens: 5, messages: [] });
    expect(a.status).toBe(200);
    await a.text();
    const b = await post({ model: 'provider_a:z-ai/glm-4.6', max_tokens: 5, messages: [] });
    expect(b.status).toBe(200);
    await b.text();
    await harness.idle();
    expect(harness.accessLog.slice(-2).map((e) => [e.cluster, e.upstreamHost])).toEqual([
      [DYNAMIC_CLUSTERS.http, new URL(vendor.url).host],
      [DYNAMIC_CLUSTERS.http, new URL(aggregator.url).host],
    ]);
    expect(harness.stats.route_cache_cleared - cleared).toBe(2);
    expect(aggregator.messageRequests().at(-1)?.headers['x-gw-upstream']).toBeUndefined();
    expect(aggregator.messageRequests().at(-1)?.headers['x-gw-upstream-host']).toBeUndefined();
    // The observing filter's join key stays between Envoy and the processor.
    expect(aggregator.messageRequests().at(-1)?.headers['x-gw-observe-id']).toBeUndefined();
  });

  it('meters a stream whose events Envoy split mid-event, relaying it byte for byte', async () => {
    await harness.idle();
    const sentBefore = harness.stats.stream_msgs_sent;
    const observedBefore = harness.stats.observer_msgs_sent;
    const res = await post({ model: 'claude-haiku-4-5', max_tokens: 5, stream: true, messages: [] }, { 'x-gw-application': 'split-meter' });
    const text = await res.text();
    expect(res.headers.get('content-length')).toBeNull();
    expect(res.headers.get('x-gw-source')).toBe('upstream');
    const deltas = [...text.matchAll(/"text":"([^"]*)"/g)].map((m) => m[1]).join('');
    expect(deltas).toBe(DEFAULT_DELTAS.join(''));
    let record: Record<string, unknown> | undefined;
    for (let i = 0; i < 100 && !record; i++) {
      record = (await waitForLogs(processor, 1)).find((r) => r.application === 'split-meter');
      if (!record) await new Promise((r) => setTimeout(r, 50));
    }
    expect(record).toMatchObject({ input_tokens: 1200, output_tokens: 37, cache_creation_input_tokens: 300, cache_read_input_tokens: 5000, outcome: 'complete' });
    await harness.idle();
    // Envoy's access log line carries the request id the processor gave the caller.
    const line = JSON.parse(harness.accessLogLines.at(-1) ?? '{}') as { request_id?: string };
    expect(line.request_id).toBe(res.headers.get('x-gw-request-id'));
    expect(record?.request_id).toBe(line.request_id);
    // At least this many 7-byte pieces (more where an upstream write ends mid-piece), plus the empty last one.
    const chunks = Math.ceil(Buffer.byteLength(text) / 7) + 1;
    if (observe) {
      // Answered: request headers, request body, response headers; never a chunk. The observer
      // sent request headers, response headers and every chunk (plus the empty last one).
      expect(harness.stats.stream_msgs_sent - sentBefore).toBe(3);
      expect(harness.stats.observer_msgs_sent - observedBefore).toBeGreaterThanOrEqual(2 + chunks);
    } else {
      expect(harness.stats.stream_msgs_sent - sentBefore).toBeGreaterThanOrEqual(3 + chunks);
      expect(harness.stats.observer_msgs_sent - observedBefore).toBe(0);
    }
  });

  it('records usage and releases the lease when the client cancels mid-stream', async () => {
    vendor.behaviour = { kind: 'slow-stream', delayMs: 50 };
    try {
      const controller = new AbortController();
      const res = await post({ model: 'claude-haiku-4-5', max_tokens: 5, stream: true, messages: [] }, { 'x-gw-application': 'canceller' }, controller.signal);
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      let seen = '';
      while (!seen.includes('content_block_start')) seen += new TextDecoder().decode((await reader.read()).value);
      controller.abort();
      let record: Record<string, unknown> | undefined;
      // With the observing filter, the end is seen when Envoy closes the observing stream:
      // deferred_close_timeout (5 s) after the request ended.
      for (let i = 0; i < 300 && !record; i++) {
        record = (await waitForLogs(processor, 1)).find((r) => r.application === 'canceller');
        if (!record) await new Promise((r) => setTimeout(r, 50));
      }
      expect(record).toMatchObject({ outcome: 'client_disconnect', input_tokens: 1200 });
    } finally {
      vendor.behaviour = { kind: 'normal' };
    }
    // The vendor credential has maxConcurrency 1: it can only serve again if the lease was released.
    const next = await post({ model: 'claude-haiku-4-5', max_tokens: 5, messages: [] });
    expect(next.status).toBe(200);
    await next.text();
  });

  it('answers in order on 50 concurrent streams', async () => {
    await harness.idle();
    const spurious = harness.stats.spurious_msgs_received;
    const failed = harness.stats.streams_failed;
    const results = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const res = await post({ model: 'provider_a:z-ai/glm-4.6', max_tokens: 5, stream: true, messages: [{ role: 'user', content: `n${i}` }] });
        return { status: res.status, text: await res.text() };
      }),
    );
    expect(results.every((r) => r.status === 200 && r.text.includes('event: message_stop'))).toBe(true);
    await harness.idle();
    expect(harness.stats.spurious_msgs_received).toBe(spurious);
    expect(harness.stats.streams_failed).toBe(failed);
  });
});
