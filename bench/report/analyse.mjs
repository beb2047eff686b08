// The budgets and their verdicts, and each scenario's table, from a run's raw results
// (bench/budgets.mjs holds the budgets as data).
import { budget } from '../budgets.mjs';
import { cpuPercent, median, pairedCpuDiffUs, pairedCpuRatio, pairedDiff, pairedRatio, peakRss, perRequestCpuUs, proc, range, spread, stat, waitPercent } from './stats.mjs';
import { f, fi, fr } from './format.mjs';

const msOrNull = (us) => (us === null ? null : us / 1000);

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
      cpuOverProxyUs: name.startsWith('gw') && has(s.s1, 'node-proxy') ? pairedCpuDiffUs(R, name, 'node-proxy') : null,
      cpuVsProxy: name.startsWith('gw') && has(s.s1, 'node-proxy') ? pairedCpuRatio(R, name, 'node-proxy') : null,
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
    // The issue's limit is both a ratio and an absolute: at most 0.25 ms of CPU added per request.
    out.budgets.push(
      budget('serve-cpu-request', gw?.cpuVsProxy, {
        also: (gw?.cpuOverProxyUs ?? Infinity) <= 250,
        vsDirectText: `CPU per request gw ${f(gw?.cpuUs, 0)} µs, bare Node proxy ${f(np?.cpuUs, 0)} µs: +${f(gw?.cpuOverProxyUs, 0)} µs (paired medians of rounds)`,
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
      cpuVsProxy: name.startsWith('gw') && has(s.s3, 'node-proxy') ? pairedCpuRatio(R, name, 'node-proxy') : null,
      cpuOverProxyMs: name.startsWith('gw') && has(s.s3, 'node-proxy') ? msOrNull(pairedCpuDiffUs(R, name, 'node-proxy')) : null,
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
    const proxy = rows.find((r) => r.name === 'node-proxy');
    out.budgets.push(
      budget('serve-cpu-stream', gw?.cpuVsProxy, {
        also: (gw?.cpuOverProxyMs ?? Infinity) <= 0.25,
        vsDirectText: `CPU per stream gw ${f(gw?.cpuMsPerStream, 2)} ms, bare Node proxy ${f(proxy?.cpuMsPerStream, 2)} ms: +${f(gw?.cpuOverProxyMs, 2)} ms (paired medians of rounds; 30 deltas per stream)`,
        vsPortkeyText: '–',
      }),
    );
    const before = rows.find((r) => r.name === 'gw-before');
    if (before) {
      const vsBefore = pairedCpuRatio(R, 'gw-memory', 'gw-before');
      // Judged only against the baseline commit; with make bench-ab the other build is whatever REF was.
      const baseline = results.beforeIsBaseline === true;
      out.budgets.push(
        budget('serve-vs-baseline', vsBefore, {
          judged: baseline,
          vsDirectText: `CPU per stream gw ${f(gw?.cpuMsPerStream, 2)} ms, ${baseline ? '11bec4b' : (results.beforeCommit ?? 'the other build')} ${f(before.cpuMsPerStream, 2)} ms (paired medians of rounds)`,
          vsPortkeyText: '–',
        }),
      );
    }
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
    // Issue 26 point 3: the same processor driven as Envoy does with the observing filter, paired with
    // today's protocol (gw-extproc) round by round.
    const observeRatio = (c) =>
      R[0][`gw-extproc-observe@${c}`]
        ? median(
            R.map((r) => {
              const per = (x) => (proc(x)?.cpuMs ?? NaN) / (x?.streams || NaN);
              return per(r[`gw-extproc-observe@${c}`]) / per(r[`gw-extproc@${c}`]);
            }),
          )
        : null;
    const ob1 = rows.find((r) => r.key === 'gw-extproc-observe@1');
    const ob16 = rows.find((r) => r.key === 'gw-extproc-observe@16');
    if (ob16) {
      out.budgets.push(
        budget('extproc-observe-cpu', observeRatio(16), {
          vsDirectText: `observed ${f(ob16?.cpuUsPerExchange, 0)} µs, today's ${f(gw16?.cpuUsPerExchange, 0)} µs per exchange at 16 streams; at 1 stream ${f(ob1?.cpuUsPerExchange, 0)} against ${f(gw1?.cpuUsPerExchange, 0)} µs (${fr(observeRatio(1))}). No response chunk waits on the processor: Envoy sends each on at once (docs/extproc.md)`,
          vsPortkeyText: '–',
        }),
      );
    }
    out.budgets.push(
      budget('extproc-request-phase', gw1?.requestPhaseVsBaseline, {
        vsDirectText: `gw ${f(gw1?.requestPhaseP50)} ms, baseline ${f(b1?.requestPhaseP50)} ms, floor ${f(fl1?.requestPhaseP50)} ms (request_headers sent → request_body answered); at 16 streams ${fr(gw16?.requestPhaseVsBaseline)}`,
        vsPortkeyText: '–',
      }),
    );
    out.budgets.push(
      budget('rss-idle-extproc', s.s5.scenario.idleRssMB, { vsDirectText: '–', vsPortkeyText: '–' }),
      budget('rss-after-load-extproc', s.s5.scenario.warmedProcessor?.rssAfterMB ?? s.s5.scenario.rssAfterLoadMB, {
        vsDirectText: s.s5.scenario.warmedProcessor
          ? `fresh ${f(s.s5.scenario.idleRssMB, 1)} MB; 10 s after ${s.s5.scenario.warmedProcessor.exchanges.toLocaleString('en-US')} exchanges ${f(s.s5.scenario.warmedProcessor.rssAfterMB, 1)} MB. The processor of the rounds, 10 s after serving them (${(s.s5.scenario.exchangesServed ?? 0).toLocaleString('en-US')} measured exchanges and their warm-ups, each one's usage record kept in memory until exported): ${f(s.s5.scenario.rssAfterLoadMB, 1)} MB`
          : `fresh ${f(s.s5.scenario.idleRssMB, 1)} MB; ${f(s.s5.scenario.rssAfterCollectionMB, 1)} MB ${s.s5.scenario.rssAfterCollectionAtS ?? 32} s after`,
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
      budget('rss-idle-serve', s.s6.scenario.gwIdleRssMB, { vsDirectText: '–', vsPortkeyText: '–' }),
      budget('rss-after-load-serve', s.s6.scenario.gwRssAfterLoadMB, {
        vsDirectText: `fresh ${f(s.s6.scenario.gwIdleRssMB, 1)} MB; 10 s after ${s.s6.scenario.streams.toLocaleString('en-US')} streams closed; ${f(s.s6.scenario.gwRssAfterCollectionMB, 1)} MB ${s.s6.scenario.gwRssAfterCollectionAtS ?? 32} s after`,
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
