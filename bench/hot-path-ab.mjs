#!/usr/bin/env node
// Before/after of the hot-path changes, operation by operation, in one process: the same inputs
// through the baseline build (bench/lib/baseline.mjs) and the current dist/. Each figure is the
// smallest mean over many repetitions, the figure least moved by other load on a shared machine
// (on this VM there are no hardware counters for instruction counts). Prints a markdown table.
//
//   node bench/hot-path-ab.mjs [--baseline DIR]    DIR: a dist/ to compare with (default: the baseline build)
import { join, resolve } from 'node:path';
import { baselineDist } from './lib/baseline.mjs';
import { ROOT, option } from './lib/options.mjs';

const before = resolve(option('baseline', null) ?? baselineDist() ?? '');
const after = join(ROOT, 'dist');
const load = async (dist) => ({
  sse: await import(join(dist, 'metering', 'sse-meter.js')),
  usage: await import(join(dist, 'metering', 'usage.js')),
  codec: await import(join(dist, 'extproc', 'header-codec.js')),
  proto: await import(join(dist, 'extproc', 'proto.js')),
  memory: await import(join(dist, 'state', 'memory.js')),
  stream: await import(join(dist, 'extproc', 'process-stream.js')),
});
const builds = { before: await load(before), after: await load(after) };

/** Smallest mean µs per call of fn over `reps` runs of `n` calls. */
function time(fn, n, reps = 30) {
  let best = Infinity;
  for (let r = 0; r < reps; r++) {
    const t = process.hrtime.bigint();
    for (let i = 0; i < n; i++) fn(i);
    const us = Number(process.hrtime.bigint() - t) / 1e3 / n;
    if (us < best) best = us;
  }
  return best;
}
async function timeAsync(fn, n, reps = 15) {
  let best = Infinity;
  for (let r = 0; r < reps; r++) {
    const t = process.hrtime.bigint();
    for (let i = 0; i < n; i++) await fn(i);
    const us = Number(process.hrtime.bigint() - t) / 1e3 / n;
    if (us < best) best = us;
  }
  return best;
}

// A stream as the mock sends it: message_start, 30 content deltas, the ending, in ~1 KiB chunks.
const ev = (name, data) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
let text = ev('message_start', { type: 'message_start', message: { id: 'm', usage: { input_tokens: 10, output_tokens: 1 } } });
for (let i = 0; i < 30; i++) text += ev('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: `w${1e15 + i} the quick` } });
text += ev('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 31 } }) + ev('message_stop', { type: 'message_stop' });
const bytes = Buffer.from(text);
const chunks = [];
for (let i = 0; i < bytes.length; i += 1024) chunks.push(bytes.subarray(i, i + 1024));

// Request headers as Envoy sends them for a Claude Code request (raw_value bytes), through the decoder.
const headerNames = [
  'content-type',
  'accept',
  'anthropic-version',
  'anthropic-beta',
  'user-agent',
  'x-app',
  'x-stainless-lang',
  'x-stainless-package-version',
  'x-stainless-os',
  'x-stainless-arch',
  'x-stainless-runtime',
  'x-stainless-runtime-version',
  'x-stainless-retry-count',
  'x-stainless-timeout',
  'authorization',
  'x-gw-repo',
  'content-length',
  'x-request-id',
];
const headerBytes = builds.after.proto.encodeProcessingRequest({
  request_headers: { headers: { headers: [':authority', ':path', ':method', ':scheme', ...headerNames].map((k) => ({ key: k, raw_value: Buffer.from(`value-of-${k}-0123456789`) })) } },
});
const decodedHeaders = builds.after.proto.decodeProcessingRequest(headerBytes).request_headers.headers;

const rows = [];
for (const [label, run] of [
  [
    'SSE meter: one 31-delta stream (~4 KiB in 1 KiB chunks)',
    (b) =>
      time(() => {
        const m = new b.sse.SseMeter(b.usage.emptyUsage());
        for (const c of chunks) m.push(c);
        m.end();
      }, 2000),
  ],
  ['ext_proc: decode 22 request headers (raw_value)', (b) => time(() => b.codec.decodeHeaders(decodedHeaders), 20000)],
  [
    'ext_proc: encode the continue answer to a body chunk',
    (b) => {
      const service = b.proto.processorService ?? b.proto.externalProcessorService;
      const answer = Object.freeze({ response_body: Object.freeze({ response: Object.freeze({}) }) });
      return time(() => service.Process.responseSerialize(answer), 50000);
    },
  ],
]) {
  rows.push({ label, before: run(builds.before), after: run(builds.after) });
}
// Caller slot acquire + release with 1,000 others held (a thousand streams in flight).
for (const held of [10, 1000]) {
  const run = async (b) => {
    const state = new b.memory.MemoryState();
    const req = (id) => ({ company: 'acme', tokenHash: 'h', limit: 100_000, requestId: id, ttlMs: 60_000, waitMs: 0 });
    for (let i = 0; i < held; i++) await state.acquireCallerSlot(req(`held-${i}`));
    return timeAsync(async (i) => {
      await state.acquireCallerSlot(req(`r${i}`));
      await state.releaseCallerSlot('acme', 'h', `r${i}`);
    }, 2000);
  };
  rows.push({ label: `memory state: caller slot acquire + release, ${held.toLocaleString('en-US')} held`, before: await run(builds.before), after: await run(builds.after) });
}
// Usage records once the 100,000 cap is reached.
{
  const record = (i) => ({
    request_id: `r${i}`,
    time: '2026-11-25T00:00:00.000Z',
    company: 'acme',
    address: 'a@acme.example',
    endpoint: 'messages',
    model: 'm',
    provider: 'vendor',
    provider_model: 'm',
    credential: 'c',
    input_tokens: 1,
    output_tokens: 1,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    cost_usd: 0,
    status: 200,
    fault: null,
    stream: false,
    duration_ms: 1,
    ttfb_ms: null,
    outcome: 'complete',
  });
  const run = async (b) => {
    const state = new b.memory.MemoryState();
    let i = 0;
    for (; i < 100_000; i++) await state.recordUsage(record(i));
    return timeAsync(() => state.recordUsage(record(i++)), 2000, 10);
  };
  rows.push({ label: 'memory state: record usage past the 100,000-record cap', before: await run(builds.before), after: await run(builds.after) });
}

console.log(`before: ${before}\nafter:  ${after}\n`);
console.log('| operation | before µs | after µs | after / before |');
console.log('|---|---|---|---|');
for (const r of rows) console.log(`| ${r.label} | ${r.before.toFixed(2)} | ${r.after.toFixed(2)} | ${(r.after / r.before).toFixed(2)}× |`);
