// s9: scaling curves. Throughput, added p50/p99, CPU and peak RSS against concurrency (1 … 1,000
// streams) and against request body size (1 KiB … 16 MiB, secret scanning on and off), for gw serve,
// the ext_proc service (through bench/extproc-load.mjs), the floors and the peers, each point run
// once after a warm-up of every system; drawn as SVG charts beside the report.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { QUICK, log, runs } from '../lib/options.mjs';
import { brief, loadJob, runLoad } from '../lib/load-runner.mjs';
import { stopChild } from '../lib/processes.mjs';
import { VENDOR_KEY, requestBody } from '../lib/requests.mjs';
import { recordExchange } from '../lib/recording.mjs';
import { gwHeaders, startFloor, startGw, startNodeProxy } from '../lib/systems.mjs';
import { startPeers } from '../lib/peers.mjs';
import { lineChart } from '../lib/svg-chart.mjs';

const CONCURRENCY = QUICK ? [1, 16, 256, 1000] : [1, 4, 16, 64, 256, 1000];
const KIB = 1024;
const BODIES = QUICK ? [KIB, 64 * KIB, 4 * KIB * KIB, 16 * KIB * KIB] : [KIB, 4 * KIB, 64 * KIB, KIB * KIB, 4 * KIB * KIB, 16 * KIB * KIB];
// LiteLLM completes a few dozen streams a second on one core: past this many in flight a point
// would be a queue that does not drain inside its window.
const LITELLM_MAX_CONCURRENCY = 64;
const POINT_MS = QUICK ? 1500 : 2500;
// From this many streams at once a batch of streams outlasts a point's window (the committed
// 2026-11-25 run read 0/s at 1,000): such points run a fixed number of streams per slot instead,
// all measured, and the rate is streams over the whole run (ramp and tail included).
const BATCH_CONCURRENCY = 256;
const STREAMS_PER_SLOT = 2;
const batchRate = (done, elapsedMs) => (done ?? 0) / ((elapsedMs ?? 1) / 1000);
const WARMUP_MS = 500;
const STREAM_MOCK = { events: 30, spacingMs: 0 };

export default {
  id: 's9',
  order: 60,
  usesPeers: true,
  selected: () => runs('s9'),
  async run(ctx) {
    const { mock, memFile, scanFile } = ctx;
    const proxy = await startNodeProxy(mock.url);
    const gw = await startGw('gw-curves', 'serve', memFile.file);
    const gwScan = await startGw('gw-curves-scan', 'serve', scanFile.file);
    const peers = await startPeers(mock);
    const http = {
      direct: { name: 'direct', url: mock.url, headers: { 'x-api-key': VENDOR_KEY }, pids: [mock.pid] },
      'node-proxy': { name: 'node-proxy', url: proxy.url, headers: { 'x-api-key': VENDOR_KEY }, pids: [proxy.pid, mock.pid] },
      'gw-serve': { name: 'gw-serve', url: gw.url, headers: gwHeaders(memFile.token), pids: [gw.pid, mock.pid] },
      'gw-serve-scan': { name: 'gw-serve-scan', url: gwScan.url, headers: gwHeaders(scanFile.token), pids: [gwScan.pid, mock.pid] },
      ...peers.cases,
    };
    const out = {
      concurrency: { points: CONCURRENCY, http: {}, extproc: {} },
      body: { points: BODIES, http: {}, extproc: {} },
      pointMs: POINT_MS,
      batch: { from: BATCH_CONCURRENCY, perSlot: STREAMS_PER_SLOT },
    };

    // ---- concurrency: streams of 30 back-to-back deltas, ~4 KiB body
    await mock.configure(STREAM_MOCK);
    const streamCases = ['direct', 'node-proxy', 'gw-serve', 'portkey', 'litellm'].filter((n) => http[n]);
    const scenario = (concurrency, bodyBytes, stream) => ({
      mode: 'concurrency',
      concurrency,
      connections: concurrency,
      durationMs: POINT_MS,
      warmupMs: WARMUP_MS,
      drainMs: 20_000,
      stream,
      eventTiming: false,
      body: requestBody(bodyBytes, stream),
      mock: STREAM_MOCK,
      rampMs: concurrency >= 256 ? 500 : 0,
    });
    for (const name of streamCases) await runLoad(loadJob(http[name], { ...scenario(32, 4 * KIB, true), durationMs: 1500, warmupMs: 0 }), []);
    for (const c of CONCURRENCY) {
      for (const name of streamCases) {
        if (name === 'litellm' && c > LITELLM_MAX_CONCURRENCY) continue;
        const batch = c >= BATCH_CONCURRENCY;
        const r = await runLoad(loadJob(http[name], scenario(c, 4 * KIB, true), batch ? { perWorker: STREAMS_PER_SLOT, warmupMs: 0, durationMs: 120_000, drainMs: 30_000 } : {}), http[name].pids);
        if (batch) r.perSecond = batchRate(r.completed, r.elapsedMs);
        (out.concurrency.http[name] ??= {})[c] = r;
        log(`s9: ${String(c).padStart(4)} streams ${name.padEnd(14)} ${brief(r)}`);
      }
    }

    // ---- body size: non-streaming, 4 requests in flight
    for (const b of BODIES) {
      for (const name of ['direct', 'node-proxy', 'gw-serve', 'gw-serve-scan', 'portkey', 'litellm'].filter((n) => http[n])) {
        // A large body takes longer than a point's window on a busy machine: those points run a
        // fixed number of requests per worker instead, all of them measured.
        const big = b >= KIB * KIB;
        const job = loadJob(http[name], scenario(4, b, false), big ? { perWorker: QUICK ? 2 : 3, warmupMs: 0, durationMs: 120_000, drainMs: 30_000 } : {});
        const r = await runLoad(job, http[name].pids);
        if (big) r.perSecond = (r.completed ?? 0) / ((r.elapsedMs ?? 1) / 1000);
        (out.body.http[name] ??= {})[b] = r;
        log(`s9: body ${String(b).padStart(9)} ${name.padEnd(14)} ${brief(r)}`);
      }
    }
    await Promise.all([proxy, gw, gwScan, ...peers.processes].map((p) => stopChild(p.child)));

    // ---- ext_proc: the same sweeps through the load driver
    const floor = await startFloor();
    const ep = await startGw('gw-extproc-curves', 'extproc', memFile.file);
    const epScan = await startGw('gw-extproc-curves-scan', 'extproc', scanFile.file);
    const grpc = {
      'extproc-floor': { target: floor.target, pids: [floor.pid], token: memFile.token },
      'gw-extproc': { target: ep.target, pids: [ep.pid], token: memFile.token },
      'gw-extproc-scan': { target: epScan.target, pids: [epScan.pid], token: scanFile.token },
    };
    const rec = await recordExchange(mock, 30);
    const job = (c, concurrency, file) => ({ kind: 'extproc', target: c.target, recording: file, token: c.token, concurrency, durationMs: POINT_MS, warmupMs: WARMUP_MS });
    for (const c of Object.values(grpc)) await runLoad({ ...job(c, 8, rec.file), durationMs: 1500, warmupMs: 0 }, []);
    for (const n of CONCURRENCY) {
      for (const name of ['extproc-floor', 'gw-extproc']) {
        const batch = n >= BATCH_CONCURRENCY;
        const r = await runLoad(batch ? { ...job(grpc[name], n, rec.file), perWorker: STREAMS_PER_SLOT, warmupMs: 0, durationMs: 120_000 } : job(grpc[name], n, rec.file), grpc[name].pids);
        if (batch) r.streamsPerSecond = batchRate(r.streams, r.elapsedMs);
        (out.concurrency.extproc[name] ??= {})[n] = r;
        log(`s9: ${String(n).padStart(4)} streams ${name.padEnd(16)} ${brief(r)}`);
      }
    }
    for (const b of BODIES) {
      const recB = await recordExchange(mock, 30, b);
      for (const name of Object.keys(grpc)) {
        // Every stream counted (no warm-up window): a large body's stream may outlast a short point.
        const r = await runLoad({ ...job(grpc[name], 4, recB.file), warmupMs: 0 }, grpc[name].pids);
        if (!r.streamsPerSecond && r.streams) r.streamsPerSecond = r.streams / (POINT_MS / 1000);
        (out.body.extproc[name] ??= {})[b] = r;
        log(`s9: body ${String(b).padStart(9)} ${name.padEnd(16)} ${brief(r)}`);
      }
    }
    await Promise.all([floor, ep, epScan].map((p) => stopChild(p.child)));
    (ctx.results.scenarios ??= {}).s9 = out;
  },

  report({ results, resultsDir, date }) {
    const s9 = results.scenarios?.s9;
    if (!s9) return null;
    const dir = `charts-${date}`;
    mkdirSync(join(resultsDir, dir), { recursive: true });
    const charts = [];
    const chart = (file, spec) => {
      writeFileSync(join(resultsDir, dir, file), lineChart(spec));
      charts.push({ file: `${dir}/${file}`, title: spec.title });
    };
    const sut = (r) => r?.procs?.[0] ?? null;
    const served = (r) => r?.completed ?? r?.streams ?? null;
    const metric = {
      rate: (r) => r?.perSecond ?? r?.streamsPerSecond ?? null,
      p50: (r) => r?.latencyMs?.p50 ?? r?.chunkMs?.p50 ?? null,
      p99: (r) => r?.latencyMs?.p99 ?? r?.chunkMs?.p99 ?? null,
      rss: (r) => sut(r)?.rssPeakMB ?? null,
      cpuMs: (r) => (sut(r)?.cpuMs != null && served(r) ? sut(r).cpuMs / served(r) : null),
      reqPhase: (r) => r?.requestPhaseMs?.p50 ?? null,
    };
    const series = (table, names, pick, base = null) =>
      names
        .filter((n) => table[n])
        .map((n) => ({
          name: n,
          points: Object.entries(table[n]).map(([x, r]) => {
            const v = pick(r);
            const b = base && table[base]?.[x] ? pick(table[base][x]) : null;
            return [Number(x), base ? (v != null && b != null && n !== base ? v - b : null) : v];
          }),
        }))
        .filter((s) => !base || s.name !== base);
    const C = s9.concurrency.http;
    const B = s9.body.http;
    const E = s9.concurrency.extproc;
    const EB = s9.body.extproc;
    const httpNames = ['direct', 'node-proxy', 'gw-serve', 'gw-serve-scan', 'portkey', 'litellm'];
    // Runs recorded before batch points existed say nothing about them.
    const batchNote = s9.batch ? ` (from ${s9.batch.from} streams: ${s9.batch.perSlot} streams per slot, rate over the whole run)` : '';
    const note = `one point per case per x, ${s9.pointMs} ms each after a warm-up${batchNote}; SUT pinned to one CPU; load average ${results.environment?.loadAverageStart?.[0]?.toFixed(1) ?? '–'} at the run's start`;
    chart('concurrency-throughput.svg', {
      title: 'Streams per second against concurrency',
      xLabel: 'concurrent streams',
      yLabel: 'streams/s',
      xLog: true,
      yLog: true,
      series: series(C, httpNames, metric.rate),
      note,
    });
    chart('concurrency-added-p50.svg', {
      title: 'Added stream latency p50 (vs direct, same concurrency)',
      xLabel: 'concurrent streams',
      yLabel: 'ms added',
      yUnit: 'ms',
      xLog: true,
      series: series(C, httpNames, metric.p50, 'direct'),
      note,
    });
    chart('concurrency-added-p99.svg', {
      title: 'Added stream latency p99 (vs direct, same concurrency)',
      xLabel: 'concurrent streams',
      yLabel: 'ms added',
      yUnit: 'ms',
      xLog: true,
      series: series(C, httpNames, metric.p99, 'direct'),
      note,
    });
    chart('concurrency-rss.svg', {
      title: 'Peak RSS of the system under test against concurrency',
      xLabel: 'concurrent streams',
      yLabel: 'MB',
      xLog: true,
      series: series(
        C,
        httpNames.filter((n) => n !== 'direct'),
        metric.rss,
      ),
      note,
    });
    chart('concurrency-cpu.svg', {
      title: 'CPU per stream against concurrency',
      xLabel: 'concurrent streams',
      yLabel: 'ms CPU per stream',
      xLog: true,
      yLog: true,
      series: series(C, httpNames, metric.cpuMs),
      note,
    });
    chart('extproc-concurrency-throughput.svg', {
      title: 'ext_proc exchanges per second against concurrency',
      xLabel: 'concurrent Process streams',
      yLabel: 'exchanges/s',
      xLog: true,
      yLog: true,
      series: series(E, ['extproc-floor', 'gw-extproc'], metric.rate),
      note,
    });
    chart('extproc-concurrency-chunk-latency.svg', {
      title: 'ext_proc answer per response chunk: p50 and p99',
      xLabel: 'concurrent Process streams',
      yLabel: 'ms',
      xLog: true,
      yLog: true,
      series: [
        ...series(E, ['extproc-floor', 'gw-extproc'], metric.p50).map((s) => ({ ...s, name: `${s.name} p50` })),
        ...series(E, ['extproc-floor', 'gw-extproc'], metric.p99).map((s) => ({ ...s, name: `${s.name} p99` })),
      ],
      note,
    });
    chart('extproc-concurrency-rss.svg', {
      title: 'ext_proc peak RSS against concurrency',
      xLabel: 'concurrent Process streams',
      yLabel: 'MB',
      xLog: true,
      series: series(E, ['extproc-floor', 'gw-extproc'], metric.rss),
      note,
    });
    chart('body-throughput.svg', {
      title: 'Non-streaming requests per second against body size (4 in flight)',
      xLabel: 'request body',
      xUnit: 'B',
      yLabel: 'req/s',
      xLog: true,
      yLog: true,
      series: series(B, httpNames, metric.rate),
      note,
    });
    chart('body-added-p50.svg', {
      title: 'Added latency p50 against body size (vs direct)',
      xLabel: 'request body',
      xUnit: 'B',
      yLabel: 'ms added',
      xLog: true,
      yLog: true,
      series: series(B, httpNames, metric.p50, 'direct'),
      note,
    });
    chart('body-added-p99.svg', {
      title: 'Added latency p99 against body size (vs direct)',
      xLabel: 'request body',
      xUnit: 'B',
      yLabel: 'ms added',
      xLog: true,
      yLog: true,
      series: series(B, httpNames, metric.p99, 'direct'),
      note,
    });
    chart('body-rss.svg', {
      title: 'Peak RSS against body size (4 in flight)',
      xLabel: 'request body',
      xUnit: 'B',
      yLabel: 'MB',
      xLog: true,
      series: series(
        B,
        httpNames.filter((n) => n !== 'direct'),
        metric.rss,
      ),
      note,
    });
    chart('extproc-body-request-phase.svg', {
      title: 'ext_proc request phase p50 against body size',
      xLabel: 'request body',
      xUnit: 'B',
      yLabel: 'ms',
      xLog: true,
      yLog: true,
      series: series(EB, ['extproc-floor', 'gw-extproc', 'gw-extproc-scan'], metric.reqPhase),
      note,
    });
    chart('extproc-body-rss.svg', {
      title: 'ext_proc peak RSS against body size',
      xLabel: 'request body',
      xUnit: 'B',
      yLabel: 'MB',
      xLog: true,
      series: series(EB, ['extproc-floor', 'gw-extproc', 'gw-extproc-scan'], metric.rss),
      note,
    });

    const f = (x, d = 2) => (x == null || !Number.isFinite(x) ? '–' : x.toFixed(d));
    const L = [];
    L.push('## Scaling curves (s9)');
    L.push('');
    L.push(
      `Each point: one ${s9.pointMs} ms run per case after a warm-up; HTTP streams of 30 back-to-back deltas (concurrency sweep, ~4 KiB body) and non-streaming requests 4 in flight (body sweep); ext_proc through bench/extproc-load.mjs with the recorded exchange (its request body replaced by one of the given size). "added" is against direct at the same x. ${s9.batch ? `From ${s9.batch.from} streams up, each stream slot runs ${s9.batch.perSlot} streams, all measured, and the rate is streams over the whole run (a batch of that many outlasts a short window). ` : ''}LiteLLM runs up to ${LITELLM_MAX_CONCURRENCY} streams (beyond, its queue does not drain inside a point), and each of its points runs at least 8 s with a 2 s warm-up (its batches of streams outlast a short window).`,
    );
    L.push('');
    for (const c of charts) L.push(`- [${c.title}](${c.file})`);
    L.push('');
    const table = (title, tableData, xs, fmtX, names, withAdded) => {
      L.push(`### ${title}`);
      L.push('');
      L.push(`| case | ${xs.map(fmtX).join(' | ')} |`);
      L.push(`|---|${xs.map(() => '---|').join('')}`);
      for (const n of names.filter((k) => tableData[k])) {
        const cells = xs.map((x) => {
          const r = tableData[n][x];
          if (!r) return '–';
          const base = withAdded && tableData.direct?.[x];
          const add = base && n !== 'direct' ? ` (+${f(metric.p50(r) - metric.p50(base))})` : '';
          return `${f(metric.rate(r), 0)}/s, p50 ${f(metric.p50(r))}${add}, p99 ${f(metric.p99(r))}, ${f(metric.rss(r), 0)} MB, ${f(metric.cpuMs(r), 3)} ms CPU`;
        });
        L.push(`| ${n} | ${cells.join(' | ')} |`);
      }
      L.push('');
    };
    const kb = (b) => (b >= KIB * KIB ? `${b / KIB / KIB} MiB` : `${b / KIB} KiB`);
    table('Concurrency (HTTP, streaming): rate, latency p50 (added vs direct), p99, peak RSS, CPU per stream', C, s9.concurrency.points, (x) => `${x}`, httpNames, true);
    table('Concurrency (ext_proc): exchanges/s, chunk answer p50, p99, peak RSS, CPU per exchange', E, s9.concurrency.points, (x) => `${x}`, ['extproc-floor', 'gw-extproc'], false);
    table('Body size (HTTP, non-streaming, 4 in flight): rate, latency p50 (added vs direct), p99, peak RSS, CPU per request', B, s9.body.points, kb, httpNames, true);
    table('Body size (ext_proc, 4 in flight): exchanges/s, chunk p50, p99, peak RSS, CPU per exchange', EB, s9.body.points, kb, ['extproc-floor', 'gw-extproc', 'gw-extproc-scan'], false);
    return { sections: [L.join('\n')], charts, budgets: [] };
  },
};
