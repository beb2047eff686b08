/**
 * Issue 26 point 3: the chunk latency a caller sees through the Envoy harness
 * (test/support/envoy-harness, the model of Envoy's ext_proc filter) in front
 * of the built `gw extproc`, with the bootstrap `gw envoy-config` renders by
 * default (every chunk answered by the processor before it is sent on)
 * against `--observe-response-body` (the body observed, never held).
 *
 * The upstream is an Anthropic-format SSE stream from this process: each
 * text delta carries the time it was written (performance.now(), the same
 * clock the client reads), so each event's delay is upstream write →
 * client read, through harness and processor. Both configurations run in
 * alternating rounds against one processor. Timing lives here, never in tests.
 *
 *   npm run build && npx vite-node bench/harness-chunk-latency.ts [-- --streams 16 --events 30 --rounds 4]
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { DEFAULT_ENVOY_SETTINGS } from '../src/config/envoy-settings.js';
import { generatedConfigHarnessOptions } from '../test/support/envoy-harness/generated-config.js';
import { startEnvoyHarness, type EnvoyHarness } from '../test/support/envoy-harness/index.js';
import { writeGatewayConfig } from '../test/support/gateway-config.js';
import { spawnGw } from '../test/support/gateway-process.js';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const STREAMS = arg('streams', 16);
const EVENTS = arg('events', 30);
const ROUNDS = arg('rounds', 4);
const SPACING_MS = arg('spacing-ms', 2);
const STREAMS_PER_ROUND = arg('per-round', 64);

const sseEvent = (type: string, data: unknown): string => `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;

async function anthropicStream(res: ServerResponse): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'request-id': 'req_bench' });
  res.write(
    sseEvent('message_start', {
      type: 'message_start',
      message: { id: 'msg_bench', type: 'message', role: 'assistant', model: 'claude-haiku-4-5', content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: 1 } },
    }),
  );
  res.write(sseEvent('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }));
  for (let i = 0; i < EVENTS; i++) {
    await new Promise((r) => setTimeout(r, SPACING_MS));
    res.write(sseEvent('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: `t=${performance.now().toFixed(3)};` } }));
  }
  res.write(sseEvent('content_block_stop', { type: 'content_block_stop', index: 0 }));
  res.write(sseEvent('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: EVENTS } }));
  res.end(sseEvent('message_stop', { type: 'message_stop' }));
}

const upstream = createServer((req, res) => {
  req.resume();
  req.on('end', () => void anthropicStream(res));
});
await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;

const config = writeGatewayConfig({
  settings: { callerConcurrency: { default: 1000, queueWaitSeconds: 5 } },
  credentials: [{ name: 'vendor-key', provider: 'vendor', baseUrl: upstreamUrl, secret: 'sk-ant-api03-bench-000000000000000', maxConcurrency: 1000 }],
});
const token = config.tokens.alice as string;
const processor = await spawnGw('extproc', config.file);
const port = processor.output.map((l) => /listening on [^:]+:(\d+)/.exec(l)?.[1]).find(Boolean);

const harnesses: Record<string, EnvoyHarness> = {
  today: await startEnvoyHarness({ processor: `127.0.0.1:${port}`, ...generatedConfigHarnessOptions(), messageTimeoutMs: 10_000 }),
  observe: await startEnvoyHarness({ processor: `127.0.0.1:${port}`, ...generatedConfigHarnessOptions({ ...DEFAULT_ENVOY_SETTINGS, observeResponseBody: true }), messageTimeoutMs: 10_000 }),
};

/** One stream: the delay of each text delta, upstream write → client read, in ms. */
async function oneStream(harness: EnvoyHarness): Promise<number[]> {
  const res = await fetch(`${harness.url}/v1/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'claude-haiku-4-5', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
  });
  if (res.status !== 200) throw new Error(`status ${res.status}: ${await res.text()}`);
  const delays: number[] = [];
  const decoder = new TextDecoder();
  let pending = '';
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    const now = performance.now();
    pending += decoder.decode(chunk, { stream: true });
    let at: number;
    while ((at = pending.indexOf(';')) >= 0) {
      const m = /t=([\d.]+)$/.exec(pending.slice(0, at));
      if (m) delays.push(now - Number(m[1]));
      pending = pending.slice(at + 1);
    }
  }
  return delays;
}

async function round(harness: EnvoyHarness): Promise<number[]> {
  const all: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: STREAMS }, async () => {
      while (next++ < STREAMS_PER_ROUND) all.push(...(await oneStream(harness)));
    }),
  );
  return all;
}

const pct = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const samples: Record<string, number[]> = { today: [], observe: [] };
await round(harnesses.today as EnvoyHarness); // warm-up
await round(harnesses.observe as EnvoyHarness);
for (let r = 0; r < ROUNDS; r++) {
  for (const name of r % 2 === 0 ? ['today', 'observe'] : ['observe', 'today']) samples[name]?.push(...(await round(harnesses[name] as EnvoyHarness)));
}
const summary = Object.fromEntries(
  Object.entries(samples).map(([name, xs]) => {
    const s = [...xs].sort((a, b) => a - b);
    return [name, { events: s.length, p50: pct(s, 50), p90: pct(s, 90), p99: pct(s, 99), max: s.at(-1) }];
  }),
);
console.log(JSON.stringify({ streams: STREAMS, eventsPerStream: EVENTS, spacingMs: SPACING_MS, rounds: ROUNDS, streamsPerRound: STREAMS_PER_ROUND, summary }, null, 1));
for (const h of Object.values(harnesses)) await h.close();
await processor.stop();
upstream.close();
process.exit(0);
