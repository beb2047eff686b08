#!/usr/bin/env node
// The performance benchmark of DESIGN §9 (`make bench`; not part of `make test`).
//
// Starts a fast mock provider, then runs every case module of bench/cases/ (the registry: one file
// per case) in order: gw serve against the bare Node proxy floor and the peers (Portkey, LiteLLM),
// gw extproc against a bare grpc-js floor, a hand-framed node:http2 floor and the baseline build,
// 1,000 streams, CPU profiles, redaction throughput, scaling curves, the other issues' cases (hostile
// soak, OpenTelemetry, usage export, the operator's convergence) and, last, a soak of a million
// requests that fits itself into the time left; each load is driven from a separate
// load-generator process while the system under test, pinned to its own CPU, is sampled from /proc.
// Writes bench/results/<date>.md and .json, and SVG charts in bench/results/charts-<date>/.
//
//   npm run build && node bench/run.mjs [--quick] [--rounds 4] [--only s1,s5,...] [--skip s10]
//                                       [--no-peer-install] [--gw-dist DIR] [--ab DIR] [--date LABEL]
//                                       [--deadline-minutes 60] [--soak-requests N]
//   GW_BENCH_CACHE=DIR: where the peers are installed and the baseline built (docs/benchmarks.md)
//
// Everything listens on 127.0.0.1 only (checked from /proc/net before the measurements start).
// Every loop is bounded; every child process is stopped at the end, and the whole run stops
// itself after a hard deadline, counted from the end of the installs.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { AB_BIN, CACHE, DATE, GW_BIN, HARD_DEADLINE_MS, QUICK, RESULTS, ROOT, ROUNDS, log, startedAt } from './lib/options.mjs';

if (!existsSync(GW_BIN)) {
  process.stderr.write('bench: dist/ is missing; run `npm run build` first (make bench does)\n');
  process.exit(2);
}

const { DRIVER_CPU, PINNED, SUT_CPU, cpuCount, installLifetime, killAll, stopChild, work } = await import('./lib/processes.mjs');
const { startMock, writeGatewayFile } = await import('./lib/systems.mjs');
const { ensurePeers } = await import('./lib/peers.mjs');
const { loadCases } = await import('./cases/index.mjs');
const { baselineDist } = await import('./lib/baseline.mjs');
const { writeReport } = await import('./report.mjs');

const cases = (await loadCases()).filter((c) => (c.selected ? c.selected() : true));
log(`cases: ${cases.map((c) => c.id).join(', ')}`);
// What the run installs or builds for itself on a fresh machine (the peers, the baseline build),
// before the hard deadline starts: each install has its own time limit, and a first run's few
// minutes of pip and npm must not eat the measurements' time.
const installStart = Date.now();
const peers = cases.some((c) => c.usesPeers) ? ensurePeers() : { versions: { portkey: null, litellm: null } };
if (cases.some((c) => c.usesBaseline)) baselineDist();
const installSeconds = (Date.now() - installStart) / 1000;
if (installSeconds > 5) log(`peers and baseline ready after ${installSeconds.toFixed(0)} s (installed into ${CACHE})`);
installLifetime(HARD_DEADLINE_MS);
log(`placement: ${PINNED ? `system under test on CPU ${SUT_CPU}; load generator, mock, Redis and orchestrator on CPU ${DRIVER_CPU}` : 'unpinned (taskset or a second CPU missing)'}`);
const environment = {
  date: DATE,
  startedAt: new Date(startedAt).toISOString(),
  node: process.version,
  cpuModel: cpus()[0]?.model ?? 'unknown',
  cpus: cpuCount,
  memoryGB: totalmem() / 2 ** 30,
  loadAverageStart: loadavg(),
  pinned: PINNED,
  sutCpu: PINNED ? SUT_CPU : null,
  driverCpu: PINNED ? DRIVER_CPU : null,
  rounds: ROUNDS,
  quick: QUICK,
  installSeconds,
  deadlineMinutes: HARD_DEADLINE_MS / 60_000,
  ab: AB_BIN !== null,
  git: (() => {
    const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
    const dirty = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim() !== '';
    return { head, dirty };
  })(),
};

const mock = await startMock();
log(`mock provider on ${mock.url} (pid ${mock.pid})`);
const results = { environment, scenarios: {}, cases: {}, caseErrors: {} };
const ctx = {
  mock,
  memFile: writeGatewayFile('gw-memory', mock.url, { secretScanning: false }),
  scanFile: writeGatewayFile('gw-scan', mock.url, { secretScanning: true }),
  results,
  peerVersions: peers.versions,
};
results.peers = peers.versions;
results.peer = peers.versions.portkey;

for (const c of cases) {
  const t = Date.now();
  log(`case ${c.id} (bench/cases/${c.file})`);
  try {
    await c.run(ctx);
  } catch (error) {
    // One case failing is reported; the others still run.
    log(`case ${c.id} failed: ${error?.stack ?? error}`);
    results.caseErrors[c.id] = String(error?.message ?? error);
    if (c.id === 'proxy' && /loopback/.test(String(error?.message))) {
      killAll();
      process.exit(4);
    }
  }
  environment[`seconds_${c.id}`] = (Date.now() - t) / 1000;
}

await stopChild(mock.child);
environment.loadAverageEnd = loadavg();
environment.durationSeconds = (Date.now() - startedAt) / 1000;
mkdirSync(RESULTS, { recursive: true });
const { md, json } = writeReport(results, { resultsDir: RESULTS, date: DATE, cases });
log(`wrote ${md} and ${json}`);
rmSync(work, { recursive: true, force: true });
process.exit(0);
