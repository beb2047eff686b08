// s10: a soak of a fresh gw serve: a million requests (100,000 with --quick), alternating batches of
// 10,000 JSON requests and 10,000 short streams, 40 in flight; RSS and V8 heap read after every
// batch. Flat means the second half of the run does not grow (least-squares slope of RSS and heap).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { QUICK, log, option, runClock, runs } from '../lib/options.mjs';
import { runLoad } from '../lib/load-runner.mjs';
import { stopChild } from '../lib/processes.mjs';
import { memory } from '../lib/procfs.mjs';
import { SDK_HEADERS, requestBody } from '../lib/requests.mjs';
import { gwHeaders, startGw } from '../lib/systems.mjs';
import { lineChart } from '../lib/svg-chart.mjs';
import { heapMetrics } from './many-streams.mjs';
import { budget } from '../budgets.mjs';

const TOTAL = Number(option('soak-requests', QUICK ? '100000' : '1000000'));
const BATCH = 10_000;
const WORKERS = 40;
// What the run needs after the soak's last batch (stopping gw, the report); a batch itself takes
// 5–60 s depending on the machine's load.
const SPARE_MS = 3 * 60_000;

/** Least-squares slope of y over x. */
function slope(points) {
  const n = points.length;
  if (n < 2) return null;
  const mx = points.reduce((a, p) => a + p[0], 0) / n;
  const my = points.reduce((a, p) => a + p[1], 0) / n;
  const num = points.reduce((a, p) => a + (p[0] - mx) * (p[1] - my), 0);
  const den = points.reduce((a, p) => a + (p[0] - mx) ** 2, 0);
  return den === 0 ? null : num / den;
}

export default {
  id: 's10',
  // Last: it is the case that fits itself to the time left before the run's deadline.
  order: 95,
  selected: () => runs('s10'),
  async run(ctx) {
    const { mock, memFile } = ctx;
    const gw = await startGw('gw-soak', 'serve', memFile.file);
    const headers = { ...SDK_HEADERS, ...gwHeaders(memFile.token) };
    const bodies = { json: requestBody(4096, false), sse: requestBody(4096, true) };
    const samples = [{ requests: 0, rssMB: memory(gw.pid)?.rssMB ?? null, heap: await heapMetrics(gw.adminUrl).catch(() => null) }];
    let done = 0;
    let failures = 0;
    const t0 = Date.now();
    let stoppedEarly = false;
    for (let batch = 0; done < TOTAL; batch++) {
      // A slow (busy) machine: stop in time for the report rather than be killed by the run's deadline.
      if (runClock.deadlineAt - Date.now() < SPARE_MS) {
        stoppedEarly = true;
        log(`s10: stopping at ${done.toLocaleString('en-US')} requests to leave time for the report`);
        break;
      }
      const stream = batch % 2 === 1;
      await mock.configure({ events: 5, spacingMs: 0 });
      const r = await runLoad(
        {
          kind: 'http',
          url: gw.url,
          path: '/v1/messages',
          headers,
          body: stream ? bodies.sse : bodies.json,
          mode: 'concurrency',
          concurrency: WORKERS,
          connections: WORKERS,
          perWorker: BATCH / WORKERS,
          stream,
          expectDeltas: stream ? 5 : undefined,
          eventTiming: false,
          durationMs: 300_000,
          warmupMs: 0,
          drainMs: 30_000,
        },
        [gw.pid],
      );
      done += r.completed ?? 0;
      const bad = Object.entries(r.statuses ?? {}).reduce((a, [k, v]) => a + (k === '200' ? 0 : v), 0) + (r.badStreams ?? 0) + Object.values(r.errors ?? {}).reduce((a, v) => a + v, 0);
      failures += bad;
      const sample = {
        requests: done,
        kind: stream ? 'sse' : 'json',
        rate: (r.completed ?? 0) / ((r.elapsedMs ?? 1) / 1000),
        cpuUsPerRequest: r.procs?.[0]?.cpuMs != null && r.completed ? (r.procs[0].cpuMs * 1000) / r.completed : null,
        rssMB: memory(gw.pid)?.rssMB ?? null,
        peakMB: r.procs?.[0]?.rssPeakMB ?? null,
        heap: await heapMetrics(gw.adminUrl).catch(() => null),
        bad,
      };
      samples.push(sample);
      if (batch % 10 === 0 || done >= TOTAL)
        log(
          `s10: ${done.toLocaleString('en-US')} requests, RSS ${sample.rssMB?.toFixed(1)} MB, heap used ${sample.heap?.heapUsedMB?.toFixed(1)} MB, ${sample.rate.toFixed(0)}/s, failures ${failures}`,
        );
      if (!r.completed) break;
    }
    await stopChild(gw.child);
    (ctx.results.scenarios ??= {}).s10 = { total: done, planned: TOTAL, stoppedEarly, batch: BATCH, workers: WORKERS, failures, seconds: (Date.now() - t0) / 1000, samples };
  },

  report({ results, resultsDir, date }) {
    const s = results.scenarios?.s10;
    if (!s) return null;
    const pts = (pick) =>
      s.samples
        .filter((x) => x.requests > 0)
        .map((x) => [x.requests, pick(x)])
        .filter((p) => p[1] != null);
    const half = (list) => list.filter((p) => p[0] > s.total / 2);
    const rssSlope = slope(half(pts((x) => x.rssMB)));
    const heapSlope = slope(half(pts((x) => x.heap?.heapUsedMB ?? null)));
    const per100k = (v) => (v == null ? null : v * 100_000);
    const dir = `charts-${date}`;
    mkdirSync(join(resultsDir, dir), { recursive: true });
    const file = `${dir}/soak-rss.svg`;
    writeFileSync(
      join(resultsDir, file),
      lineChart({
        title: `gw serve memory over ${s.total.toLocaleString('en-US')} requests`,
        xLabel: 'requests served',
        yLabel: 'MB',
        series: [
          { name: 'RSS', points: pts((x) => x.rssMB) },
          { name: 'V8 heap used', points: pts((x) => x.heap?.heapUsedMB ?? null) },
          { name: 'V8 heap total', points: pts((x) => x.heap?.heapTotalMB ?? null) },
          { name: 'external', points: pts((x) => x.heap?.externalMB ?? null) },
        ],
        note: `read after every batch of ${s.batch.toLocaleString('en-US')} (JSON and 5-delta streams alternating, ${s.workers} in flight)`,
      }),
    );
    const f = (x, d = 1) => (x == null || !Number.isFinite(x) ? '–' : x.toFixed(d));
    const rss = pts((x) => x.rssMB);
    const first = rss.find((p) => p[0] >= s.total * 0.1) ?? rss[0];
    const last = rss[rss.length - 1];
    const flat = rssSlope != null && per100k(rssSlope) <= 1 && (heapSlope == null || per100k(heapSlope) <= 0.5);
    const L = [
      '## Soak (s10)',
      '',
      `A fresh gw serve (memory state) served ${s.total.toLocaleString('en-US')} requests in ${f(s.seconds, 0)} s, alternating batches of ${s.batch.toLocaleString('en-US')} JSON requests and ${s.batch.toLocaleString('en-US')} streams of 5 deltas, ${s.workers} in flight; ${s.failures} failed. RSS from /proc and V8 heap from its /metrics after every batch: [chart](${file}).`,
      '',
      `RSS at ${first?.[0].toLocaleString('en-US')} requests ${f(first?.[1])} MB, at the end ${f(last?.[1])} MB, peak ${f(Math.max(...s.samples.map((x) => x.peakMB ?? 0)))} MB; slope over the second half: RSS ${f(per100k(rssSlope), 2)} MB and heap used ${f(per100k(heapSlope), 2)} MB per 100,000 requests.`,
      '',
      '| requests | kind | req/s | CPU µs/req | RSS MB | heap used MB | heap total MB | external MB |',
      '|---|---|---|---|---|---|---|---|',
      ...s.samples
        .filter((x, i) => i === 0 || i === s.samples.length - 1 || x.requests % 100_000 < s.batch)
        .map(
          (x) =>
            `| ${x.requests.toLocaleString('en-US')} | ${x.kind ?? 'idle'} | ${f(x.rate, 0)} | ${f(x.cpuUsPerRequest, 0)} | ${f(x.rssMB)} | ${f(x.heap?.heapUsedMB)} | ${f(x.heap?.heapTotalMB)} | ${f(x.heap?.externalMB)} |`,
        ),
      '',
    ];
    return {
      sections: [L.join('\n')],
      charts: [{ file, title: 'soak memory' }],
      budgets: [
        budget('soak-flat', null, {
          what: `gw serve RSS flat after ${s.total.toLocaleString('en-US')} requests (slope of the second half)`,
          measuredText: `${f(per100k(rssSlope), 2)} MB RSS, ${f(per100k(heapSlope), 2)} MB heap per 100k; ${f(first?.[1])} → ${f(last?.[1])} MB`,
          ok: s.failures === 0 && s.total >= 1_000_000 ? flat : s.total < 1_000_000 ? null : false,
          vsDirectText: s.total < 1_000_000 ? `only ${s.total.toLocaleString('en-US')} requests (${s.stoppedEarly ? 'stopped early for the run deadline' : 'quick run'}): not judged` : '–',
        }),
      ],
    };
  },
};
