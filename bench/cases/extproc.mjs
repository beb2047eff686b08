// s5: the ext_proc service driven by bench/extproc-load.mjs (a recorded exchange replayed over Process
// streams as Envoy sends it) beside a bare grpc-js floor, the same answers hand-framed over
// node:http2 (what the transport alone costs) and the baseline build (main when the budgets were
// set), interleaved in the same rounds; idle RSS of a fresh gw extproc.
import { AB_COMMIT, AB_DIST, FEWER_ROUNDS, collectedByMs, SCALE, log, runs, sleep } from '../lib/options.mjs';
import { brief, runLoad } from '../lib/load-runner.mjs';
import { stopChild } from '../lib/processes.mjs';
import { memory } from '../lib/procfs.mjs';
import { recordExchange } from '../lib/recording.mjs';
import { startFloor, startGw, startHttp2Floor } from '../lib/systems.mjs';
import { BASELINE_COMMIT, baselineDist } from '../lib/baseline.mjs';
import { join } from 'node:path';

/** "A warm-up of a few thousand requests" (issue 26 point 5): half with each protocol, 16 streams at a time. */
const WARM_EXCHANGES = 4096;

export default {
  id: 's5',
  order: 20,
  usesBaseline: true,
  selected: () => runs('s5'),
  async run(ctx) {
    const { mock, memFile, results } = ctx;
    const recording = await recordExchange(mock, 30);
    log(`s5: recorded an exchange of ${recording.chunks} response body chunks`);
    const processor = await startGw('gw-extproc', 'extproc', memFile.file);
    await sleep(2000);
    const idle = memory(processor.pid);
    const floor = await startFloor();
    const http2Floor = await startHttp2Floor();
    // With --ab (make bench-ab), the other build is the one this run compares against.
    const dist = AB_DIST ?? baselineDist();
    const baseline = dist ? await startGw('gw-extproc-baseline', 'extproc', memFile.file, { bin: join(dist, 'cli', 'main.js') }) : null;
    const list = [
      { name: 'extproc-floor', target: floor.target, pids: [floor.pid] },
      { name: 'extproc-floor-http2', target: http2Floor.target, pids: [http2Floor.pid] },
      ...(baseline ? [{ name: 'gw-extproc-baseline', target: baseline.target, pids: [baseline.pid] }] : []),
      { name: 'gw-extproc', target: processor.target, pids: [processor.pid] },
      // The same processor driven as Envoy does with --observe-response-body (issue 26 point 3).
      { name: 'gw-extproc-observe', target: processor.target, pids: [processor.pid], observe: true },
    ];
    const job = (c, concurrency, durationMs, warmupMs) => ({
      kind: 'extproc',
      target: c.target,
      recording: recording.file,
      token: memFile.token,
      concurrency,
      durationMs: Math.round(durationMs * SCALE),
      warmupMs: Math.round(warmupMs * SCALE),
      ...(c.observe ? { observe: true } : {}),
    });
    for (const c of list) await runLoad(job(c, 8, 2000, 0), []);
    const out = {
      scenario: {
        id: 's5',
        title: 'ext_proc: recorded exchange replayed over Process streams',
        chunksPerStream: recording.chunks,
        concurrency: [1, 16],
        baselineCommit: baseline ? (AB_DIST ? (AB_COMMIT ?? 'the --ab build') : BASELINE_COMMIT) : null,
        idleRssMB: idle?.rssMB ?? null,
      },
      rounds: [],
    };
    for (let r = 0; r < FEWER_ROUNDS; r++) {
      const round = {};
      const order = r % 2 === 0 ? list : [...list].reverse();
      for (const concurrency of [1, 16]) {
        for (const c of order) {
          const key = `${c.name}@${concurrency}`;
          round[key] = await runLoad(job(c, concurrency, 3000, 400), c.pids);
          log(`s5: round ${r + 1}/${FEWER_ROUNDS} ${key.padEnd(24)} ${brief(round[key])}`);
        }
      }
      out.rounds.push(round);
    }
    // Idle again after the load: what the process keeps once the work is gone (the measure: 10 s idle).
    await sleep(10_000);
    out.scenario.rssAfterLoadMB = memory(processor.pid)?.rssMB ?? null;
    // And once the idle collection has surely run, if it waits longer than that (GW_IDLE_COLLECT_AFTER_MS).
    const collectedBy = await collectedByMs();
    await sleep(collectedBy - 10_000);
    out.scenario.rssAfterCollectionMB = memory(processor.pid)?.rssMB ?? null;
    out.scenario.rssAfterCollectionAtS = collectedBy / 1000;
    out.scenario.exchangesServed = out.rounds.reduce(
      (n, round) => n + (round['gw-extproc@1']?.streams ?? 0) + (round['gw-extproc@16']?.streams ?? 0) + (round['gw-extproc-observe@1']?.streams ?? 0) + (round['gw-extproc-observe@16']?.streams ?? 0),
      0,
    );
    await Promise.all([stopChild(processor.child), stopChild(floor.child), stopChild(http2Floor.child), baseline ? stopChild(baseline.child) : null]);
    // Issue 26 point 5's own measure: a processor warmed by a few thousand exchanges, then 10 s idle. The processor above
    // served every round (tens of thousands of exchanges, the more the faster it is), and with memory state each
    // exchange's usage record stays in memory by design until an exporter drains it (GW_USAGE_MEMORY_MB), so its
    // figure grows with the run's length; the report shows it beside this one.
    const warmed = await startGw('gw-extproc-warmed', 'extproc', memFile.file);
    await sleep(2000);
    for (const observe of [false, true]) {
      const warm = { kind: 'extproc', target: warmed.target, recording: recording.file, token: memFile.token, concurrency: 16, perWorker: WARM_EXCHANGES / 32, durationMs: 120_000, warmupMs: 0 };
      await runLoad(observe ? { ...warm, observe: true } : warm, [warmed.pid]);
    }
    await sleep(10_000);
    out.scenario.warmedProcessor = { exchanges: WARM_EXCHANGES, rssAfterMB: memory(warmed.pid)?.rssMB ?? null };
    await stopChild(warmed.child);
    (results.scenarios ??= {}).s5 = out;
  },
};
