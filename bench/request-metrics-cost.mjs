#!/usr/bin/env node
// CPU per finished request of what a build does when a request ends: the Prometheus observations
// (requests, duration, time to first byte, four token counters, cost, the GenAI histograms) and the
// request log line, through observabilityEvents().requestFinished, with the log written to a sink
// that drops it. Builds given together are run one after the other in separate processes, ROUNDS
// times, so a change is read against the machine's noise.
//
//   node bench/request-metrics-cost.mjs DIST [DIST2 …] [--calls 200000] [--rounds 3]
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const [, value] = args.splice(at, 2);
  return Number(value);
};
const CALLS = option('--calls', 200_000);
const ROUNDS = option('--rounds', 3);

if (args[0] === '--child') {
  const dist = resolve(args[1]);
  const { Writable } = await import('node:stream');
  const { observabilityEvents } = await import(`${dist}/observability/pipeline-events.js`);
  const { GatewayMetrics } = await import(`${dist}/observability/metrics.js`);
  const { default: pino } = await import('pino');
  const logger = pino({ level: 'info' }, new Writable({ write: (_c, _e, done) => done() }));
  const events = observabilityEvents(logger, new GatewayMetrics(false));
  const models = ['claude-sonnet-4-5', 'claude-opus-4-1', 'claude-haiku-4-5'];
  const finished = Array.from({ length: 1000 }, (_, i) => {
    const record = {
      request_id: `r${i}`,
      time: '2026-11-28T00:00:00.000Z',
      company: 'acme',
      address: 'alice@acme.example',
      endpoint: 'messages',
      model: models[i % 3],
      provider: 'provider_a',
      provider_model: models[i % 3],
      credential: 'main',
      input_tokens: 100 + (i % 50),
      output_tokens: 30 + (i % 70),
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: i % 7,
      cost_usd: 0.0012,
      status: 200,
      fault: null,
      stream: true,
      duration_ms: 40 + (i % 300),
      ttfb_ms: 5 + (i % 20),
      outcome: 'complete',
    };
    const info = {
      requestId: record.request_id,
      route: 'messages',
      method: 'POST',
      status: 200,
      fault: null,
      company: 'acme',
      address: record.address,
      durationMs: record.duration_ms,
      ttfbMs: record.ttfb_ms,
      outcome: 'complete',
      traceId: null,
      spanId: null,
      responseModel: record.provider_model,
    };
    return [record, info];
  });
  const run = (n) => {
    for (let i = 0; i < n; i++) events.requestFinished(finished[i % 1000][0], finished[i % 1000][1]);
  };
  run(20_000); // warm-up: optimized code, every label set seen
  const before = process.cpuUsage();
  run(CALLS);
  const used = process.cpuUsage(before);
  process.stdout.write(String((used.user + used.system) / CALLS));
} else {
  const dists = args.length > 0 ? args : ['dist'];
  const results = new Map(dists.map((d) => [d, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const dist of dists) {
      const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--child', dist, '--calls', String(CALLS)], { encoding: 'utf8' });
      results.get(dist).push(Number(out));
    }
  }
  for (const [dist, us] of results) {
    const sorted = [...us].sort((a, b) => a - b);
    process.stdout.write(`${dist}: ${sorted[Math.floor(sorted.length / 2)].toFixed(1)} µs CPU per finished request (median of ${ROUNDS}; ${us.map((u) => u.toFixed(1)).join(' / ')})\n`);
  }
}
