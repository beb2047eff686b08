// s7: CPU profile of a fresh gw serve under s1- and s3-like load (node --cpu-prof), summarised into the
// report by bench/profile-summary.mjs; with --ab the other build is profiled the same way.
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AB_BIN, DATE, GW_BIN, RESULTS, log, runs } from '../lib/options.mjs';
import { loadJob, runLoad, slim } from '../lib/load-runner.mjs';
import { profilerThreadsToDriverCpu, stopChild } from '../lib/processes.mjs';
import { requestBody } from '../lib/requests.mjs';
import { recordExchange } from '../lib/recording.mjs';
import { gwHeaders, startGw } from '../lib/systems.mjs';
import { summarizeProfile } from '../profile-summary.mjs';
import { summarizeHeapProfile } from '../heap-summary.mjs';

const BODY_BYTES = 4096;

export default {
  id: 's7',
  order: 40,
  selected: () => runs('s7'),
  async run(ctx) {
    ctx.results.profile = await profileScenario(ctx);
    if (AB_BIN) ctx.results.profileBefore = await profileScenario(ctx, { bin: AB_BIN, suffix: '-before' });
    ctx.results.profileExtproc = await profileExtproc(ctx);
  },
};

async function profileScenario({ mock, memFile }, { bin = GW_BIN, suffix = '' } = {}) {
  const name = `gw-serve-${DATE}${suffix}.cpuprofile`;
  const path = join(RESULTS, name);
  mkdirSync(RESULTS, { recursive: true });
  rmSync(path, { force: true });
  const heapName = `gw-serve-${DATE}${suffix}.heapprofile`;
  rmSync(join(RESULTS, heapName), { force: true });
  // The sampling heap profile is written at exit: what the process still holds after the load.
  const gw = await startGw(`gw-profile${suffix}`, 'serve', memFile.file, {
    bin,
    nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${RESULTS}`, `--cpu-prof-name=${name}`, '--heap-prof', '--heap-prof-interval=65536', `--heap-prof-dir=${RESULTS}`, `--heap-prof-name=${heapName}`],
  });
  const samplerMoved = profilerThreadsToDriverCpu(gw.pid);
  const target = { name: 'gw-profile', url: gw.url, headers: gwHeaders(memFile.token), pids: [gw.pid] };
  const nonStream = { mode: 'rate', rate: 500, connections: 64, durationMs: 6000, warmupMs: 0, stream: false, body: requestBody(BODY_BYTES, false), mock: {} };
  const streaming = {
    mode: 'concurrency',
    concurrency: 32,
    connections: 32,
    durationMs: 6000,
    warmupMs: 0,
    stream: true,
    eventTiming: false,
    body: requestBody(BODY_BYTES, true),
    mock: { events: 30, spacingMs: 0 },
  };
  log('s7: profiling gw serve (500 req/s JSON, then 32 concurrent streams)');
  // Warm up first; only the samples taken during the two measured runs are summarised (not start-up).
  await mock.configure({ events: 30, spacingMs: 0 });
  await runLoad(loadJob(target, { ...nonStream, durationMs: 2000 }), []);
  await runLoad(loadJob(target, { ...streaming, durationMs: 2000 }), []);
  const windows = [];
  const usNow = () => Number(process.hrtime.bigint() / 1000n);
  let from = usNow();
  const a = await runLoad(loadJob(target, nonStream), [gw.pid]);
  windows.push([from, usNow()]);
  from = usNow();
  const b = await runLoad(loadJob(target, streaming), [gw.pid]);
  windows.push([from, usNow()]);
  await stopChild(gw.child, 'SIGTERM', 20_000);
  if (!existsSync(path)) return { error: 'no profile written', load: [a, b] };
  // The build's package root (its code is <root>/dist), so a build from --ab counts as ours too.
  const summary = summarizeProfile(JSON.parse(readFileSync(path, 'utf8')), dirname(dirname(dirname(bin))), windows);
  const heapPath = join(RESULTS, heapName);
  const heap = existsSync(heapPath) ? { file: `bench/results/${heapName}`, ...summarizeHeapProfile(JSON.parse(readFileSync(heapPath, 'utf8')), dirname(dirname(dirname(bin)))) } : null;
  return { file: `bench/results/${name}`, bytes: statSync(path).size, windows, samplerMoved, load: { json: slim(a), sse: slim(b) }, heap, ...summary };
}

/** gw extproc under the load driver (1 stream, then 16 in flight), profiled the same way. */
export async function profileExtproc({ mock, memFile }, { bin = GW_BIN, suffix = '', seconds = 6 } = {}) {
  const name = `gw-extproc-${DATE}${suffix}.cpuprofile`;
  const path = join(RESULTS, name);
  mkdirSync(RESULTS, { recursive: true });
  rmSync(path, { force: true });
  const recording = await recordExchange(mock, 30);
  const ep = await startGw(`gw-extproc-profile${suffix}`, 'extproc', memFile.file, { bin, nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${RESULTS}`, `--cpu-prof-name=${name}`] });
  const samplerMoved = profilerThreadsToDriverCpu(ep.pid);
  const job = (concurrency, ms) => ({ kind: 'extproc', target: ep.target, recording: recording.file, token: memFile.token, concurrency, durationMs: ms, warmupMs: 0 });
  log('s7: profiling gw extproc (1 stream, then 16 in flight)');
  await runLoad(job(8, 2000), []);
  const windows = [];
  const usNow = () => Number(process.hrtime.bigint() / 1000n);
  const load = {};
  for (const c of [1, 16]) {
    const from = usNow();
    load[c] = await runLoad(job(c, seconds * 1000), [ep.pid]);
    windows.push([from, usNow()]);
  }
  await stopChild(ep.child, 'SIGTERM', 20_000);
  if (!existsSync(path)) return { error: 'no profile written' };
  const summary = summarizeProfile(JSON.parse(readFileSync(path, 'utf8')), dirname(dirname(dirname(bin))), windows);
  const exchanges = (load[1].streams ?? 0) + (load[16].streams ?? 0);
  return {
    file: `bench/results/${name}`,
    bytes: statSync(path).size,
    windows,
    exchanges,
    samplerMoved,
    load: {
      one: { streams: load[1].streams, chunkMs: load[1].chunkMs, requestPhaseMs: load[1].requestPhaseMs, procs: load[1].procs },
      sixteen: { streams: load[16].streams, chunkMs: load[16].chunkMs, procs: load[16].procs },
    },
    ...summary,
  };
}
