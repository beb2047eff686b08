// Turns the raw results of bench/run.mjs into bench/results/<date>.md and
// <date>.json: medians over rounds, paired differences against the direct
// (mock-only) case of the same round, ratios against Portkey, and the
// DESIGN §9 budgets with met / not met.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { budget } from './budgets.mjs';
import { obstacleSection } from './lib/obstacles.mjs';

export function median(values) {
  const v = values.filter((x) => typeof x === 'number' && Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return null;
  const m = Math.floor(v.length / 2);
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}
const range = (values) => {
  const v = values.filter((x) => typeof x === 'number' && Number.isFinite(x));
  return v.length ? [Math.min(...v), Math.max(...v)] : null;
};
const get = (obj, path) => path.split('.').reduce((o, k) => (o == null ? undefined : o[k]), obj);

/** Median over rounds of one field of one case, and of its paired difference / ratio to another case. */
function stat(rounds, name, path) {
  return median(rounds.map((r) => get(r[name], path)));
}
function pairedDiff(rounds, name, base, path) {
  return median(rounds.map((r) => (r[name] && r[base] ? get(r[name], path) - get(r[base], path) : NaN)));
}
function pairedRatio(rounds, name, base, path) {
  return median(rounds.map((r) => (r[name] && r[base] ? get(r[name], path) / get(r[base], path) : NaN)));
}
function spread(rounds, name, path) {
  return range(rounds.map((r) => get(r[name], path)));
}
// procs: [system under test, mock, redis] as sampled by bench/run.mjs.
const proc = (result, index = 0) => result?.procs?.[index] ?? null;
function perRequestCpuUs(result) {
  const cpu = proc(result)?.cpuMs ?? null;
  const n = result?.completed ?? result?.streams;
  return cpu === null || !n ? null : (cpu * 1000) / n;
}
const cpuPercent = (result, index = 0) => proc(result, index)?.cpuPercent ?? null;
const waitPercent = (result) => proc(result)?.waitPercent ?? null;
const peakRss = (result) => proc(result)?.rssPeakMB ?? null;

const f = (x, digits = 3) => (x === null || x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(digits));
const fr = (x) => (x === null || x === undefined || !Number.isFinite(x) ? '–' : `${x.toFixed(2)}×`);
const fi = (x) => (x === null || x === undefined || !Number.isFinite(x) ? '–' : Math.round(x).toLocaleString('en-US'));
const met = (ok) => (ok === null ? 'n/a' : ok ? '**met**' : '**not met**');

export function analyse(results) {
  const s = results.scenarios;
  const out = { budgets: [], tables: {} };
  const has = (sc, name) => sc && sc.rounds.length > 0 && sc.rounds[0][name] !== undefined;

  // ---- s1: non-streaming added latency at 500 req/s
  if (s.s1) {
    const R = s.s1.rounds;
    const rows = Object.keys(R[0]).map((name) => ({
      name,
      perSecond: stat(R, name, 'perSecond'),
      p50: stat(R, name, 'latencyMs.p50'),
      p90: stat(R, name, 'latencyMs.p90'),
      p99: stat(R, name, 'latencyMs.p99'),
      p999: stat(R, name, 'latencyMs.p999'),
      addedP50: name === 'direct' ? null : pairedDiff(R, name, 'direct', 'latencyMs.p50'),
      addedP99: name === 'direct' ? null : pairedDiff(R, name, 'direct', 'latencyMs.p99'),
      addedP50Range: name === 'direct' ? null : range(R.map((r) => r[name].latencyMs.p50 - r.direct.latencyMs.p50)),
      addedP99Range: name === 'direct' ? null : range(R.map((r) => r[name].latencyMs.p99 - r.direct.latencyMs.p99)),
      waitPct: median(R.map((r) => waitPercent(r[name]))),
      ratioP50: name === 'direct' ? null : pairedRatio(R, name, 'direct', 'latencyMs.p50'),
      overProxyP50: name.startsWith('gw') && has(s.s1, 'node-proxy') ? pairedDiff(R, name, 'node-proxy', 'latencyMs.p50') : null,
      cpuOverProxyUs: name.startsWith('gw') && has(s.s1, 'node-proxy') ? median(R.map((r) => perRequestCpuUs(r[name]) - perRequestCpuUs(r['node-proxy']))) : null,
      cpuUs: median(R.map((r) => perRequestCpuUs(r[name]))),
      cpuPct: median(R.map((r) => cpuPercent(r[name]))),
      redisCpuUs: name === 'gw-redis' ? median(R.map((r) => ((proc(r[name], 2)?.cpuMs ?? NaN) * 1000) / r[name].completed)) : null,
      rss: median(R.map((r) => peakRss(r[name]))),
      non200: R.reduce(
        (n, r) =>
          n +
          Object.entries(r[name].statuses ?? {})
            .filter(([k]) => k !== '200')
            .reduce((a, [, v]) => a + v, 0),
        0,
      ),
      errors: R.reduce((n, r) => n + Object.values(r[name].errors ?? {}).reduce((a, v) => a + v, 0), 0),
    }));
    out.tables.s1 = rows;
    const gw = rows.find((r) => r.name === 'gw-memory');
    const pk = rows.find((r) => r.name === 'portkey');
    const np = rows.find((r) => r.name === 'node-proxy');
    const pkVsGw = (field) => (pk && gw && gw[field] > 0 ? pk[field] / gw[field] : null);
    out.budgets.push(
      budget('s1-p50', gw?.addedP50, {
        bestRound: gw?.addedP50Range?.[0],
        vsDirect: gw?.ratioP50,
        vsDirectText: `gw ${f(gw?.p50)} ms vs direct ${f(rows[0]?.p50)} ms (${fr(gw?.ratioP50)}); best round +${f(gw?.addedP50Range?.[0])} ms; a bare Node proxy adds ${f(np?.addedP50)} ms, gw ${f(gw?.overProxyP50)} ms more than it (CPU per request +${f(gw?.cpuOverProxyUs, 0)} µs)`,
        vsPortkeyText: pk ? `Portkey adds ${f(pk.addedP50)} ms (${fr(pkVsGw('addedP50'))} gw's)` : '–',
      }),
    );
    out.budgets.push(
      budget('s1-floor', gw?.overProxyP50, {
        vsDirectText: `gw adds ${f(gw?.addedP50)} ms, the floor ${f(np?.addedP50)} ms; CPU per request gw ${f(gw?.cpuUs, 0)} µs, floor ${f(np?.cpuUs, 0)} µs`,
        vsPortkeyText: '–',
      }),
    );
    out.budgets.push(
      budget('s1-p99', gw?.addedP99, {
        bestRound: gw?.addedP99Range?.[0],
        vsDirectText: `gw ${f(gw?.p99)} ms vs direct ${f(rows[0]?.p99)} ms (${fr(gw && rows[0] ? gw.p99 / rows[0].p99 : null)}); best round +${f(gw?.addedP99Range?.[0])} ms; a bare Node proxy adds ${f(np?.addedP99)} ms`,
        vsPortkeyText: pk ? `Portkey adds ${f(pk.addedP99)} ms (${fr(pkVsGw('addedP99'))} gw's)` : '–',
      }),
    );
  }

  // ---- s2: streaming TTFB and per-event delay
  if (s.s2) {
    const R = s.s2.rounds;
    const rows = Object.keys(R[0]).map((name) => ({
      name,
      perSecond: stat(R, name, 'perSecond'),
      ttfbP50: stat(R, name, 'ttfbMs.p50'),
      ttfbP99: stat(R, name, 'ttfbMs.p99'),
      addedTtfbP50: name === 'direct' ? null : pairedDiff(R, name, 'direct', 'ttfbMs.p50'),
      addedTtfbP99: name === 'direct' ? null : pairedDiff(R, name, 'direct', 'ttfbMs.p99'),
      ttfbOverProxy: name.startsWith('gw') && has(s.s2, 'node-proxy') ? pairedDiff(R, name, 'node-proxy', 'ttfbMs.p50') : null,
      evOverProxy: name.startsWith('gw') && has(s.s2, 'node-proxy') ? pairedDiff(R, name, 'node-proxy', 'eventDelayMs.p50') : null,
      bestTtfb: name === 'direct' ? null : range(R.map((r) => r[name].ttfbMs.p50 - r.direct.ttfbMs.p50))?.[0],
      bestEv: name === 'direct' ? null : range(R.map((r) => r[name].eventDelayMs.p50 - r.direct.eventDelayMs.p50))?.[0],
      waitPct: median(R.map((r) => waitPercent(r[name]))),
      evP50: stat(R, name, 'eventDelayMs.p50'),
      evP99: stat(R, name, 'eventDelayMs.p99'),
      evP999: stat(R, name, 'eventDelayMs.p999'),
      addedEvP50: name === 'direct' ? null : pairedDiff(R, name, 'direct', 'eventDelayMs.p50'),
      addedEvP99: name === 'direct' ? null : pairedDiff(R, name, 'direct', 'eventDelayMs.p99'),
      gapP99: stat(R, name, 'interArrivalMs.p99'),
      cpuUs: median(R.map((r) => perRequestCpuUs(r[name]))),
      bad: R.reduce((n, r) => n + (r[name].badStreams ?? 0), 0),
    }));
    out.tables.s2 = rows;
    const gw = rows.find((r) => r.name === 'gw-memory');
    const pk = rows.find((r) => r.name === 'portkey');
    const np = rows.find((r) => r.name === 'node-proxy');
    const d = rows[0];
    out.budgets.push(
      budget('ttfb', gw?.addedTtfbP50, {
        bestRound: gw?.bestTtfb,
        vsDirectText: `gw ${f(gw?.ttfbP50)} ms vs direct ${f(d?.ttfbP50)} ms (${fr(gw && d ? gw.ttfbP50 / d.ttfbP50 : null)}); p99 added ${f(gw?.addedTtfbP99)} ms; best round +${f(gw?.bestTtfb)} ms; bare Node proxy adds ${f(np?.addedTtfbP50)} ms, gw ${f(gw?.ttfbOverProxy)} ms more than it`,
        vsPortkeyText: pk ? `Portkey adds ${f(pk.addedTtfbP50)} ms (${fr(pk.addedTtfbP50 / gw?.addedTtfbP50)} gw's)` : '–',
      }),
    );
    out.budgets.push(
      budget('event-delay', gw?.addedEvP50, {
        bestRound: gw?.bestEv,
        vsDirectText: `one-way event delay gw ${f(gw?.evP50)} ms vs direct ${f(d?.evP50)} ms; p99 added ${f(gw?.addedEvP99)} ms; best round +${f(gw?.bestEv)} ms; bare Node proxy adds ${f(np?.addedEvP50)} ms, gw ${f(gw?.evOverProxy)} ms more than it`,
        vsPortkeyText: pk ? `Portkey adds ${f(pk.addedEvP50)} ms p50, ${f(pk.addedEvP99)} ms p99` : '–',
      }),
    );
  }

  // ---- s3: throughput at 32 concurrent streams
  if (s.s3) {
    const R = s.s3.rounds;
    const rows = Object.keys(R[0]).map((name) => ({
      name,
      perSecond: stat(R, name, 'perSecond'),
      range: spread(R, name, 'perSecond'),
      eventsPerSecond: median(R.map((r) => r[name].perSecond * (r[name].deltasSeen / Math.max(1, r[name].completed)))),
      vsPortkey: has(s.s3, 'portkey') && name !== 'portkey' ? pairedRatio(R, name, 'portkey', 'perSecond') : null,
      vsDirect: name === 'direct' ? null : pairedRatio(R, name, 'direct', 'perSecond'),
      cpuMsPerStream: median(R.map((r) => (perRequestCpuUs(r[name]) ?? NaN) / 1000)),
      sutCpuPct: median(R.map((r) => cpuPercent(r[name], 0))),
      waitPct: median(R.map((r) => waitPercent(r[name]))),
      mockCpuPct: name === 'direct' ? median(R.map((r) => cpuPercent(r[name], 0))) : median(R.map((r) => cpuPercent(r[name], 1))),
      loadCpuPct: median(R.map((r) => (r[name].loadCpuMs / r[name].elapsedMs) * 100)),
      ttfbP50: stat(R, name, 'ttfbMs.p50'),
      bad: R.reduce((n, r) => n + (r[name].badStreams ?? 0), 0),
    }));
    out.tables.s3 = rows;
    const gw = rows.find((r) => r.name === 'gw-memory');
    const pk = rows.find((r) => r.name === 'portkey');
    const cpuRatio = pk && gw ? pk.cpuMsPerStream / gw.cpuMsPerStream : null;
    out.budgets.push(
      budget('vs-portkey', gw?.vsPortkey, {
        vsDirectText: `gw ${fi(gw?.perSecond)} streams/s, direct ${fi(rows[0]?.perSecond)} (${fr(gw?.vsDirect)}), bare Node proxy ${fi(rows.find((r) => r.name === 'node-proxy')?.perSecond)}`,
        vsPortkeyText: pk
          ? `Portkey ${fi(pk.perSecond)} streams/s; CPU per stream: Portkey ${f(pk.cpuMsPerStream, 2)} ms, gw ${f(gw?.cpuMsPerStream, 2)} ms (Portkey needs ${fr(cpuRatio)} gw's CPU per stream)`
          : 'Portkey not run',
      }),
    );
    out.budgets.push(
      budget('vs-direct', gw?.vsDirect, {
        vsDirectText: `gw ${fi(gw?.perSecond)} streams/s, direct ${fi(rows[0]?.perSecond)}; gw CPU ${f(gw?.sutCpuPct, 0)} % and run-queue wait ${f(gw?.waitPct, 0)} % of its CPU, mock ${f(gw?.mockCpuPct, 0)} %, load generator ${f(gw?.loadCpuPct, 0)} % of theirs`,
        vsPortkeyText: '–',
      }),
    );
    const ll = rows.find((r) => r.name === 'litellm');
    const llRatioRaw = ll && gw ? pairedRatio(R, 'gw-memory', 'litellm', 'perSecond') : null;
    // No stream of LiteLLM's inside its window gives an infinite ratio: no figure, not a verdict.
    const llRatio = Number.isFinite(llRatioRaw) ? llRatioRaw : null;
    const llWindowS = ll ? stat(R, 'litellm', 'measuredMs') / 1000 : null;
    out.budgets.push(
      budget('vs-litellm', llRatio, {
        vsDirectText: ll
          ? `LiteLLM ${f(ll.perSecond, 1)} streams/s over a ${f(llWindowS, 1)} s window${ll.perSecond ? '' : ' (no stream finished inside it)'} (${fr(ll.vsDirect)} direct); CPU per stream LiteLLM ${f(ll.cpuMsPerStream, 2)} ms, gw ${f(gw?.cpuMsPerStream, 2)} ms (${fr(ll.cpuMsPerStream / gw?.cpuMsPerStream)})`
          : 'LiteLLM not run',
        vsPortkeyText: '–',
      }),
    );
  }

  // ---- s4: large bodies
  if (s.s4) {
    const R = s.s4.rounds;
    out.tables.s4 = Object.keys(R[0]).map((name) => ({
      name,
      perSecond: stat(R, name, 'perSecond'),
      p50: stat(R, name, 'latencyMs.p50'),
      p99: stat(R, name, 'latencyMs.p99'),
      addedP50: name === 'direct' ? null : pairedDiff(R, name, 'direct', 'latencyMs.p50'),
      addedP99: name === 'direct' ? null : pairedDiff(R, name, 'direct', 'latencyMs.p99'),
      cpuUs: median(R.map((r) => perRequestCpuUs(r[name]))),
    }));
  }

  // ---- s5: ext_proc
  if (s.s5) {
    const R = s.s5.rounds;
    const rows = Object.keys(R[0]).map((key) => {
      const [name, c] = key.split('@');
      const base = `extproc-floor@${c}`;
      return {
        key,
        name,
        concurrency: Number(c),
        streamsPerSecond: stat(R, key, 'streamsPerSecond'),
        p50: stat(R, key, 'chunkMs.p50'),
        p90: stat(R, key, 'chunkMs.p90'),
        p99: stat(R, key, 'chunkMs.p99'),
        p999: stat(R, key, 'chunkMs.p999'),
        addedP50: name === 'extproc-floor' ? null : pairedDiff(R, key, base, 'chunkMs.p50'),
        addedP99: name === 'extproc-floor' ? null : pairedDiff(R, key, base, 'chunkMs.p99'),
        decideP50: stat(R, key, 'decideMs.p50'),
        requestPhaseP50: stat(R, key, 'requestPhaseMs.p50'),
        cpuUsPerExchange: median(
          R.map((r) => {
            const res = r[key];
            const cpu = proc(res)?.cpuMs;
            return cpu != null && res.streams ? (cpu * 1000) / res.streams : NaN;
          }),
        ),
        cpuVsBaseline:
          name !== 'gw-extproc-baseline' && R[0][`gw-extproc-baseline@${c}`]
            ? median(
                R.map((r) => {
                  const per = (x) => (proc(x)?.cpuMs ?? NaN) / (x?.streams || NaN);
                  return per(r[key]) / per(r[`gw-extproc-baseline@${c}`]);
                }),
              )
            : null,
        requestPhaseVsBaseline: name === 'gw-extproc' && R[0][`gw-extproc-baseline@${c}`] ? pairedRatio(R, key, `gw-extproc-baseline@${c}`, 'requestPhaseMs.p50') : null,
        p99VsFloor: name === 'extproc-floor' ? null : pairedRatio(R, key, base, 'chunkMs.p99'),
        cpuUsPerChunk: median(
          R.map((r) => {
            const res = r[key];
            // Messages per stream: request headers, request body, response headers, the chunks.
            const cpu = proc(res)?.cpuMs;
            return cpu != null && res.streams ? (cpu * 1000) / (res.streams * (s.s5.scenario.chunksPerStream + 3)) : NaN;
          }),
        ),
        cpuPct: median(R.map((r) => cpuPercent(r[key]))),
        waitPct: median(R.map((r) => waitPercent(r[key]))),
        errors: R.reduce((n, r) => n + Object.values(r[key].errors ?? {}).reduce((a, v) => a + v, 0), 0),
      };
    });
    out.tables.s5 = rows;
    const gw1 = rows.find((r) => r.key === 'gw-extproc@1');
    const fl1 = rows.find((r) => r.key === 'extproc-floor@1');
    const gw16 = rows.find((r) => r.key === 'gw-extproc@16');
    out.budgets.push(
      budget('extproc-chunk-abs', gw1?.p99, {
        vsDirectText: `bare grpc-js floor p99 ${f(fl1?.p99)} ms (${fr(gw1 && fl1 ? gw1.p99 / fl1.p99 : null)}); added p50 ${f(gw1?.addedP50)} ms, p99 ${f(gw1?.addedP99)} ms; at 16 streams p99 ${f(gw16?.p99)} ms`,
        vsPortkeyText: 'no ext_proc peer',
      }),
    );
    const b1 = rows.find((r) => r.key === 'gw-extproc-baseline@1');
    const h1 = rows.find((r) => r.key === 'extproc-floor-http2@1');
    const h16 = rows.find((r) => r.key === 'extproc-floor-http2@16');
    const fl16 = rows.find((r) => r.key === 'extproc-floor@16');
    // What no processor on this transport can go below, in the same rounds: the floors' CPU per
    // exchange against the baseline's (the ratio the budget asks of gw).
    out.extprocFloors = { grpc1: fl1?.cpuVsBaseline, grpc16: fl16?.cpuVsBaseline, http2One: h1?.cpuVsBaseline, http2Sixteen: h16?.cpuVsBaseline };
    const baseNote = s.s5.scenario.baselineCommit ? `baseline = main at ${s.s5.scenario.baselineCommit.slice(0, 7)}, run in the same rounds` : 'baseline build not available';
    out.budgets.push(
      budget('extproc-chunk-floor', gw1?.p99VsFloor, {
        vsDirectText: `gw ${f(gw1?.p99)} ms, floor ${f(fl1?.p99)} ms; baseline ${f(b1?.p99)} ms`,
        vsPortkeyText: '–',
      }),
    );
    out.budgets.push(
      budget('extproc-cpu', gw1?.cpuVsBaseline, {
        vsDirectText: `gw ${f(gw1?.cpuUsPerExchange, 0)} µs, baseline ${f(b1?.cpuUsPerExchange, 0)} µs per exchange (${baseNote}); the bare grpc-js floor alone ${f(fl1?.cpuUsPerExchange, 0)} µs = **${fr(fl1?.cpuVsBaseline)} the baseline**, the hand-framed node:http2 floor ${f(h1?.cpuUsPerExchange, 0)} µs = **${fr(h1?.cpuVsBaseline)}**; at 16 streams gw ${fr(gw16?.cpuVsBaseline)}, grpc-js floor ${fr(fl16?.cpuVsBaseline)}, node:http2 floor ${fr(h16?.cpuVsBaseline)}`,
        vsPortkeyText: '–',
      }),
    );
    out.budgets.push(
      budget('extproc-request-phase', gw1?.requestPhaseVsBaseline, {
        vsDirectText: `gw ${f(gw1?.requestPhaseP50)} ms, baseline ${f(b1?.requestPhaseP50)} ms, floor ${f(fl1?.requestPhaseP50)} ms (request_headers sent → request_body answered); at 16 streams ${fr(gw16?.requestPhaseVsBaseline)}`,
        vsPortkeyText: '–',
      }),
    );
    out.budgets.push(
      budget('rss-idle-extproc', s.s5.scenario.idleRssMB, {
        vsDirectText: `5 s after the s5 load: ${f(s.s5.scenario.rssAfterLoadMB, 1)} MB (shown, not judged here: growth under load is the soak's "flat after a million requests")`,
        vsPortkeyText: '–',
      }),
    );
  }

  // ---- s6: 1,000 concurrent streams
  if (s.s6) {
    const R = s.s6.rounds;
    const rows = Object.keys(R[0]).map((name) => ({
      name,
      completed: median(R.map((r) => r[name].counted)),
      bad: R.reduce((n, r) => n + (r[name].badStreams ?? 0) + (r[name].unfinished ?? 0), 0),
      maxInFlight: median(R.map((r) => r[name].mockMaxOpenStreams)),
      ttfbP50: stat(R, name, 'ttfbMs.p50'),
      ttfbP99: stat(R, name, 'ttfbMs.p99'),
      evP50: stat(R, name, 'eventDelayMs.p50'),
      evP99: stat(R, name, 'eventDelayMs.p99'),
      evP999: stat(R, name, 'eventDelayMs.p999'),
      addedEvP50: name === 'direct' ? null : pairedDiff(R, name, 'direct', 'eventDelayMs.p50'),
      addedEvP99: name === 'direct' ? null : pairedDiff(R, name, 'direct', 'eventDelayMs.p99'),
      addedTtfbP50: name === 'direct' ? null : pairedDiff(R, name, 'direct', 'ttfbMs.p50'),
      rssPeak: Math.max(...R.map((r) => peakRss(r[name]) ?? 0)),
      cpuPct: median(R.map((r) => cpuPercent(r[name]))),
      waitPct: median(R.map((r) => waitPercent(r[name]))),
    }));
    out.tables.s6 = rows;
    const gw = rows.find((r) => r.name === 'gw-memory');
    const d = rows.find((r) => r.name === 'direct');
    out.budgets.push(
      budget('rss-streams', gw?.rssPeak, {
        what: `memory with ${s.s6.scenario.streams.toLocaleString('en-US')} concurrent streams (peak RSS of gw serve)`,
        vsDirectText: `${s.s6.scenario.streams < 1000 ? `only ${s.s6.scenario.streams} streams (quick run): not judged; ` : ''}idle ${f(s.s6.scenario.gwIdleRssMB, 1)} MB before${s.s6.heapAtPeak ? ` (at the peak: V8 heap ${f(s.s6.heapAtPeak.heapUsedMB, 1)} of ${f(s.s6.heapAtPeak.heapTotalMB, 1)} MB, external ${f(s.s6.heapAtPeak.externalMB, 1)} MB)` : ''}; per-event delay added p50 ${f(gw?.addedEvP50)} ms, p99 ${f(gw?.addedEvP99)} ms vs direct; TTFB added p50 ${f(gw?.addedTtfbP50)} ms`,
        vsPortkeyText: '–',
        // The budget is at 1,000 open streams; a quick run's 500 is shown, not judged.
        judged: s.s6.scenario.streams >= 1000,
        also: gw?.bad === 0,
      }),
    );
    void d;
    out.budgets.push(
      budget('rss-idle-serve', s.s6.scenario.gwIdleRssMB, {
        vsDirectText: `5 s after the ${s.s6.scenario.streams.toLocaleString('en-US')} streams closed: ${f(s.s6.scenario.gwRssAfterLoadMB, 1)} MB (shown, not judged here: growth under load is the soak's "flat after a million requests")`,
        vsPortkeyText: '–',
      }),
    );
  }

  // ---- redaction
  if (results.redaction?.rows) {
    const rows = results.redaction.rows;
    const clean = rows['JSON body, no credentials'];
    const dirty = rows['JSON body, 100 credentials'];
    // Judged on CPU-time throughput where the script reports it (wall time on this shared
    // machine includes time the process spent descheduled); wall-clock shown beside it.
    const pick = (r) => r?.cpuMBps ?? r?.wallMBps;
    const basis = clean?.cpuMBps !== undefined ? 'CPU time' : 'wall clock';
    out.budgets.push(
      budget('redaction', [pick(clean), pick(dirty)], {
        measuredText: `${pick(clean) ?? '–'} / ${pick(dirty) ?? '–'} MB/s (${basis}${basis === 'CPU time' ? `; wall clock ${clean?.wallMBps ?? '–'} / ${dirty?.wallMBps ?? '–'}` : ''})`,
        vsDirectText: '–',
        vsPortkeyText: '–',
      }),
    );
  }
  out.budgets.push(
    budget('revocation', null, {
      measuredText: 'not measured here (covered by the test suite, not a load benchmark)',
      vsDirectText: '–',
      vsPortkeyText: '–',
      ok: null,
    }),
  );
  return out;
}

/** Each peer (and gw) against direct in the same run: throughput, added latency, TTFB, CPU, RSS. */
function peerTable(results, a) {
  const s = results.scenarios;
  const names = ['node-proxy', 'gw-memory', 'portkey', 'litellm'];
  const s3 = a.tables.s3 ?? [];
  const s2 = a.tables.s2 ?? [];
  const s9 = s.s9?.body?.http ?? null;
  const body = s9
    ? Object.keys(s9.direct ?? {})
        .map(Number)
        .sort((x, y) => x - y)
        .find((b) => b >= 4096)
    : null;
  const rows = [];
  for (const n of names) {
    const t3 = s3.find((r) => r.name === n);
    const t2 = s2.find((r) => r.name === n);
    const d3 = s3.find((r) => r.name === 'direct');
    const b = s9 && body ? s9[n === 'gw-memory' ? 'gw-serve' : n]?.[body] : null;
    const bd = s9 && body ? s9.direct?.[body] : null;
    if (!t3 && !t2 && !b) continue;
    rows.push({
      name: n,
      vsDirect: t3?.vsDirect,
      perSecond: t3?.perSecond,
      cpuMs: t3?.cpuMsPerStream,
      cpuVsMock: t3 && d3 ? t3.cpuMsPerStream / d3.cpuMsPerStream : null,
      rss: s.s3 ? median(s.s3.rounds.map((r) => peakRss(r[n]))) : null,
      ttfb: t2?.addedTtfbP50,
      ttfbRatio: t2 && s2[0] ? t2.ttfbP50 / s2[0].ttfbP50 : null,
      addedP50: b && bd ? b.latencyMs?.p50 - bd.latencyMs?.p50 : null,
      addedP99: b && bd ? b.latencyMs?.p99 - bd.latencyMs?.p99 : null,
      latRatio: b && bd ? b.latencyMs?.p50 / bd.latencyMs?.p50 : null,
    });
  }
  return { rows, body };
}

function profileTables(p, prof) {
  p('| category | self ms | % of busy |');
  p('|---|---|---|');
  for (const c of prof.categories) p(`| ${c.name} | ${f(c.ms, 0)} | ${f(c.pct, 1)} |`);
  p();
  p('Top functions by self time:');
  p();
  p('| function | where | category | self ms | % |');
  p('|---|---|---|---|---|');
  for (const e of prof.topSelf.slice(0, 20)) p(`| \`${e.fn}\` | ${e.at || '–'} | ${e.cat} | ${f(e.ms, 0)} | ${f(e.pct, 1)} |`);
  p();
  p('Our code (dist/), by inclusive time (the function and everything it calls):');
  p();
  p('| function | where | inclusive ms | % of busy |');
  p('|---|---|---|---|');
  for (const e of prof.topOursInclusive.slice(0, 12)) p(`| \`${e.fn}\` | ${e.at} | ${f(e.ms, 0)} | ${f(e.pct, 1)} |`);
  p();
  p('Our files by self time:');
  p();
  p('| file | self ms | % of busy |');
  p('|---|---|---|');
  for (const e of prof.ourFiles.slice(0, 10)) p(`| ${e.file} | ${f(e.ms, 0)} | ${f(e.pct, 1)} |`);
  p();
}

export function writeReport(results, { resultsDir, date, cases = [] }) {
  const a = analyse(results);
  const extra = [];
  for (const c of cases) {
    if (typeof c.report !== 'function') continue;
    try {
      const r = c.report({ results, resultsDir, date });
      if (r) extra.push({ id: c.id, ...r });
    } catch (error) {
      extra.push({ id: c.id, sections: [`## ${c.id}\n\nIts report failed: ${error?.message ?? error}\n`], budgets: [] });
    }
  }
  for (const e of extra) a.budgets.push(...(e.budgets ?? []));
  const env = results.environment;
  const L = [];
  const p = (line = '') => L.push(line);
  p(`# Benchmark results, ${date}`);
  p();
  p(`Generated by \`make bench\` (bench/run.mjs). How to read this: docs/benchmarks.md.`);
  p();
  p(`- Machine: ${env.cpus} × ${env.cpuModel}, ${env.memoryGB.toFixed(0)} GB; Node ${env.node}; git ${env.git.head}${env.git.dirty ? ' (working tree with uncommitted changes)' : ''}.`);
  p(
    `- Load average at start ${env.loadAverageStart.map((x) => x.toFixed(2)).join(' ')}, at end ${env.loadAverageEnd?.map((x) => x.toFixed(2)).join(' ') ?? '–'}: the machine is shared, absolute numbers are noisy; the ratios and paired differences (each case against the direct case of the same round) are what to compare.`,
  );
  p(
    `- Placement: ${env.pinned ? `the system under test alone on CPU ${env.sutCpu} (\`taskset -c ${env.sutCpu}\`): gw serve / gw extproc / Portkey / the ext_proc floor; the load generator, the mock provider, redis-server and the orchestrator on CPU ${env.driverCpu}. In the direct case the mock is the only server (on CPU ${env.driverCpu}).` : 'not pinned (taskset or a second CPU missing).'}`,
  );
  p(
    `- ${env.rounds} round(s) per scenario, cases interleaved (order reversed every other round) after a warm-up of each case; medians of rounds are reported. Run took ${env.durationSeconds?.toFixed(0)} s.`,
  );
  p();
  p('## Budgets (DESIGN §9)');
  p();
  p('"measured" is the median over rounds of the paired difference to the direct case (or of the ratio); "best round" is the smallest, the nearest this shared machine came to a quiet one.');
  p();
  p('| budget | target | measured | against direct / floor | against Portkey | verdict |');
  p('|---|---|---|---|---|---|');
  for (const b of a.budgets) {
    const measured = b.measuredText ?? (b.measured === null || b.measured === undefined ? '–' : b.unit === '×' ? fr(b.measured) : `${f(b.measured, b.unit === 'MB' ? 1 : 3)} ${b.unit}`);
    p(`| ${b.what} | ${b.target} | ${measured} | ${b.vsDirectText ?? '–'} | ${b.vsPortkeyText ?? '–'} | ${met(b.ok)} |`);
  }
  p();
  for (const line of obstacleSection(a.budgets, { results, analysis: a })) p(line);

  const s = results.scenarios;
  const charts = extra.flatMap((e) => e.charts ?? []);
  if (charts.length) {
    p('Charts: ' + charts.map((c) => `[${c.title}](${c.file})`).join(' · '));
    p();
  }
  const errors = Object.entries(results.caseErrors ?? {});
  if (errors.length) {
    p('## Cases that failed');
    p();
    for (const [id, message] of errors) p(`- ${id}: ${message}`);
    p();
  }
  const peers = peerTable(results, a);
  if (peers.rows.length) {
    p('## Peers against direct (same run)');
    p();
    p(
      `Throughput, CPU per stream and peak RSS at 32 concurrent streams (s3); added TTFB p50 at 8 streams (s2); added non-streaming latency with a ${peers.body ? `${peers.body / 1024} KiB` : '–'} body, 4 in flight (s9 body sweep). Ratios are to direct (the mock alone) in the same run.`,
    );
    p();
    p('| system | streams/s | ×direct | CPU ms/stream | ×mock CPU | peak RSS MB | added TTFB p50 ms | ×direct TTFB | added p50 ms | added p99 ms | ×direct p50 |');
    p('|---|---|---|---|---|---|---|---|---|---|---|');
    for (const r of peers.rows)
      p(
        `| ${r.name} | ${fi(r.perSecond)} | ${fr(r.vsDirect)} | ${f(r.cpuMs, 2)} | ${fr(r.cpuVsMock)} | ${f(r.rss, 1)} | ${f(r.ttfb)} | ${fr(r.ttfbRatio)} | ${f(r.addedP50)} | ${f(r.addedP99)} | ${fr(r.latRatio)} |`,
      );
    p();
  }
  if (a.tables.s1) {
    p(`## Non-streaming at 500 req/s (open loop, ${s.s1.scenario.bodyBytes.toLocaleString('en-US')}-byte body)`);
    p();
    p(
      'Latency is from sending the request to the last byte of the answer, in ms. "added" is the paired difference to direct in the same round (median over rounds, min–max of the p50 difference in brackets).',
    );
    p();
    p('| case | req/s | p50 | p90 | p99 | p99.9 | added p50 | added p99 | ×direct p50 | SUT CPU µs/req | SUT CPU % | SUT run-queue wait % | peak RSS MB | non-200 / errors |');
    p('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (const r of a.tables.s1) {
      const rng = r.addedP50Range ? ` [${f(r.addedP50Range[0])}–${f(r.addedP50Range[1])}]` : '';
      const redisNote = r.redisCpuUs ? ` (+${f(r.redisCpuUs, 0)} redis)` : '';
      p(
        `| ${r.name} | ${fi(r.perSecond)} | ${f(r.p50)} | ${f(r.p90)} | ${f(r.p99)} | ${f(r.p999)} | ${r.addedP50 === null ? '–' : f(r.addedP50) + rng} | ${f(r.addedP99)} | ${fr(r.ratioP50)} | ${f(r.cpuUs, 0)}${redisNote} | ${f(r.cpuPct, 0)} | ${f(r.waitPct, 0)} | ${f(r.rss, 1)} | ${r.non200} / ${r.errors} |`,
      );
    }
    p();
    p(
      'In the direct row, "SUT" is the mock provider itself. Run-queue wait (from /proc/<pid>/task/*/schedstat) is the share of wall time the SUT was ready to run but another task held its CPU: the other load on the machine. node-proxy is bench/node-proxy.mjs, the same Node parts as gw serve without any decision (the floor for a Node data plane).',
    );
    p();
  }
  if (a.tables.s2) {
    p(`## Streaming latency (${s.s2.scenario.title})`);
    p();
    p(
      'TTFB: request sent → first body byte (the message_start event). Event delay: the mock stamps each content delta with CLOCK_MONOTONIC when it writes it; the load generator subtracts that from the moment it reads it (one-way, through whatever is in between). Inter-arrival: gap between consecutive deltas as received (sent 5 ms apart). All in ms.',
    );
    p();
    p(
      '| case | streams/s | TTFB p50 | TTFB p99 | added TTFB p50 | added TTFB p99 | event p50 | event p99 | event p99.9 | added event p50 | added event p99 | inter-arrival p99 | SUT CPU µs/stream | SUT run-queue wait % | bad streams |',
    );
    p('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (const r of a.tables.s2) {
      p(
        `| ${r.name} | ${fi(r.perSecond)} | ${f(r.ttfbP50)} | ${f(r.ttfbP99)} | ${f(r.addedTtfbP50)} | ${f(r.addedTtfbP99)} | ${f(r.evP50)} | ${f(r.evP99)} | ${f(r.evP999)} | ${f(r.addedEvP50)} | ${f(r.addedEvP99)} | ${f(r.gapP99)} | ${f(r.cpuUs, 0)} | ${f(r.waitPct, 0)} | ${r.bad} |`,
      );
    }
    p();
  }
  if (a.tables.s3) {
    p(`## Streaming throughput (${s.s3.scenario.title})`);
    p();
    p(
      "Streams completed per second inside the measured window (each a full Anthropic stream of message_start … message_stop, checked for every delta). CPU per stream is the SUT process's CPU time (from /proc) divided by the streams it served; it is the efficiency figure least disturbed by other load on the machine.",
    );
    p();
    p('| case | streams/s (min–max) | events/s | ×Portkey | ×direct | SUT CPU ms/stream | SUT CPU % | SUT run-queue wait % | mock CPU % | load-gen CPU % | TTFB p50 ms | bad streams |');
    p('|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (const r of a.tables.s3) {
      p(
        `| ${r.name} | ${fi(r.perSecond)} (${r.range ? `${fi(r.range[0])}–${fi(r.range[1])}` : '–'}) | ${fi(r.eventsPerSecond)} | ${fr(r.vsPortkey)} | ${fr(r.vsDirect)} | ${f(r.cpuMsPerStream, 2)} | ${f(r.sutCpuPct, 0)} | ${f(r.waitPct, 0)} | ${f(r.mockCpuPct, 0)} | ${f(r.loadCpuPct, 0)} | ${f(r.ttfbP50)} | ${r.bad} |`,
      );
    }
    p();
    p('The load generator and the mock share one CPU; when their CPU % add up to about 100 the driver side, not the SUT, limits the direct and gw rows (the SUT CPU % then shows the headroom left).');
    p();
  }
  if (a.tables.s4) {
    p(`## Claude Code-sized bodies (${s.s4.scenario.title}; ${s.s4.scenario.bodyBytes.toLocaleString('en-US')} bytes)`);
    p();
    p('| case | req/s | p50 ms | p99 ms | added p50 | added p99 | SUT CPU µs/req |');
    p('|---|---|---|---|---|---|---|');
    for (const r of a.tables.s4) p(`| ${r.name} | ${fi(r.perSecond)} | ${f(r.p50)} | ${f(r.p99)} | ${f(r.addedP50)} | ${f(r.addedP99)} | ${f(r.cpuUs, 0)} |`);
    p();
  }
  if (a.tables.s5) {
    p(`## ext_proc (${s.s5.scenario.title}; ${s.s5.scenario.chunksPerStream} response body chunks per stream)`);
    p();
    p(
      'Per-chunk latency: from writing a response_body message on the Process stream to receiving its answer, in ms, measured by the gRPC client (bench/extproc-load.mjs, one HTTP/2 connection as Envoy uses). "extproc-floor" is a bare grpc-js ext_proc server (same service definition and options) that answers every message with an empty continue: the round trip no processor can beat on this stack. "extproc-floor-http2" gives the same answers over node:http2 with the gRPC framing done by hand (bench/extproc-floor-http2.mjs): what is left once grpc-js is gone, i.e. what a leaner transport could reach. "CPU × baseline" is the paired ratio of CPU per exchange to the baseline build in the same round. Decide: request_body (the whole pipeline: auth, model, policy, lease) answer time.',
    );
    p();
    p(
      '| case @ streams in flight | streams/s | chunk p50 | p90 | p99 | p99.9 | added p50 | added p99 | decide p50 | request phase p50 | SUT CPU µs/exchange | CPU × baseline | µs/message | SUT CPU % | SUT run-queue wait % | errors |',
    );
    p('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (const r of a.tables.s5)
      p(
        `| ${r.key} | ${fi(r.streamsPerSecond)} | ${f(r.p50)} | ${f(r.p90)} | ${f(r.p99)} | ${f(r.p999)} | ${f(r.addedP50)} | ${f(r.addedP99)} | ${f(r.decideP50)} | ${f(r.requestPhaseP50)} | ${f(r.cpuUsPerExchange, 0)} | ${fr(r.cpuVsBaseline)} | ${f(r.cpuUsPerChunk, 1)} | ${f(r.cpuPct, 0)} | ${f(r.waitPct, 0)} | ${r.errors} |`,
      );
    if (s.s5.scenario.baselineCommit) {
      p();
      p(
        `gw-extproc-baseline is main at ${s.s5.scenario.baselineCommit.slice(0, 7)} (the figures the ext_proc budgets are cut against), built by bench/lib/baseline.mjs into the cache and run in the same rounds as the current build.`,
      );
    }
    p();
  }
  if (a.tables.s6) {
    p(`## ${s.s6.scenario.title} (40 deltas 200 ms apart, opened over 2 s, all open together for ~6 s)`);
    p();
    p(`gw serve was a fresh process (RSS ${f(s.s6.scenario.gwIdleRssMB, 1)} MB idle, warmed up with one round of short streams). Peak RSS sampled every 100 ms from /proc/<pid>/status.`);
    p();
    p(
      '| case | streams ok | mock max open streams | TTFB p50 | TTFB p99 | event p50 | event p99 | event p99.9 | added event p50 | added event p99 | SUT peak RSS MB | SUT CPU % | SUT run-queue wait % | bad / unfinished |',
    );
    p('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (const r of a.tables.s6)
      p(
        `| ${r.name} | ${fi(r.completed)} | ${fi(r.maxInFlight)} | ${f(r.ttfbP50)} | ${f(r.ttfbP99)} | ${f(r.evP50)} | ${f(r.evP99)} | ${f(r.evP999)} | ${f(r.addedEvP50)} | ${f(r.addedEvP99)} | ${f(r.rssPeak, 1)} | ${f(r.cpuPct, 0)} | ${f(r.waitPct, 0)} | ${r.bad} |`,
      );
    p();
  }
  if (results.redaction) {
    p('## Redaction throughput (bench/redaction-throughput.mjs, run as it is, on the SUT CPU)');
    p();
    if (results.redaction.output) p(results.redaction.output.trim());
    else p(`Not run: ${results.redaction.skipped ?? `failed (${results.redaction.status}): ${results.redaction.stderr}`}`);
    p();
  }
  const prof = results.profile;
  if (prof) {
    p('## CPU profile of gw serve under load');
    p();
    if (prof.error) p(`No profile: ${prof.error}`);
    else {
      p(
        `\`node --cpu-prof\` on a fresh gw serve (memory state, same settings as above), warmed up, then 500 req/s JSON for 6 s and 32 concurrent streams (30 back-to-back deltas) for 6 s: \`${prof.file}\` (gitignored; open it in Chrome DevTools or speedscope). Only the samples of the two measured runs are summarised (start-up and warm-up left out): ${f(prof.sampledMs / 1000, 1)} s sampled, idle ${f((100 * prof.idleMs) / prof.sampledMs, 0)} %; shares below are of the busy (non-idle) time. The SUT served ${fi(prof.load?.json?.counted)} JSON requests and ${fi(prof.load?.sse?.counted)} streams in those windows. Under CPU contention the profiler's wall-clock sampling also charges time spent descheduled to the function that was running, so treat shares as approximate.`,
      );
      p();
      profileTables(p, prof);
    }
  }
  const heap = prof?.heap;
  if (heap) {
    p('## Heap profile of gw serve (what it still holds after the load)');
    p();
    p(`\`node --heap-prof\` on the same process (sampling, written at exit after the two runs above): \`${heap.file}\` (gitignored). ${f(heap.totalMB, 2)} MB sampled live at exit.`);
    p();
    p('| category | MB | % |');
    p('|---|---|---|');
    for (const c of heap.categories.slice(0, 10)) p(`| ${c.name} | ${f(c.mb, 2)} | ${f(c.pct, 1)} |`);
    p();
    p('| allocated by | where | category | MB | % |');
    p('|---|---|---|---|---|');
    for (const e of heap.topSelf.slice(0, 15)) p(`| \`${e.fn}\` | ${e.at || '–'} | ${e.cat} | ${f(e.mb, 2)} | ${f(e.pct, 1)} |`);
    p();
    p('Our functions, including what they call:');
    p();
    p('| function | where | MB | % |');
    p('|---|---|---|---|');
    for (const e of heap.topOursInclusive.slice(0, 10)) p(`| \`${e.fn}\` | ${e.at} | ${f(e.mb, 2)} | ${f(e.pct, 1)} |`);
    p();
  }
  const pe = results.profileExtproc;
  if (pe) {
    p('## CPU profile of gw extproc under the load driver');
    p();
    if (pe.error) p(`No profile: ${pe.error}`);
    else {
      p(
        `\`node --cpu-prof\` on a fresh gw extproc, warmed up, then the recorded exchange replayed on 1 stream and on 16 in flight: \`${pe.file}\` (gitignored). ${fi(pe.exchanges)} exchanges in the profiled windows; ${f(pe.sampledMs / 1000, 1)} s sampled, idle ${f((100 * pe.idleMs) / pe.sampledMs, 0)} %; busy CPU per exchange ${f(pe.busyMs / Math.max(1, pe.exchanges), 3)} ms.`,
      );
      p();
      profileTables(p, pe);
    }
  }
  const before = results.profileBefore;
  if (prof && before && !prof.error && !before.error) {
    p('### Profile before / after the hot-path changes (same run, same load)');
    p();
    p(`The build given with --ab profiled the same way: \`${before.file}\`. Shares of busy time:`);
    p();
    const cats = [...new Set([...before.categories.map((c) => c.name), ...prof.categories.map((c) => c.name)])].slice(0, 10);
    p('| category | before % | after % |');
    p('|---|---|---|');
    for (const c of cats) p(`| ${c} | ${f(before.categories.find((x) => x.name === c)?.pct, 1)} | ${f(prof.categories.find((x) => x.name === c)?.pct, 1)} |`);
    p();
    const fns = [...new Map([...before.topOursInclusive, ...prof.topOursInclusive].map((e) => [`${e.fn} ${e.at.replace(/:\d+$/, '')}`, e])).keys()].slice(0, 16);
    const share = (list, key) => list.find((e) => `${e.fn} ${e.at.replace(/:\d+$/, '')}` === key)?.pct;
    p('| our function (inclusive) | before % | after % |');
    p('|---|---|---|');
    for (const k of fns) p(`| \`${k}\` | ${f(share(before.topOursInclusive, k), 1)} | ${f(share(prof.topOursInclusive, k), 1)} |`);
    p();
    const busyPerReq = (x) => (x.load?.json?.counted ? x.busyMs / (x.load.json.counted + x.load.sse.counted) : null);
    p(`Busy CPU per request served in the profiled windows (JSON and streams together): before ${f(busyPerReq(before), 3)} ms, after ${f(busyPerReq(prof), 3)} ms.`);
    p();
  }
  for (const e of extra) for (const section of e.sections ?? []) p(section);
  p('## Setup checks');
  p();
  const v = results.verification ?? { sockets: [], requests: {}, allLoopback: null };
  if (results.verification)
    p(`- Every listener of the proxy cases, from /proc/net/tcp{,6}: ${v.sockets.map((x) => `${x.address}:${x.port}`).join(', ')} (${v.allLoopback ? 'all loopback' : 'NOT all loopback'}).`);
  else p('- The proxy cases (s1–s4) did not run, so no setup requests were checked.');
  for (const [name, e] of Object.entries(v.requests)) {
    const d = (x) =>
      `${x.status}, mock received ${x.mockReceived} at ${x.mockPath}, vendor key upstream ${x.vendorKeyUpstream ? 'yes' : 'no'}, caller token upstream ${x.callerTokenLeaked ? 'YES' : 'no'}, answer intact ${x.intact ? 'yes' : 'NO'}`;
    p(`- ${name}: JSON ${d(e.json)}; SSE ${d(e.sse)}.`);
  }
  if (results.peer) {
    p(
      `- Peer: @portkey-ai/gateway ${results.peer.portkey} (hono ${results.peer.hono}, @hono/node-server ${results.peer.honoNodeServer} via npm overrides), installed in ${results.peer.dir}; started as \`node build/start-server.js --port=P --headless\` with NODE_ENV=production and bench/peer-loopback.mjs preloaded (its start script binds all interfaces; the preload makes it 127.0.0.1). Called as Anthropic clients call it: \`POST /v1/messages\` with \`x-portkey-provider: anthropic\`, \`x-portkey-custom-host: <mock>/v1\`, \`authorization: Bearer <vendor key>\` (sent upstream as x-api-key).`,
    );
  } else p('- Peer: Portkey not installed; its cases were skipped.');
  const ll = results.peers?.litellm;
  if (ll)
    p(
      `- Peer: LiteLLM ${ll.litellm} (\`litellm[proxy]\` from PyPI, ${ll.python}) in the virtual environment ${ll.dir}; started as \`litellm --config C --host 127.0.0.1 --port P --num_workers 1\` with a master key and one model entry \`anthropic/claude-sonnet-4-5-20250929\` whose api_base is the mock; LITELLM_LOCAL_MODEL_COST_MAP=True and telemetry off (no network at start). Called as Anthropic clients call it: \`POST /v1/messages\` with the master key as x-api-key.`,
    );
  else p('- Peer: LiteLLM not installed; its cases were skipped.');
  if (results.redis) p(`- redis-server ${results.redis.args.join(' ')}`);
  p();
  const mdPath = join(resultsDir, `${date}.md`);
  const jsonPath = join(resultsDir, `${date}.json`);
  writeFileSync(mdPath, L.join('\n'));
  writeFileSync(jsonPath, JSON.stringify({ ...results, analysis: a }, null, 2) + '\n');
  return { md: mdPath, json: jsonPath };
}
