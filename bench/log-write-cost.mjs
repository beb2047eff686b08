#!/usr/bin/env node
// CPU (every thread of the process: user + system) per request log line, through createLogger of
// a build, with stdout sent wherever the caller points it (a file, as in the bench). Lines are
// logged one per macrotask with GAP ms between them, as requests finish on a lightly loaded
// processor; with GAP 0 they come back to back, as under heavy load.
//
//   node bench/log-write-cost.mjs DIST [lines=3000] [gapMs=2] > /tmp/lines.txt
import { resolve } from 'node:path';

const dist = resolve(process.argv[2] ?? 'dist');
const N = Number(process.argv[3] ?? 3000);
const GAP = Number(process.argv[4] ?? 2);
const { createLogger } = await import(`${dist}/observability/logger.js`);
const logger = createLogger('info');
const line = (i) => ({
  request_id: `6c1f0ad1-7c2b-4a4e-9a57-${String(i).padStart(12, '0')}`,
  method: 'POST',
  route: 'messages',
  status: 200,
  fault: null,
  address: 'alice@acme.example',
  model: 'claude-sonnet-4-5',
  provider: 'vendor',
  credential: 'vendor-main',
  input_tokens: 1200,
  output_tokens: 37,
  cost_usd: 0.0041,
  duration_ms: 12.3,
  ttfb_ms: 3.1,
  outcome: 'complete',
});
const before = process.cpuUsage();
let i = 0;
await new Promise((done) => {
  const step = () => {
    logger.info(line(i++), 'request');
    if (i >= N) done();
    else if (GAP > 0) setTimeout(step, GAP);
    else setImmediate(step);
  };
  step();
});
await new Promise((r) => logger.flush(r));
const used = process.cpuUsage(before);
process.stderr.write(
  `${dist} gap=${GAP}ms: ${((used.user + used.system) / N).toFixed(1)} µs CPU per line (user ${(used.user / N).toFixed(1)}, system ${(used.system / N).toFixed(1)}), event loop and timers included\n`,
);
