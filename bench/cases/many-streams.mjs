// s6: 1,000 concurrent slow streams through a fresh gw serve (peak RSS against the budget), beside
// the mock alone; idle RSS of the fresh process before and after.
import { AB_BIN, collectedByMs, QUICK, log, runs, sleep } from '../lib/options.mjs';
import { brief, loadJob, runLoad, strip } from '../lib/load-runner.mjs';
import { stopChild } from '../lib/processes.mjs';
import { memory } from '../lib/procfs.mjs';
import { VENDOR_KEY, requestBody } from '../lib/requests.mjs';
import { gwHeaders, startGw } from '../lib/systems.mjs';

export default {
  id: 's6',
  order: 30,
  selected: () => runs('s6'),
  async run(ctx) {
    (ctx.results.scenarios ??= {}).s6 = await manyStreams(ctx);
  },
};

async function manyStreams({ mock, memFile }) {
  const streams = QUICK ? 500 : 1000;
  const gw = await startGw('gw-c1000', 'serve', memFile.file);
  const before = AB_BIN ? await startGw('gw-c1000-before', 'serve', memFile.file, { bin: AB_BIN }) : null;
  await sleep(2000);
  const idle = memory(gw.pid);
  const list = [
    { name: 'direct', url: mock.url, headers: { 'x-api-key': VENDOR_KEY }, pids: [mock.pid] },
    ...(before ? [{ name: 'gw-before', url: before.url, headers: gwHeaders(memFile.token), pids: [before.pid, mock.pid] }] : []),
    { name: 'gw-memory', url: gw.url, headers: gwHeaders(memFile.token), pids: [gw.pid, mock.pid] },
  ];
  // 40 deltas 200 ms apart: each stream lasts about 8 s, all of them open at once after the ramp.
  const scenario = {
    id: 's6',
    title: `${streams} concurrent slow streams`,
    mode: 'concurrency',
    concurrency: streams,
    connections: streams,
    perWorker: 1,
    rampMs: 2000,
    durationMs: 30_000,
    warmupMs: 0,
    drainMs: 20_000,
    stream: true,
    body: requestBody(4096, true),
    mock: { events: 40, spacingMs: 200 },
  };
  // Warm-up: the same number of shorter streams through the gateway.
  await mock.configure({ events: 10, spacingMs: 100 });
  for (const c of list.slice(1)) {
    log(`s6: warm-up, ${streams} short streams through ${c.name}`);
    await runLoad({ ...loadJob(c, { ...scenario, mock: { events: 10 } }), durationMs: 15_000, drainMs: 15_000 }, []);
  }
  await mock.configure(scenario.mock);
  const rounds = [];
  const rssRounds = QUICK ? 1 : 2;
  let heapAtPeak = null;
  for (let r = 0; r < rssRounds; r++) {
    const round = {};
    for (const c of r % 2 === 0 ? list : [...list].reverse()) {
      await mock.configure(scenario.mock);
      // Where gw's memory is when every stream is open: its own Prometheus process metrics.
      const scrape =
        c.name === 'gw-memory' && heapAtPeak === null
          ? sleep(scenario.rampMs + 3000)
              .then(() => heapMetrics(gw.adminUrl))
              .catch(() => null)
          : null;
      round[c.name] = await runLoad({ ...loadJob(c, scenario), durationMs: scenario.durationMs }, c.pids);
      if (scrape) heapAtPeak = await scrape;
      const mockStats = await mock.stats();
      round[c.name].mockMaxOpenStreams = mockStats.maxOpenStreams;
      log(`s6: round ${r + 1}/${rssRounds} ${c.name.padEnd(12)} ${brief(round[c.name])} peak RSS ${round[c.name].procs[0]?.rssPeakMB?.toFixed(1)} MB`);
    }
    rounds.push(round);
  }
  // What the process keeps once the work is gone, 10 s after the last stream.
  await sleep(10_000);
  const afterLoad = memory(gw.pid);
  // And once the idle collection has surely run, if it waits longer than that (GW_IDLE_COLLECT_AFTER_MS).
  const collectedBy = await collectedByMs();
  await sleep(collectedBy - 10_000);
  const afterCollection = memory(gw.pid);
  await Promise.all([stopChild(gw.child), before ? stopChild(before.child) : null]);
  return {
    scenario: {
      ...strip(scenario),
      streams,
      gwIdleRssMB: idle?.rssMB ?? null,
      gwRssAfterLoadMB: afterLoad?.rssMB ?? null,
      gwRssAfterCollectionMB: afterCollection?.rssMB ?? null,
      gwRssAfterCollectionAtS: collectedBy / 1000,
    },
    heapAtPeak,
    rounds,
  };
}
export async function heapMetrics(adminUrl) {
  const text = await (await fetch(`${adminUrl}/metrics`)).text();
  const value = (name) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+]+)$`, 'm').exec(text)?.[1] ?? NaN) / 2 ** 20;
  return {
    rssMB: value('process_resident_memory_bytes'),
    heapUsedMB: value('nodejs_heap_size_used_bytes'),
    heapTotalMB: value('nodejs_heap_size_total_bytes'),
    externalMB: value('nodejs_external_memory_bytes'),
  };
}
