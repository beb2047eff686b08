#!/usr/bin/env node
// What scanning every byte costs (issue 14): no body is forwarded unscanned,
// so large bodies are scanned in worker threads. Measures, on this machine:
//
// - scan time per MiB of a body of 1, 4 and 16 MiB (text with credentials
//   spread through it), inline: the growth must stay linear;
// - a 12 MiB body through the RedactionPool (worker thread) as the gateway
//   does it: how long the body waits, and the event loop's longest stall
//   meanwhile, next to the same body scanned inline on the event loop;
// - a pathological body (thousands of private-key headers with no END).
//
//   npm run build && node bench/redaction-scan-cost.mjs [--json]
import { performance } from 'node:perf_hooks';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = process.env.REDACTION_DIST_ROOT ?? resolve(root, 'dist');
const { redactJsonBody } = await import(pathToFileURL(resolve(dist, 'redaction/index.js')).href);
const { RedactionPool } = await import(pathToFileURL(resolve(dist, 'runtime/redaction-pool.js')).href);

let seed = 0x51ed;
const rand = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
const b62 = (n) => Array.from({ length: n }, () => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(rand() * 62)]).join('');

function body(bytes, secretsPerMiB) {
  const lines = [];
  let size = 0;
  let i = 0;
  const every = Math.max(1, Math.floor((1 << 20) / 80 / Math.max(secretsPerMiB, 1)));
  while (size < bytes) {
    const line =
      secretsPerMiB > 0 && i % every === 0
        ? `export GITHUB_TOKEN=ghp_${b62(36)} # token for ci, password = "Pw${b62(10)}!"`
        : `2024-03-11T09:14:${String(i % 60).padStart(2, '0')}Z INFO request ${i} served from cache key=page:${i % 977} in ${i % 90} ms`;
    lines.push(line);
    size += line.length + 1;
    i++;
  }
  return Buffer.from(JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 16, messages: [{ role: 'user', content: lines.join('\n') }] }));
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
function cpuMs(fn) {
  const c = process.cpuUsage();
  const t = performance.now();
  fn();
  const u = process.cpuUsage(c);
  return { wall: performance.now() - t, cpu: (u.user + u.system) / 1000 };
}

const results = { linear: [], pool: {}, pathological: {} };

for (const mib of [1, 4, 16]) {
  const input = body(mib << 20, 100);
  const runs = Array.from({ length: mib >= 16 ? 3 : 7 }, () => cpuMs(() => redactJsonBody(input)));
  results.linear.push({ mib, wallMsPerMiB: median(runs.map((r) => r.wall)) / mib, cpuMsPerMiB: median(runs.map((r) => r.cpu)) / mib });
}

{
  const input = body(12 << 20, 100);
  // Inline, the scan is one synchronous call: the loop stalls for all of it.
  const t = performance.now();
  redactJsonBody(input);
  const inlineMs = performance.now() - t;
  const inlineStall = inlineMs;

  const pool = new RedactionPool({ workers: 2 });
  await pool.redact(body(256 << 10, 10)); // warm the workers
  const waits = [];
  let stall = 0;
  for (let k = 0; k < 3; k++) {
    // The longest gap between ticks of a 1 ms interval while the body is in the pool.
    let previous = performance.now();
    let gap = 0;
    const tick = setInterval(() => {
      const now = performance.now();
      gap = Math.max(gap, now - previous);
      previous = now;
    }, 1);
    const s = performance.now();
    const out = await pool.redact(input);
    waits.push(performance.now() - s);
    clearInterval(tick);
    stall = Math.max(stall, gap, performance.now() - previous);
    if (out.body.includes('ghp_')) throw new Error('a credential survived the worker scan');
  }
  await pool.close();
  results.pool = { mib: 12, inlineMs, inlineLoopStallMs: inlineStall, workerWaitMs: median(waits), workerLoopStallMs: stall };
}

{
  const text = `-----BEGIN RSA PRIVATE KEY-----\n${b62(968)}\n`.repeat(2048);
  const input = Buffer.from(JSON.stringify({ messages: [{ role: 'user', content: text }] }));
  const r = cpuMs(() => redactJsonBody(input));
  results.pathological = { mib: input.length / (1 << 20), wallMs: r.wall, cpuMs: r.cpu };
}

if (process.argv.includes('--json')) console.log(JSON.stringify(results));
else {
  console.log('| body | wall ms per MiB | CPU ms per MiB |\n|---|---|---|');
  for (const r of results.linear) console.log(`| ${r.mib} MiB, 100 credentials per MiB | ${r.wallMsPerMiB.toFixed(1)} | ${r.cpuMsPerMiB.toFixed(1)} |`);
  const p = results.pool;
  console.log(`\n| 12 MiB body | waits (ms) | longest event-loop stall (ms) |\n|---|---|---|`);
  console.log(`| scanned inline | ${p.inlineMs.toFixed(0)} | ${p.inlineLoopStallMs.toFixed(0)} |`);
  console.log(`| scanned in the worker pool | ${p.workerWaitMs.toFixed(0)} | ${p.workerLoopStallMs.toFixed(0)} |`);
  const q = results.pathological;
  console.log(`\npathological: ${q.mib.toFixed(1)} MiB of private-key headers with no END: ${q.wallMs.toFixed(0)} ms wall, ${q.cpuMs.toFixed(0)} ms CPU`);
}
