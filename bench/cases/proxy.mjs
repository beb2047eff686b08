// s1–s4: gw serve (memory, Redis, scanning), the bare Node proxy floor and the peers (Portkey, LiteLLM)
// against the mock directly, interleaved over rounds in one set of long-lived processes.
import { join } from 'node:path';
import { AB_COMMIT, AB_DIST, FEWER_ROUNDS, log, runs } from '../lib/options.mjs';
import { BASELINE_COMMIT, baselineDist } from '../lib/baseline.mjs';
import { interleaved, strip } from '../lib/load-runner.mjs';
import { stopChild } from '../lib/processes.mjs';
import { VENDOR_KEY, requestBody } from '../lib/requests.mjs';
import { gwHeaders, startGw, startNodeProxy, startRedis } from '../lib/systems.mjs';
import { startPeers } from '../lib/peers.mjs';
import { passed, verifyCases } from '../lib/verify.mjs';

const BODY_BYTES = 4096;

export default {
  id: 'proxy',
  order: 10,
  usesPeers: true,
  usesBaseline: true,
  selected: () => ['s1', 's2', 's3', 's4'].some(runs),
  async run(ctx) {
    const { mock, memFile, scanFile, results } = ctx;
    const redis = await startRedis();
    if (redis) log(`redis-server on ${redis.url} (pid ${redis.pid})`);
    const sut = {};
    sut.proxy = await startNodeProxy(mock.url);
    sut.memory = await startGw('gw-memory', 'serve', memFile.file);
    // gw-before: the --ab build (make bench-ab), else the baseline 11bec4b, so that every run has
    // gw serve against the commit issue 26 point 1 is judged by, in the same rounds.
    const beforeDist = AB_DIST ?? baselineDist();
    if (beforeDist) sut.before = await startGw('gw-before', 'serve', memFile.file, { bin: join(beforeDist, 'cli', 'main.js') });
    results.beforeCommit = sut.before ? (AB_DIST ? (AB_COMMIT ?? 'the --ab build') : BASELINE_COMMIT) : null;
    results.beforeIsBaseline = sut.before !== undefined && AB_DIST === null;
    if (redis) sut.redis = await startGw('gw-redis', 'serve', memFile.file, { redisUrl: redis.url });
    sut.scan = await startGw('gw-scan', 'serve', scanFile.file);
    const peers = await startPeers(mock);
    results.peer = ctx.peerVersions.portkey;
    results.litellm = ctx.peerVersions.litellm;
    results.redis = redis ? { args: redis.args } : null;

    const cases = {
      direct: { name: 'direct', url: mock.url, headers: { 'x-api-key': VENDOR_KEY }, pids: [mock.pid] },
      'node-proxy': { name: 'node-proxy', url: sut.proxy.url, headers: { 'x-api-key': VENDOR_KEY }, pids: [sut.proxy.pid, mock.pid] },
      ...(sut.before ? { 'gw-before': { name: 'gw-before', url: sut.before.url, headers: gwHeaders(memFile.token), pids: [sut.before.pid, mock.pid] } } : {}),
      'gw-memory': { name: 'gw-memory', url: sut.memory.url, headers: gwHeaders(memFile.token), pids: [sut.memory.pid, mock.pid] },
      ...(sut.redis ? { 'gw-redis': { name: 'gw-redis', url: sut.redis.url, headers: gwHeaders(memFile.token), pids: [sut.redis.pid, mock.pid, redis.pid] } } : {}),
      'gw-scan': { name: 'gw-scan', url: sut.scan.url, headers: gwHeaders(scanFile.token), pids: [sut.scan.pid, mock.pid] },
      ...peers.cases,
    };
    const pids = [mock.pid, ...Object.values(sut).map((s) => s.pid), ...(redis ? [redis.pid] : []), ...peers.processes.map((p) => p.pid)];
    const verification = await verifyCases(mock, Object.values(cases), pids);
    results.verification = verification;
    if (!verification.allLoopback) throw new Error(`a listener is not on loopback: ${JSON.stringify(verification.sockets)}`);
    for (const peer of ['portkey', 'litellm']) {
      if (cases[peer] && !passed(verification.requests[peer])) {
        log(`${peer} did not pass the setup checks; left out of the measurements`);
        delete cases[peer];
      }
    }

    const pick = (names) => names.filter((n) => cases[n]).map((n) => cases[n]);
    const all = ['direct', 'node-proxy', 'gw-before', 'gw-memory', 'gw-redis', 'gw-scan', 'portkey', 'litellm'];
    // LiteLLM serves tens of requests a second on one core: an open loop at 500 req/s only builds a
    // queue, so it runs in the closed-loop scenarios (s2, s3, and the curves of s9).
    const openLoop = all.filter((n) => n !== 'litellm');
    const s = (results.scenarios ??= {});
    if (runs('s1')) {
      const scenario = {
        id: 's1',
        title: 'Non-streaming, open loop at 500 req/s',
        mode: 'rate',
        rate: 500,
        connections: 64,
        durationMs: 2500,
        prewarmMs: 1500,
        stream: false,
        body: requestBody(BODY_BYTES, false),
        mock: { events: 20, spacingMs: 5 },
      };
      s.s1 = { scenario: strip(scenario), rounds: await interleaved(mock, scenario, pick(openLoop)) };
    }
    if (runs('s2')) {
      const scenario = {
        id: 's2',
        title: 'Streaming latency: 8 concurrent streams, 20 deltas 5 ms apart',
        mode: 'concurrency',
        concurrency: 8,
        connections: 8,
        durationMs: 2500,
        prewarmMs: 1500,
        stream: true,
        body: requestBody(BODY_BYTES, true),
        mock: { events: 20, spacingMs: 5 },
      };
      s.s2 = { scenario: strip(scenario), rounds: await interleaved(mock, scenario, pick(all)) };
    }
    if (runs('s3')) {
      const scenario = {
        id: 's3',
        title: 'Streaming throughput: 32 concurrent streams, 30 deltas back to back',
        mode: 'concurrency',
        concurrency: 32,
        connections: 32,
        durationMs: 2500,
        prewarmMs: 1500,
        stream: true,
        eventTiming: false,
        body: requestBody(BODY_BYTES, true),
        mock: { events: 30, spacingMs: 0 },
      };
      s.s3 = { scenario: strip(scenario), rounds: await interleaved(mock, scenario, pick(all)) };
    }
    if (runs('s4')) {
      const scenario = {
        id: 's4',
        title: 'Non-streaming, 100 KiB Claude Code-sized bodies, open loop at 100 req/s',
        mode: 'rate',
        rate: 100,
        connections: 32,
        durationMs: 3000,
        prewarmMs: 1500,
        stream: false,
        body: requestBody(100 * 1024, false),
        mock: { events: 20, spacingMs: 5 },
      };
      s.s4 = { scenario: strip(scenario), rounds: await interleaved(mock, scenario, pick(['direct', 'gw-memory', 'gw-scan', 'portkey']), FEWER_ROUNDS) };
    }
    await Promise.all([...Object.values(sut).map((x) => stopChild(x.child)), ...peers.processes.map((p) => stopChild(p.child)), redis ? stopChild(redis.child) : null]);
  },
};
