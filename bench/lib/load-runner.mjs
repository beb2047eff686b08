// Runs the load generators (bench/load.mjs, bench/extproc-load.mjs) as separate processes on the
// driver CPU while sampling the system under test from /proc, and interleaves cases over rounds.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH, ROUNDS, SCALE, log, sleep } from './options.mjs';
import { DRIVER_CPU, spawnOn, stopChild, work } from './processes.mjs';
import { sampler } from './procfs.mjs';
import { SDK_HEADERS } from './requests.mjs';

let jobSeq = 0;
export async function runLoad(job, samplePids) {
  const file = join(work, `job-${++jobSeq}.json`);
  writeFileSync(file, JSON.stringify(job));
  const stop = sampler(samplePids);
  const child = spawnOn(DRIVER_CPU, process.execPath, [join(BENCH, job.kind === 'extproc' ? 'extproc-load.mjs' : 'load.mjs'), file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err += c));
  const limit = job.durationMs + 30_000;
  const code = await Promise.race([new Promise((r) => child.once('exit', r)), sleep(limit).then(() => 'timeout')]);
  const procs = stop();
  if (code === 'timeout') await stopChild(child, 'SIGKILL');
  const line = out.trim().split('\n').pop();
  let result;
  try {
    result = JSON.parse(line);
  } catch {
    result = { failed: true, code, stderr: err.slice(-2000) };
  }
  return { ...result, procs };
}

/**
 * The load job for one target. A slow target (LiteLLM: one stream at 32 in flight takes a good part
 * of a second, several on a busy machine) names a minimum window and warm-up: with the scenario's
 * short window its streams finish in batches that may all fall outside it, and the rate reads 0.
 */
export function loadJob(target, scenario, extra = {}) {
  const minDuration = target.minDurationMs ?? 0;
  const minWarmup = target.minWarmupMs ?? 0;
  const job = {
    kind: 'http',
    url: target.url,
    path: '/v1/messages',
    headers: { ...SDK_HEADERS, ...target.headers },
    body: scenario.body,
    mode: scenario.mode,
    rate: scenario.rate,
    concurrency: scenario.concurrency,
    connections: scenario.connections,
    stream: scenario.stream,
    expectDeltas: scenario.stream ? scenario.mock.events : undefined,
    eventTiming: scenario.eventTiming,
    durationMs: Math.max(Math.round(scenario.durationMs * SCALE), minDuration),
    warmupMs: Math.max(Math.round((scenario.warmupMs ?? 500) * SCALE), minWarmup),
    perWorker: scenario.perWorker,
    rampMs: scenario.rampMs,
    drainMs: scenario.drainMs,
    ...extra,
  };
  // A window of its own (extra) is kept, only stretched; the measured part stays at least as long
  // as the target's minimum window less its warm-up.
  if (minDuration > 0) job.durationMs = Math.max(job.durationMs, minDuration, job.warmupMs + minDuration - minWarmup);
  return job;
}

/** Prewarm each case, then R rounds of every case, alternating the order each round. */
export async function interleaved(mock, scenario, cases, rounds_ = ROUNDS) {
  await mock.configure(scenario.mock);
  const rounds = [];
  for (const c of cases) {
    log(`${scenario.id}: warm-up ${c.name}`);
    await runLoad(loadJob(c, scenario, { durationMs: Math.round((scenario.prewarmMs ?? 2000) * SCALE), warmupMs: 0 }), []);
  }
  for (let r = 0; r < rounds_; r++) {
    const order = r % 2 === 0 ? cases : [...cases].reverse();
    const round = {};
    for (const c of order) {
      const result = await runLoad(loadJob(c, scenario), c.pids);
      round[c.name] = result;
      log(`${scenario.id}: round ${r + 1}/${rounds_} ${c.name.padEnd(12)} ${brief(result)}`);
    }
    rounds.push(round);
  }
  return rounds;
}

export function brief(r) {
  if (r.failed) return `FAILED (${r.code}) ${r.stderr ?? ''}`;
  const f = (v) => (v === undefined ? '-' : v.toFixed(3));
  const parts = [r.started !== undefined ? `ok=${r.counted}/${r.started}` : `streams=${r.streams}`, `rate=${(r.perSecond ?? r.streamsPerSecond)?.toFixed(0)}/s`];
  const sut = r.procs?.[0] ?? null;
  if (sut) parts.push(`cpu=${sut.cpuPercent?.toFixed(0)}% rq-wait=${sut.waitPercent?.toFixed(0)}%`);
  if (r.latencyMs?.n) parts.push(`lat p50=${f(r.latencyMs.p50)} p99=${f(r.latencyMs.p99)}`);
  if (r.ttfbMs?.n && r.eventDelayMs?.n) parts.push(`ttfb p50=${f(r.ttfbMs.p50)} ev p50=${f(r.eventDelayMs.p50)} p99=${f(r.eventDelayMs.p99)}`);
  if (r.chunkMs?.n) parts.push(`chunk p50=${f(r.chunkMs.p50)} p99=${f(r.chunkMs.p99)}`);
  if (r.badStreams) parts.push(`bad=${r.badStreams}`);
  if (r.errors && Object.keys(r.errors).length) parts.push(`errors=${JSON.stringify(r.errors)}`);
  const statuses = r.statuses && Object.keys(r.statuses).filter((s) => s !== '200');
  if (statuses?.length) parts.push(`statuses=${JSON.stringify(r.statuses)}`);
  return parts.join(' ');
}

/** A scenario as recorded in the results: the body replaced by its size. */
export function strip(scenario) {
  const { body, ...rest } = scenario;
  return { ...rest, bodyBytes: Buffer.byteLength(body) };
}

export function slim(r) {
  return { perSecond: r.perSecond, counted: r.counted, latencyMs: r.latencyMs, procs: r.procs };
}
