#!/usr/bin/env node
// gRPC load client for the ext_proc service: replays one recorded HTTP
// exchange (request headers, request body, response headers, N response body
// chunks) the way Envoy drives a Process stream, on `concurrency` streams at
// a time, over one HTTP/2 connection (as Envoy's ext_proc cluster uses).
// Each response_body chunk is written and its answer awaited before the next
// (so the time measured is the processor's answer latency as the client sees
// it, round trip over loopback included). Prints one JSON line and exits;
// bounded by durationMs plus a drain deadline.
//
//   node bench/extproc-load.mjs JOB.json
//   JOB: { target: "127.0.0.1:PORT", recording: FILE, token, concurrency, durationMs, warmupMs, perWorker? }
//   perWorker: each stream slot runs exactly this many streams (then durationMs only bounds the run);
//   for many streams at once, whose batches outlast any short window.
//   observe: as Envoy drives it with `gw envoy-config --observe-response-body`: the deciding stream
//   carries the request phases and the response headers; a second, observing stream (observability_mode)
//   gets the request headers (only x-gw-observe-id), the response headers and every chunk, written
//   without waiting for anything (Envoy never waits on it). The stream counts as done when the
//   processor ends the observing stream (it has metered the last chunk and released the request).
//   chunkMs is then the time from a chunk's write to the processor's end of the stream, for the last
//   chunk only: no chunk waits for an answer.
// Request phase: request_headers written → request_body answered (both request-side decisions).
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import { Samples } from './samples.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { openProcessStream } = await import(resolve(root, 'dist/extproc/proto.js'));
const { EXTPROC_ROLE_METADATA, EXTPROC_ROLES, OBSERVE_ID_HEADER } = await import(resolve(root, 'dist/envoy/observe.js'));
const job = JSON.parse(readFileSync(process.argv[2], 'utf8'));
if (!job.target.startsWith('127.0.0.1:')) throw new Error('extproc-load: loopback (127.0.0.1) targets only');
const rec = JSON.parse(readFileSync(job.recording, 'utf8'));
const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

const header = (key, value) => ({ key, raw_value: Buffer.from(String(value), 'latin1') });
const requestHeaders = {
  request_headers: {
    headers: {
      headers: [
        header(':authority', '127.0.0.1:10000'),
        header(':path', '/v1/messages'),
        header(':method', 'POST'),
        header(':scheme', 'http'),
        ...Object.entries(rec.requestHeaders).map(([k, v]) => header(k, v)),
        header('authorization', `Bearer ${job.token}`),
        header('content-length', Buffer.byteLength(rec.requestBody)),
        header('x-forwarded-proto', 'http'),
        header('x-request-id', '6c1f0ad1-7c2b-4a4e-9a57-3f1c2d9b8e11'),
      ],
    },
    end_of_stream: false,
  },
};
const requestBody = { request_body: { body: Buffer.from(rec.requestBody), end_of_stream: true } };
const responseHeaders = {
  response_headers: {
    headers: { headers: [header(':status', rec.status), ...Object.entries(rec.responseHeaders).map(([k, v]) => header(k, v))] },
    end_of_stream: false,
  },
};
const chunks = rec.chunks.map((b64, i) => ({ response_body: { body: Buffer.from(b64, 'base64'), end_of_stream: i === rec.chunks.length - 1 } }));

const chunkLatency = new Samples();
const decideLatency = new Samples();
const requestPhase = new Samples();
const streamLatency = new Samples();
const errors = {};
let streams = 0;
let inWindow = 0;

const client = new grpc.Client(job.target, grpc.credentials.createInsecure(), {
  'grpc.max_receive_message_length': 64 * 1024 * 1024,
  'grpc.max_send_message_length': 64 * 1024 * 1024,
});

const t0 = nowMs();
const countFrom = t0 + (job.warmupMs ?? 0);
const endAt = t0 + job.durationMs;

const roleMetadata = (role) => {
  const m = new grpc.Metadata();
  m.set(EXTPROC_ROLE_METADATA, role);
  return m;
};

/** The observe id the processor set in its request answer (x-gw-observe-id). */
function observeIdOf(answer) {
  const set = answer?.request_body?.response?.header_mutation?.set_headers ?? [];
  const h = set.find((o) => o.header?.key === OBSERVE_ID_HEADER);
  return h ? Buffer.from(h.header.raw_value).toString('latin1') : null;
}

/** One Process stream, Envoy's order: each message waits for its answer. */
function oneStream() {
  return new Promise((resolveStream) => {
    const start = nowMs();
    const counted = start >= countFrom;
    const call = job.observe ? openProcessStream(client, {}, roleMetadata(EXTPROC_ROLES.decideObserved)) : openProcessStream(client);
    let waiting = null;
    let failed = null;
    call.on('data', (answer) => {
      const w = waiting;
      waiting = null;
      w?.(answer);
    });
    call.on('error', (error) => {
      failed = error;
      const w = waiting;
      waiting = null;
      w?.(null);
    });
    const ask = (message) =>
      new Promise((r) => {
        if (failed) return r(null);
        waiting = r;
        call.write(message);
      });
    const fail = (why) => {
      errors[why] = (errors[why] ?? 0) + 1;
      call.cancel();
      resolveStream();
    };
    (async () => {
      const th = nowMs();
      const h = await ask(requestHeaders);
      if (!h?.request_headers) return fail(h?.immediate_response ? `immediate ${h.immediate_response.status?.code}` : 'request_headers');
      const tb = nowMs();
      const b = await ask(requestBody);
      if (!b?.request_body) return fail(b?.immediate_response ? `immediate ${b.immediate_response.status?.code}` : 'request_body');
      if (counted) {
        const t = nowMs();
        decideLatency.push(t - tb);
        requestPhase.push(t - th);
      }
      if (job.observe) {
        const id = observeIdOf(b);
        if (!id) return fail('no observe id in the request answer');
        const observer = openProcessStream(client, {}, roleMetadata(EXTPROC_ROLES.observe));
        // The processor ends the observing stream (OK) once it has the last chunk: the request is done.
        const ended = new Promise((r) => {
          observer.on('end', () => r('end'));
          observer.on('error', () => r('error'));
        });
        observer.on('data', () => undefined);
        observer.write({ observability_mode: true, request_headers: { headers: { headers: [header(OBSERVE_ID_HEADER, id)] }, end_of_stream: false } });
        // Encoder filters run in reverse: the observing filter sends the response headers first.
        observer.write({ observability_mode: true, response_headers: { headers: { headers: [] }, end_of_stream: false } });
        const rh = await ask(responseHeaders);
        if (!rh?.response_headers) return fail('response_headers');
        if (rh.mode_override?.response_body_mode === 'STREAMED') return fail('not handed to the observer');
        // Nothing more is expected on the deciding stream: Envoy half-closes it and the processor
        // closes it (the generated bootstrap's ext_proc_graceful_grpc_close; a reset per request
        // would make Node's HTTP/2 server GOAWAY the connection past 1,000 resets, docs/extproc.md).
        call.end();
        let last = 0;
        for (const chunk of chunks) {
          last = nowMs();
          observer.write({ ...chunk, observability_mode: true });
        }
        if ((await ended) !== 'end') return fail('observer');
        if (counted) chunkLatency.push(nowMs() - last);
        const end = nowMs();
        streams++;
        if (counted) streamLatency.push(end - start);
        if (end >= countFrom && end <= endAt) inWindow++;
        return resolveStream();
      }
      const rh = await ask(responseHeaders);
      if (!rh?.response_headers) return fail('response_headers');
      for (const chunk of chunks) {
        const t = nowMs();
        const a = await ask(chunk);
        if (!a?.response_body) return fail('response_body');
        if (counted) chunkLatency.push(nowMs() - t);
      }
      call.end();
      const end = nowMs();
      streams++;
      if (counted) streamLatency.push(end - start);
      if (end >= countFrom && end <= endAt) inWindow++;
      resolveStream();
    })().catch((error) => fail(error?.code ?? 'error'));
  });
}

async function worker() {
  if (job.perWorker) {
    for (let i = 0; i < job.perWorker && nowMs() < endAt; i++) await oneStream();
    return;
  }
  while (nowMs() < endAt) await oneStream();
}

const cpu0 = process.cpuUsage();
const all = Promise.all(Array.from({ length: job.concurrency }, worker));
const outcome = await Promise.race([all.then(() => 'drained'), new Promise((r) => setTimeout(() => r('drain deadline'), job.durationMs + 15_000))]);
const cpu = process.cpuUsage(cpu0);
const elapsedMs = nowMs() - t0;
const measuredMs = job.durationMs - (job.warmupMs ?? 0);
process.stdout.write(
  JSON.stringify({
    outcome,
    streams,
    elapsedMs,
    errors,
    chunksPerStream: chunks.length,
    streamsPerSecond: inWindow / (measuredMs / 1000),
    chunksPerSecond: (inWindow * chunks.length) / (measuredMs / 1000),
    loadCpuMs: (cpu.user + cpu.system) / 1000,
    chunkMs: chunkLatency.summary(),
    decideMs: decideLatency.summary(),
    requestPhaseMs: requestPhase.summary(),
    streamMs: streamLatency.summary(),
  }) + '\n',
);
client.close();
process.exit(0);
