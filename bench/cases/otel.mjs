// s12: what OpenTelemetry costs gw serve. Off (no endpoint: the SDK is never loaded and the
// pipeline holds a null tracer), configured but sampling nothing (SDK loaded, every span
// non-recording), and on (every request traced with 10 spans and GenAI metrics, exported over
// OTLP/HTTP protobuf to a local sink that accepts and drops). Interleaved rounds, as in s1/s2.
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { log, runs } from '../lib/options.mjs';
import { interleaved, strip } from '../lib/load-runner.mjs';
import { stopChild } from '../lib/processes.mjs';
import { requestBody } from '../lib/requests.mjs';
import { gwHeaders, startGw } from '../lib/systems.mjs';

const BODY_BYTES = 4096;
const VARIANTS = ['gw-otel-off', 'gw-otel-sampled-out', 'gw-otel-on'];

/** An OTLP/HTTP sink on loopback: reads each export whole, answers 200 with an empty body. */
async function startSink() {
  let exports = 0;
  const server = createServer((req, res) => {
    req.on('data', () => {});
    req.on('end', () => {
      exports++;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, exports: () => exports, close: () => new Promise((r) => server.close(r)) };
}

function otelFile(dir, name, endpoint, sampler) {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, `otel:\n  endpoint: ${endpoint}\n  protocol: http/protobuf\n  sampler: ${sampler}\n  metricExportIntervalMs: 5000\n`);
  return file;
}

export default {
  id: 's12',
  order: 75,
  selected: () => runs('s12'),
  async run(ctx) {
    const { mock, memFile, results } = ctx;
    const sink = await startSink();
    const dir = dirname(memFile.file);
    const sut = {
      'gw-otel-off': await startGw('gw-otel-off', 'serve', memFile.file),
      'gw-otel-sampled-out': await startGw('gw-otel-sampled-out', 'serve', memFile.file, { extraArgs: ['--otel-config', otelFile(dir, 'otel-sampled-out', sink.url, 'always_off')] }),
      'gw-otel-on': await startGw('gw-otel-on', 'serve', memFile.file, { extraArgs: ['--otel-config', otelFile(dir, 'otel-on', sink.url, 'always_on')] }),
    };
    const cases = VARIANTS.map((name) => ({ name, url: sut[name].url, headers: gwHeaders(memFile.token), pids: [sut[name].pid, mock.pid] }));
    const s = (results.scenarios ??= {});
    const nonStreaming = {
      id: 's12',
      title: 'OpenTelemetry off / sampled out / on: non-streaming, open loop at 500 req/s',
      mode: 'rate',
      rate: 500,
      connections: 64,
      durationMs: 2500,
      prewarmMs: 1500,
      stream: false,
      body: requestBody(BODY_BYTES, false),
      mock: { events: 20, spacingMs: 5 },
    };
    s.s12 = { scenario: strip(nonStreaming), rounds: await interleaved(mock, nonStreaming, cases) };
    const streaming = {
      id: 's12s',
      title: 'OpenTelemetry off / sampled out / on: 8 concurrent streams, 20 deltas 5 ms apart',
      mode: 'concurrency',
      concurrency: 8,
      connections: 8,
      durationMs: 2500,
      prewarmMs: 1500,
      stream: true,
      body: requestBody(BODY_BYTES, true),
      mock: { events: 20, spacingMs: 5 },
    };
    s.s12s = { scenario: strip(streaming), rounds: await interleaved(mock, streaming, cases) };
    results.otelSinkExports = sink.exports();
    log(`s12: the OTLP sink received ${sink.exports()} exports`);
    await Promise.all(Object.values(sut).map((x) => stopChild(x.child)));
    await sink.close();
  },
  report({ results }) {
    const rows = [];
    for (const id of ['s12', 's12s']) {
      const rec = results.scenarios?.[id];
      if (!rec) continue;
      const median = (xs) => {
        const v = xs.filter((x) => typeof x === 'number').sort((a, b) => a - b);
        return v.length ? v[Math.floor(v.length / 2)] : undefined;
      };
      const metric = (name, key) => median(rec.rounds.map((r) => (id === 's12' ? r[name]?.latencyMs?.[key] : r[name]?.ttfbMs?.[key])));
      const cpu = (name) => median(rec.rounds.map((r) => r[name]?.procs?.[0]?.cpuPercent));
      for (const name of VARIANTS) {
        const f = (v) => (v === undefined ? '-' : v.toFixed(3));
        rows.push(`| ${id === 's12' ? 'non-streaming latency' : 'streaming TTFB'} | ${name} | ${f(metric(name, 'p50'))} | ${f(metric(name, 'p99'))} | ${cpu(name)?.toFixed(0) ?? '-'} |`);
      }
    }
    if (rows.length === 0) return null;
    const section = [
      '### s12: OpenTelemetry off, sampled out and on (gw serve)',
      '',
      'Median over rounds, milliseconds; CPU is the gw process. Off is the default (no endpoint): no OpenTelemetry SDK module is loaded and the pipeline holds a null tracer.',
      '',
      '| measure | variant | p50 ms | p99 ms | gw CPU % |',
      '|---|---|---|---|---|',
      ...rows,
      '',
      `OTLP exports received by the sink: ${results.otelSinkExports ?? '-'}.`,
    ].join('\n');
    return { sections: [section], budgets: [] };
  },
};
