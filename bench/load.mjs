#!/usr/bin/env node
// HTTP load generator for the benchmarks: undici keep-alive pool, one process,
// 127.0.0.1 only. Reads a job (JSON file given as the only argument), runs it,
// prints one JSON line of results on stdout and exits. Bounded in time: the
// job's duration plus a drain deadline, whatever the target does.
//
// Job fields:
//   url, path, headers, body             the request (POST, same every time)
//   mode: "rate" | "concurrency"         open loop at `rate` req/s, or `concurrency` in flight
//   durationMs, warmupMs                 requests started in the first warmupMs are not counted
//   perWorker                            concurrency mode: requests per worker (default unlimited)
//   rampMs                               concurrency mode: spread the workers' first requests over this
//   connections, stream, expectDeltas    pool size; SSE answers; deltas each stream must carry
//   eventTiming                          SSE: time every delta (default); false only counts them,
//                                        on bytes, so the generator costs less (throughput runs)
//   drainMs                              how long to wait for requests in flight after durationMs
//
// Measured per request: latency (send → last byte), headers time, time to first
// body byte; per SSE content delta: one-way delay (written by the mock →
// read here; both stamp CLOCK_MONOTONIC), and inter-arrival gap.
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';
import { Samples } from './samples.mjs';

const job = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

const target = new URL(job.url);
if (target.hostname !== '127.0.0.1') throw new Error('load: loopback (127.0.0.1) targets only');
const pool = new Pool(target.origin, {
  connections: job.connections ?? 64,
  pipelining: 1,
  keepAliveTimeout: 120_000,
  keepAliveMaxTimeout: 600_000,
  headersTimeout: 120_000,
  bodyTimeout: 120_000,
  connect: { timeout: 15_000 },
});
const body = Buffer.from(job.body);
const headers = { ...job.headers, 'content-length': String(body.length) };
const MARK = '"text":"w';
const MARK_BYTES = Buffer.from(MARK, 'latin1');
const eventTiming = job.eventTiming !== false;

const latency = new Samples(1 << 14);
const headersAt = new Samples(1 << 14);
const ttfb = new Samples(1 << 14);
const eventDelay = new Samples(1 << 16);
const gaps = new Samples(1 << 16);
const sendGaps = new Samples(1 << 16);
const statuses = {};
const errors = {};
let started = 0;
let completed = 0;
let counted = 0;
let inFlight = 0;
let maxInFlight = 0;
let badStreams = 0;
let deltasSeen = 0;
let bytes = 0;
let schedLagMax = 0;
let inWindow = 0;

const t0 = nowMs();
const countFrom = t0 + (job.warmupMs ?? 0);
const endAt = t0 + job.durationMs;
let stopping = false;

class Exchange {
  constructor(onDone) {
    this.onDone = onDone;
    this.start = nowMs();
    this.status = 0;
    this.head = 0;
    this.first = 0;
    this.carry = '';
    this.deltas = 0;
    this.lastArrival = 0;
    this.lastSent = 0;
    this.tail = '';
    this.counted = this.start >= countFrom;
  }
  onConnect() {}
  onResponseStarted() {}
  onHeaders(status) {
    this.status = status;
    this.head = nowMs();
    return true;
  }
  onData(chunk) {
    const t = nowMs();
    if (this.first === 0) this.first = t;
    bytes += chunk.length;
    if (job.stream) {
      if (eventTiming) this.scan(chunk.toString('latin1'), t);
      else this.count(chunk);
    }
    return true;
  }
  /** Count deltas and keep the tail without decoding the chunk (a mark may straddle two chunks). */
  count(chunk) {
    const keep = MARK.length - 1;
    if (this.carry !== '' && (this.carry + chunk.toString('latin1', 0, Math.min(chunk.length, keep))).includes(MARK)) this.deltas++;
    let i = chunk.indexOf(MARK_BYTES);
    while (i !== -1) {
      this.deltas++;
      i = chunk.indexOf(MARK_BYTES, i + MARK.length);
    }
    this.carry = chunk.toString('latin1', Math.max(0, chunk.length - keep));
    this.tail = (this.tail + chunk.toString('latin1', Math.max(0, chunk.length - 128))).slice(-256);
  }
  scan(text, t) {
    const buf = this.carry + text;
    let i = buf.indexOf(MARK);
    let carryFrom = Math.max(0, buf.length - (MARK.length - 1));
    while (i !== -1) {
      let j = i + MARK.length;
      while (j < buf.length && buf.charCodeAt(j) >= 48 && buf.charCodeAt(j) <= 57) j++;
      if (j === buf.length) {
        carryFrom = i; // digits may continue in the next chunk
        break;
      }
      const sent = Number(buf.slice(i + MARK.length, j)) / 1e6;
      this.deltas++;
      if (this.counted) {
        eventDelay.push(t - sent);
        if (this.lastArrival !== 0) {
          gaps.push(t - this.lastArrival);
          sendGaps.push(sent - this.lastSent);
        }
      }
      this.lastArrival = t;
      this.lastSent = sent;
      i = buf.indexOf(MARK, j);
    }
    this.carry = buf.slice(carryFrom);
    this.tail = (this.tail + text).slice(-256);
  }
  onComplete() {
    const t = nowMs();
    statuses[this.status] = (statuses[this.status] ?? 0) + 1;
    if (this.status === 200 && t >= countFrom && t <= endAt) inWindow++;
    if (this.counted && this.status === 200) {
      latency.push(t - this.start);
      headersAt.push(this.head - this.start);
      if (this.first !== 0) ttfb.push(this.first - this.start);
      counted++;
    }
    if (job.stream) {
      deltasSeen += this.deltas;
      const ok = this.status === 200 && this.tail.includes('"type":"message_stop"') && (job.expectDeltas === undefined || this.deltas === job.expectDeltas);
      if (!ok) badStreams++;
    }
    this.onDone(true);
  }
  onError(error) {
    const key = error?.code ?? error?.name ?? 'error';
    errors[key] = (errors[key] ?? 0) + 1;
    this.onDone(false);
  }
}

function fire(next) {
  started++;
  inFlight++;
  if (inFlight > maxInFlight) maxInFlight = inFlight;
  const exchange = new Exchange((ok) => {
    inFlight--;
    completed++;
    next?.(ok);
  });
  pool.dispatch({ path: job.path, method: 'POST', headers, body }, exchange);
}

const done = new Promise((resolve) => {
  const check = () => {
    if (stopping && inFlight === 0) resolve('drained');
  };
  if (job.mode === 'rate') {
    const interval = 1000 / job.rate;
    let next = t0;
    const cap = job.maxInFlight ?? 4096;
    const tick = () => {
      const t = nowMs();
      if (t >= endAt) {
        stopping = true;
        check();
        return;
      }
      if (t - next > schedLagMax && next <= t) schedLagMax = t - next;
      while (next <= t) {
        if (inFlight < cap) fire(check);
        next += interval;
      }
      setTimeout(tick, Math.max(0, Math.min(1, next - nowMs())));
    };
    tick();
  } else {
    const workers = job.concurrency;
    const perWorker = job.perWorker ?? Infinity;
    let active = workers;
    const worker = (left) => {
      if (left <= 0 || nowMs() >= endAt) {
        active--;
        if (active === 0) {
          stopping = true;
          check();
        }
        return;
      }
      fire(() => worker(left - 1));
    };
    const ramp = job.rampMs ?? 0;
    for (let k = 0; k < workers; k++) {
      if (ramp > 0) setTimeout(() => worker(perWorker), (k * ramp) / workers);
      else worker(perWorker);
    }
    setTimeout(() => {
      stopping = true;
      check();
    }, job.durationMs).unref();
  }
});

const cpu0 = process.cpuUsage();
const outcome = await Promise.race([done, new Promise((r) => setTimeout(() => r('drain deadline'), job.durationMs + (job.drainMs ?? 15_000)))]);
const elapsedMs = nowMs() - t0;
const measuredMs = Math.max(1, job.durationMs - (job.warmupMs ?? 0));
const cpu = process.cpuUsage(cpu0);
const result = {
  outcome,
  started,
  completed,
  counted,
  unfinished: inFlight,
  statuses,
  errors,
  badStreams,
  deltasSeen,
  bytes,
  maxInFlight,
  elapsedMs,
  measuredMs,
  // Answers completed inside the measured window, per second.
  perSecond: inWindow / (measuredMs / 1000),
  schedLagMaxMs: schedLagMax,
  loadCpuMs: (cpu.user + cpu.system) / 1000,
  latencyMs: latency.summary(),
  headersMs: headersAt.summary(),
  ttfbMs: ttfb.summary(),
  eventDelayMs: eventDelay.summary(),
  interArrivalMs: gaps.summary(),
  sendGapMs: sendGaps.summary(),
};
process.stdout.write(JSON.stringify(result) + '\n');
await Promise.race([pool.destroy(), new Promise((r) => setTimeout(r, 2000))]);
process.exit(0);
