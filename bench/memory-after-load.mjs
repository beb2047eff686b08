#!/usr/bin/env node
// What a gw serve's memory is made of after a few thousand requests (4 s of 500 req/s JSON, then 4 s of
// 32 streams of 30 deltas) and 10 s and 35 s of idle: RSS split into anonymous and file-backed pages
// (/proc/<pid>/smaps_rollup), and V8's new, old and code spaces (committed and in use, from /metrics).
// Then two bursts of streams, their CPU per stream, and the deoptimizations V8 logged (PROBE_FLAGS
// must hold --trace-deopt for that count). For the idle-collection trade (docs/benchmarks.md).
//
//   GW_IDLE_COLLECT_AFTER_MS=3000 PROBE_FLAGS="--trace-deopt" [PROBE_BIN=<dist>/cli/main.js] node bench/memory-after-load.mjs
import { readFileSync } from 'node:fs';
import { startMock, writeGatewayFile, startGw, gwHeaders } from './lib/systems.mjs';
import { runLoad, loadJob } from './lib/load-runner.mjs';
import { requestBody } from './lib/requests.mjs';
import { stopChild } from './lib/processes.mjs';
const mock = await startMock();
const memFile = writeGatewayFile('gw-mem', mock.url, { secretScanning: false });
const gw = await startGw('gw-mem-' + Date.now(), 'serve', memFile.file, {
  nodeArgs: (process.env.PROBE_FLAGS ?? '').split(' ').filter(Boolean),
  ...(process.env.PROBE_BIN ? { bin: process.env.PROBE_BIN } : {}),
});
const target = { name: 'gw', url: gw.url, headers: gwHeaders(memFile.token), pids: [gw.pid] };
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${gw.pid}/status`, 'utf8'))[1]) / 1024;
const smaps = () => {
  const t = readFileSync(`/proc/${gw.pid}/smaps_rollup`, 'utf8');
  const g = (k) => Number(new RegExp(k + ':\\s+(\\d+)').exec(t)[1]) / 1024;
  return `anon ${g('Anonymous').toFixed(1)} file ${(g('Rss') - g('Anonymous')).toFixed(1)}`;
};
const heap = async () => {
  const t = await (await fetch(gw.adminUrl + '/metrics', { headers: { authorization: 'Bearer ' + (process.env.GW_ADMIN_TOKEN ?? '') } })).text();
  const get = (re) => [...t.matchAll(re)].map((m) => `${m[1]}=${(Number(m[2]) / 1048576).toFixed(1)}`).join(' ');
  return 'committed ' + get(/nodejs_heap_space_size_total_bytes\{space="(new|old|code)"\} (\S+)/g) + ' | in use ' + get(/nodejs_heap_space_size_used_bytes\{space="(new|old|code)"\} (\S+)/g) + ' (MB)';
};
console.log(`fresh: rss ${rss().toFixed(1)} MB ${smaps()}\n   ${await heap()}`);
await mock.configure({ events: 30, spacingMs: 0 });
const streaming = {
  mode: 'concurrency',
  concurrency: 32,
  connections: 32,
  durationMs: 4000,
  warmupMs: 0,
  stream: true,
  eventTiming: false,
  body: requestBody(4096, true),
  mock: { events: 30, spacingMs: 0 },
};
const nonStream = { mode: 'rate', rate: 500, connections: 64, durationMs: 4000, warmupMs: 0, stream: false, body: requestBody(4096, false), mock: {} };
let n = 0;
for (const job of [nonStream, streaming]) {
  const r = await runLoad(loadJob(target, job), [gw.pid]);
  n += r.completed;
}
console.log(`after ${n} requests: rss ${rss().toFixed(1)} MB ${smaps()}\n   ${await heap()}`);
for (const s of [10, 35]) {
  await new Promise((r) => setTimeout(r, (s === 10 ? 10 : 25) * 1000));
  console.log(`+${s}s: rss ${rss().toFixed(1)} MB ${smaps()}\n   ${await heap()}`);
}
for (let b = 0; b < 2; b++) {
  const r = await runLoad(loadJob(target, { ...streaming, durationMs: 2500 }), [gw.pid]);
  console.log(`burst after idle ${b}: ${r.completed} streams, cpu/stream ${(r.procs[0].cpuMs / r.completed).toFixed(3)} ms`);
}
const log = readFileSync(gw.logFile, 'utf8');
console.log('weak-objects deopts', (log.match(/reason: weak objects/g) ?? []).length, 'all deopts', (log.match(/bailout \(kind: deopt/g) ?? []).length);
await stopChild(gw.child, 'SIGTERM', 10000);
await mock.close?.();
process.exit(0);
