#!/usr/bin/env node
// A/B of gw extproc builds on the two ext_proc budgets (CPU per exchange, request-phase p50), for
// trying changes one at a time without the whole of s5: the baseline build (main at 11bec4b), the
// current dist/ and any other builds given with --case NAME=DIST, each a fresh process pinned to the
// system-under-test CPU, driven by bench/extproc-load.mjs in interleaved rounds (order reversed
// every other round). CPU is the process's own CPU time from /proc (user + system), the figure a
// loaded shared machine disturbs least; each round's ratio to the baseline is paired, and the
// report gives the median and the smallest over rounds. Prints a markdown table.
//
//   node bench/extproc-ab.mjs [--rounds 8] [--seconds 2] [--case before=/path/to/dist[,--v8-flag]] [--no-floor] [--http2-floor]
import { join, resolve } from 'node:path';
import { BASELINE_COMMIT, baselineDist } from './lib/baseline.mjs';
import { brief, runLoad } from './lib/load-runner.mjs';
import { BENCH, GW_DIST, flag, log, option } from './lib/options.mjs';
import { SUT_CPU, installLifetime, listeningLine, spawnOn, stopChild } from './lib/processes.mjs';
import { memory } from './lib/procfs.mjs';
import { recordExchange } from './lib/recording.mjs';
import { startFloor, startGw, startMock, writeGatewayFile } from './lib/systems.mjs';

const ROUNDS_N = Number(option('rounds', '8'));
const SECONDS = Number(option('seconds', '2'));
const argv = process.argv.slice(2);
const extra = argv
  .flatMap((a, i) => (a === '--case' ? [argv[i + 1]] : []))
  .map((s) => {
    // NAME=DIST[,--node-flag…]: node flags (V8 options) for that case's process.
    const name = s.slice(0, s.indexOf('='));
    const rest = s.slice(s.indexOf('=') + 1);
    const [dir, ...nodeArgs] = rest.split(',');
    return { name, dist: resolve(dir), nodeArgs };
  });
installLifetime(30 * 60_000);

const mock = await startMock();
const memFile = writeGatewayFile('gw-memory', mock.url, { secretScanning: false });
const recording = await recordExchange(mock, 30);
const builds = [{ name: 'baseline', dist: baselineDist() }, ...extra, { name: 'current', dist: GW_DIST }];
const cases = [];
if (!flag('no-floor')) {
  const floor = await startFloor();
  cases.push({ name: 'floor', target: floor.target, pid: floor.pid, child: floor.child });
}
if (flag('http2-floor')) {
  // bench/extproc-floor-http2.mjs: the same answers without grpc-js (what a leaner transport could save).
  const child = spawnOn(SUT_CPU, process.execPath, [join(BENCH, 'extproc-floor-http2.mjs'), '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const target = await listeningLine(child, 'ext_proc http2 floor');
  cases.push({ name: 'http2-floor', target, pid: child.pid, child });
}
for (const b of builds) {
  const gw = await startGw(`ab-${b.name}`, 'extproc', memFile.file, { bin: join(b.dist, 'cli', 'main.js'), nodeArgs: b.nodeArgs ?? [] });
  cases.push({ name: b.name, target: gw.target, pid: gw.pid, child: gw.child, idleMB: memory(gw.pid)?.rssMB });
}
const job = (c, concurrency, ms, warmupMs) => ({ kind: 'extproc', target: c.target, recording: recording.file, token: memFile.token, concurrency, durationMs: ms, warmupMs });
for (const c of cases) await runLoad(job(c, 8, 2000, 0), []);

const rows = {}; // `${name}@${conc}` → [{ cpuUs, phase }]
for (let r = 0; r < ROUNDS_N; r++) {
  const order = r % 2 === 0 ? cases : [...cases].reverse();
  for (const concurrency of [1, 16]) {
    for (const c of order) {
      const res = await runLoad(job(c, concurrency, SECONDS * 1000, 300), [c.pid]);
      const cpuMs = res.procs?.[0]?.cpuMs ?? NaN;
      const cpuUs = res.streams ? (cpuMs * 1000) / res.streams : NaN;
      (rows[`${c.name}@${concurrency}`] ??= []).push({ cpuUs, phase: res.requestPhaseMs?.p50 ?? NaN, chunkP99: res.chunkMs?.p99 ?? NaN });
      log(`round ${r + 1}/${ROUNDS_N} ${`${c.name}@${concurrency}`.padEnd(20)} ${brief(res)} cpu/exchange=${cpuUs.toFixed(0)}µs`);
    }
  }
}
// What each process keeps once the load is gone.
await new Promise((r) => setTimeout(r, 5000));
for (const c of cases) c.afterMB = memory(c.pid)?.rssMB;
await Promise.all(cases.map((c) => stopChild(c.child)));
await stopChild(mock.child);

const median = (xs) => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const min = (xs) => Math.min(...xs.filter(Number.isFinite));
const f = (x, d = 0) => (Number.isFinite(x) ? x.toFixed(d) : '–');
console.log(`ext_proc A/B, ${ROUNDS_N} rounds of ${SECONDS} s per case and concurrency; baseline = main at ${BASELINE_COMMIT}; recorded exchange of ${recording.chunks} response chunks.\n`);
console.log(
  '| build @ streams | CPU µs/exchange, median | smallest | CPU vs baseline (paired median) | smallest | request phase p50 ms, median | vs baseline (paired median) | chunk p99 ms, median | vs floor (paired median) | RSS MB idle / 5 s after the load |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const concurrency of [1, 16]) {
  for (const c of cases) {
    const mine = rows[`${c.name}@${concurrency}`];
    const base = rows[`baseline@${concurrency}`];
    const floor = rows[`floor@${concurrency}`];
    const cpuRatios = mine.map((x, i) => x.cpuUs / base[i].cpuUs);
    const phaseRatios = mine.map((x, i) => x.phase / base[i].phase);
    const p99Ratios = floor ? mine.map((x, i) => x.chunkP99 / floor[i].chunkP99) : [];
    console.log(
      `| ${c.name} @ ${concurrency} | ${f(median(mine.map((x) => x.cpuUs)))} | ${f(min(mine.map((x) => x.cpuUs)))} | ${f(median(cpuRatios), 2)}× | ${f(min(cpuRatios), 2)}× | ${f(median(mine.map((x) => x.phase)), 3)} | ${f(median(phaseRatios), 2)}× | ${f(median(mine.map((x) => x.chunkP99)), 3)} | ${floor ? `${f(median(p99Ratios), 2)}×` : '–'} | ${f(c.idleMB, 1)} / ${f(c.afterMB, 1)} |`,
    );
  }
}
process.exit(0);
