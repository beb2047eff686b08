#!/usr/bin/env node
// A/B of gw extproc builds on the two ext_proc budgets (CPU per exchange, request-phase p50), for
// trying changes one at a time without the whole of s5: the baseline build (main at 11bec4b), the
// current dist/ and any other builds given with --case NAME=DIST, each a fresh process pinned to the
// system-under-test CPU, driven by bench/extproc-load.mjs in interleaved rounds (order reversed
// every other round). CPU is the process's own CPU time from /proc (user + system), the figure a
// loaded shared machine disturbs least; each round's ratio to the baseline is paired, and the
// report gives the median and the smallest over rounds. Prints a markdown table.
//
// --transports adds the current build on the node:http2 transport (`--grpc-transport http2`,
// row current-http2) and an A/A control: a second process of the current build on grpc-js
// (current-aa), run in the same rounds, whose paired ratio to `current` shows what the shared
// machine's noise alone does to a ratio. --observe adds both transports driven the way Envoy's
// observing filter drives them (rows *-observe; the baseline predates the filter).
//
// --before REF builds commit REF (bench/lib/baseline.mjs's buildOf) and runs it as rows before,
// before-http2, before-observe and before-http2-observe beside the current rows the other flags
// ask for; each current row is then also paired with its before row (column "vs before").
//
//   node bench/extproc-ab.mjs [--rounds 8] [--seconds 2] [--case before=/path/to/dist[,--v8-flag]] [--no-floor] [--http2-floor] [--transports] [--observe] [--no-baseline] [--before REF]
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { BASELINE_COMMIT, baselineDist, buildOf } from './lib/baseline.mjs';
import { brief, runLoad } from './lib/load-runner.mjs';
import { BENCH, GW_DIST, ROOT, flag, log, option } from './lib/options.mjs';
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
const builds = [...(flag('no-baseline') ? [] : [{ name: 'baseline', dist: baselineDist() }]), ...extra, { name: 'current', dist: GW_DIST }];
if (flag('transports')) builds.push({ name: 'current-aa', dist: GW_DIST }, { name: 'current-http2', dist: GW_DIST, extraArgs: ['--grpc-transport', 'http2'] });
if (flag('observe')) {
  builds.push({ name: 'current-observe', dist: GW_DIST, observe: true });
  builds.push({ name: 'current-http2-observe', dist: GW_DIST, extraArgs: ['--grpc-transport', 'http2'], observe: true });
}
const beforeRef = option('before', '');
if (beforeRef !== '') {
  const commit = spawnSync('git', ['rev-parse', '--verify', `${beforeRef}^{commit}`], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
  const dist = commit === '' ? null : buildOf(commit);
  if (dist === null) throw new Error(`--before ${beforeRef}: no build of it`);
  for (const b of builds.filter((x) => x.name.startsWith('current') && x.name !== 'current-aa')) builds.push({ ...b, name: b.name.replace(/^current/, 'before'), dist });
}
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
  const gw = await startGw(`ab-${b.name}`, 'extproc', memFile.file, { bin: join(b.dist, 'cli', 'main.js'), nodeArgs: b.nodeArgs ?? [], extraArgs: b.extraArgs ?? [] });
  cases.push({ name: b.name, target: gw.target, pid: gw.pid, child: gw.child, idleMB: memory(gw.pid)?.rssMB, observe: b.observe === true });
}
const job = (c, concurrency, ms, warmupMs) => ({
  kind: 'extproc',
  target: c.target,
  recording: recording.file,
  token: memFile.token,
  concurrency,
  durationMs: ms,
  warmupMs,
  ...(c.observe ? { observe: true } : {}),
});
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
const max = (xs) => Math.max(...xs.filter(Number.isFinite));
const f = (x, d = 0) => (Number.isFinite(x) ? x.toFixed(d) : '–');
const paired = (name, ref, concurrency, pick) => {
  const mine = rows[`${name}@${concurrency}`];
  const theirs = rows[`${ref}@${concurrency}`];
  if (!mine || !theirs) return null;
  return mine.map((x, i) => pick(x) / pick(theirs[i]));
};
/** Paired median and the range over rounds: "0.52× (0.47–0.60)". */
const ratio = (xs) => (xs === null ? '–' : `${f(median(xs), 2)}× (${f(min(xs), 2)}–${f(max(xs), 2)})`);
const hasBaseline = cases.some((c) => c.name === 'baseline');
console.log(
  `ext_proc A/B, ${ROUNDS_N} rounds of ${SECONDS} s per case and concurrency; ${hasBaseline ? `baseline = main at ${BASELINE_COMMIT}` : 'no baseline'}; recorded exchange of ${recording.chunks} response chunks; load average at the end ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' / ')}.\n`,
);
console.log(
  `| build @ streams | CPU µs/exchange, median | smallest | CPU vs baseline (paired median, range) | CPU vs current (paired median, range) |${beforeRef !== '' ? ' CPU vs before (paired median, range) |' : ''} request phase p50 ms, median | vs baseline (paired median) | chunk p99 ms, median | vs floor (paired median) | RSS MB idle / 5 s after the load |`,
);
console.log(`|---|---|---|---|---|${beforeRef !== '' ? '---|' : ''}---|---|---|---|---|`);
for (const concurrency of [1, 16]) {
  for (const c of cases) {
    const mine = rows[`${c.name}@${concurrency}`];
    const vsBase = paired(c.name, 'baseline', concurrency, (x) => x.cpuUs);
    // The observing rows compare with the same transport on today's protocol.
    const ref = c.name.endsWith('-observe') ? c.name.slice(0, -'-observe'.length) : 'current';
    const vsCurrent = c.name === 'current' ? null : paired(c.name, ref, concurrency, (x) => x.cpuUs);
    const vsBefore = c.name.startsWith('current') ? paired(c.name, c.name.replace(/^current/, 'before'), concurrency, (x) => x.cpuUs) : null;
    const phaseRatios = paired(c.name, 'baseline', concurrency, (x) => x.phase);
    const p99Ratios = paired(c.name, 'floor', concurrency, (x) => x.chunkP99);
    console.log(
      `| ${c.name} @ ${concurrency} | ${f(median(mine.map((x) => x.cpuUs)))} | ${f(min(mine.map((x) => x.cpuUs)))} | ${ratio(vsBase)} | ${vsCurrent === null ? '–' : `${ratio(vsCurrent)}${ref !== 'current' ? ` vs ${ref}` : ''}`} |${beforeRef !== '' ? ` ${ratio(vsBefore)} |` : ''} ${f(median(mine.map((x) => x.phase)), 3)} | ${phaseRatios ? `${f(median(phaseRatios), 2)}×` : '–'} | ${f(median(mine.map((x) => x.chunkP99)), 3)} | ${p99Ratios ? `${f(median(p99Ratios), 2)}×` : '–'} | ${f(c.idleMB, 1)} / ${f(c.afterMB, 1)} |`,
    );
  }
}
process.exit(0);
