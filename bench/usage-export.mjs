#!/usr/bin/env node
// Usage exporter throughput (issue: every request's record in PostgreSQL). Starts a real
// redis-server and a real PostgreSQL (fsync on, as in production) in temp directories, lets
// the data plane's own RedisState write N records into the per-company streams, then runs the
// built UsageExporter (Redis stream consumer group -> PostgreSQL) until every record is stored,
// and reports records/s together with the CPU the exporter process, PostgreSQL and Redis spent
// per 1,000 records (the machine this runs on is shared, so wall-clock alone says little).
// Meanwhile a probe writes one record at a time (as a request's end does) and its latency is
// compared with the exporter idle and busy: the data plane never waits on PostgreSQL, but it
// shares Redis and, with the exporter in-process as in `gw serve`, the event loop.
// Prints one JSON line. Needs `npm run build`.
// Then the data plane's request latency through a real gw serve, with no exporter, with gw serve's own
// exporter thread and with gw export-usage draining a backlog (see dataPlaneLatency below).
//   node bench/usage-export.mjs [--records N] [--batch N] [--pg-locale en_US.UTF-8] [--latency-rounds 3] [--backlog 100000] [--no-data-plane]
// --pg-locale: the PostgreSQL server's locale (initdb --locale; compiled into the server's directory if missing here);
// by default initdb's, from this environment.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuMsWithChildren as cpuMs } from './lib/procfs.mjs';
import { benchUsageRecord } from './lib/usage-record.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = (p) => import(join(ROOT, 'dist', p));
const { connectRedis } = await dist('state/redis/connect.js');
const { RedisState } = await dist('state/redis/redis-state.js');
const { RedisUsageSource, RedisExportLease } = await dist('state/redis/usage-stream-source.js');
const { SecretBox } = await dist('state/secret-box.js');
const { UsageExporter } = await dist('usage/export/exporter.js');
const { children, dirs, freePort, startPostgres, waitPort } = await import('./lib/bench-postgres.mjs');
const { migrate } = await dist('usage/postgres/migrations.js');
const { PgUsageStore } = await dist('usage/postgres/pg-usage-store.js');

const argIndex = process.argv.indexOf('--records');
const N = argIndex === -1 ? 200_000 : Number(process.argv[argIndex + 1]);
const COMPANIES = 4;
const batchIndex = process.argv.indexOf('--batch');
const BATCH = batchIndex === -1 ? 2_000 : Number(process.argv[batchIndex + 1]);
const localeIndex = process.argv.indexOf('--pg-locale');
const PG_LOCALE = localeIndex === -1 ? undefined : process.argv[localeIndex + 1];

async function startRedis() {
  const dir = mkdtempSync(join(tmpdir(), 'gw-bench-redis-'));
  dirs.push(dir);
  const port = await freePort();
  const server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  children.push(server);
  await waitPort(port);
  return { url: `redis://127.0.0.1:${port}`, pid: server.pid };
}

const record = (company, i) => benchUsageRecord(company, i, new Date(Date.now() - (N - i) * 10).toISOString());

const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

const cpuNow = () => {
  const self = process.cpuUsage();
  return { exporter: (self.user + self.system) / 1000, postgres: cpuMs(pg.pid, true), redis: cpuMs(redisPid, false) };
};
const loadAverage = () => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);

const [pg, { url: redisUrl, pid: redisPid }] = await Promise.all([startPostgres({ locale: PG_LOCALE }), startRedis()]);
await migrate(pg.pool);
const redis = connectRedis(redisUrl);
const state = new RedisState(redis, new SecretBox(randomBytes(32)));
await state.ready();
const companies = Array.from({ length: COMPANIES }, (_, i) => `bench${i}`);
// Make the streams known and marked exported before the load (nothing may be trimmed).
for (const c of companies) await state.recordUsage(record(c, 0));
const exporterRedis = connectRedis(redisUrl);
while (exporterRedis.status !== 'ready') await new Promise((r) => setTimeout(r, 20));
const source = new RedisUsageSource(exporterRedis);
await source.next(0).catch(() => null);
await source.backlog();

async function fill(count) {
  const all = Array.from({ length: count }, (_, i) => record(companies[i % COMPANIES], i));
  for (let i = 0; i < all.length; i += 500) await Promise.all(all.slice(i, i + 500).map((r) => state.recordUsage(r)));
}

// One record at a time with a pause between, as the end of a request writes it; latencies in ms.
const PROBE_PAUSE_MS = 5;
let probed = 0;
function probe() {
  const latencies = [];
  let running = true;
  const done = (async () => {
    for (let i = 0; running; i++) {
      const t = performance.now();
      await state.recordUsage(record(companies[i % COMPANIES], i));
      latencies.push(performance.now() - t);
      probed++;
      await new Promise((r) => setTimeout(r, PROBE_PAUSE_MS));
    }
  })();
  return async () => {
    running = false;
    await done;
    return latencies;
  };
}
const summary = (xs) => ({ samples: xs.length, p50: Number(percentile(xs, 50).toFixed(3)), p99: Number(percentile(xs, 99).toFixed(3)), max: Number(Math.max(...xs).toFixed(3)) });

const store = new PgUsageStore(pg.pool);
let insertMs = 0;
const sink = {
  prepare: async () => {},
  // With the records' texts as the Redis source read them, as gw export-usage passes them (without, the store writes each record out again).
  insert: async (r, texts) => {
    const t = performance.now();
    const n = await store.insert(r, texts);
    insertMs += performance.now() - t;
    return n;
  },
  refusal: (e) => store.refusal(e),
  saveTimeZones: (z) => store.saveTimeZones(z),
  deleteOlderThan: (d) => store.deleteOlderThan(d),
};
let exported = 0;
const observer = { exported: (n) => (exported += n), backlog: () => {}, active: () => {}, failed: (stage, e) => console.error(`export ${stage}: ${e.message}`) };

// Phase 1: the data plane writes N records while no exporter runs; the probe measures the idle latency.
await fill(N);
// The probe's own CPU (this process and Redis) per write, measured while it runs alone: the drain's figures below
// include the probe's writes, so the report also gives them net of it.
const idleCpu0 = cpuNow();
const idleProbed0 = probed;
const stopIdleProbe = probe();
await new Promise((r) => setTimeout(r, 5_000));
const idleLatencies = await stopIdleProbe();
const idleCpu1 = cpuNow();
const probeWritesIdle = probed - idleProbed0;
const waiting = N + COMPANIES + probed;

// Phase 2: the exporter drains them (throughput = records / drain time) while the probe keeps writing.
const exporter = new UsageExporter(source, sink, new RedisExportLease(exporterRedis, 15_000), observer, { batchSize: BATCH, idleMs: 20 });
const load0 = loadAverage();
const cpu0 = cpuNow();
const t0 = performance.now();
const probed0 = probed;
const stopBusyProbe = probe();
exporter.start();
while (exported < waiting) await new Promise((r) => setTimeout(r, 20));
const drainSeconds = (performance.now() - t0) / 1000;
const cpu1 = cpuNow();
const probeWritesBusy = probed - probed0;
const drained = exported;
const busyLatencies = await stopBusyProbe();
const load1 = loadAverage();
while (exported < N + COMPANIES + probed) await new Promise((r) => setTimeout(r, 20));
await exporter.stop(0);
const per1k = (what) => Number((((cpu1[what] - cpu0[what]) / drained) * 1000).toFixed(1));
const result = {
  records: N,
  companies: COMPANIES,
  batchSize: BATCH,
  postgresFsync: true,
  postgresCollation: (await pg.pool.query('SELECT datcollate FROM pg_database WHERE datname = current_database()')).rows[0].datcollate,
  loadAverage: [load0, load1],
  drainSeconds: Number(drainSeconds.toFixed(2)),
  postgresInsertSeconds: Number((insertMs / 1000).toFixed(2)),
  recordsPerSecond: Math.round(waiting / drainSeconds),
  cpuMsPer1000Records: { exporter: per1k('exporter'), postgres: per1k('postgres'), redis: per1k('redis') },
  recordUsageMs: { exporterIdle: summary(idleLatencies), exporterBusy: summary(busyLatencies), probePauseMs: PROBE_PAUSE_MS },
  stored: await store.count(),
};
result.cpuMsPer1000Records.total = Number((result.cpuMsPer1000Records.exporter + result.cpuMsPer1000Records.postgres + result.cpuMsPer1000Records.redis).toFixed(1));
// What the probe's writes during the drain cost at their idle rate, per 1,000 records drained, and the figures without it.
const probeShare = (what) => ((idleCpu1[what] - idleCpu0[what]) / Math.max(1, probeWritesIdle)) * probeWritesBusy;
result.probe = {
  writesIdle: probeWritesIdle,
  writesDuringDrain: probeWritesBusy,
  cpuMsPer1000Records: { exporter: Number(((probeShare('exporter') / drained) * 1000).toFixed(1)), redis: Number(((probeShare('redis') / drained) * 1000).toFixed(1)) },
};
{
  const net = (what) => Number((((cpu1[what] - cpu0[what] - (what === 'postgres' ? 0 : probeShare(what))) / drained) * 1000).toFixed(1));
  const n = { exporter: net('exporter'), postgres: net('postgres'), redis: net('redis') };
  result.cpuMsPer1000RecordsNetOfProbe = { ...n, total: Number((n.exporter + n.postgres + n.redis).toFixed(1)) };
}
await exporterRedis.quit().catch(() => {});
if (!process.argv.includes('--no-data-plane')) result.dataPlane = await dataPlaneLatency();
console.log(JSON.stringify(result));
redis.disconnect();
await pg.pool.end();
process.exit(0);

// Part two: the data plane's request latency, measured through real HTTP requests to a real
// `gw serve --redis` process from a separate load process (bench/usage-export-load.mjs), while
// (a) no exporter runs, (b) gw serve's own exporter (--postgres: its worker thread) drains a
// backlog, (c) `gw export-usage` as a process of its own drains the same backlog. The modes are
// interleaved in rotating order over several rounds; within each round the deltas to (a) pair
// up. Nothing is pinned to a CPU: the processes share the machine as they would on one node.
async function dataPlaneLatency() {
  const { writeGatewayFile } = await import('./lib/systems.mjs');
  const GW = join(ROOT, 'dist', 'cli', 'main.js');
  const roundsIndex = process.argv.indexOf('--latency-rounds');
  const ROUNDS = roundsIndex === -1 ? 3 : Number(process.argv[roundsIndex + 1]);
  const backlogIndex = process.argv.indexOf('--backlog');
  const BACKLOG = backlogIndex === -1 ? 100_000 : Number(process.argv[backlogIndex + 1]);
  const IDLE_WINDOW_MS = 15_000;
  const encryptionKey = randomBytes(32).toString('base64');

  const mock = spawn(process.execPath, [join(ROOT, 'bench', 'mock-provider.mjs'), '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(mock);
  const mockUrl = await firstJsonLine(mock, 'listening');
  await fetch(`${mockUrl}/__bench/config`, { method: 'POST', body: JSON.stringify({ events: 1, spacingMs: 0 }) });
  const { file, token } = writeGatewayFile('usage-export-latency', mockUrl, { secretScanning: false });

  const lineFrom = (child, text) =>
    new Promise((resolve, reject) => {
      let out = '';
      const take = (chunk) => {
        out += chunk.toString();
        if (out.includes(text)) resolve();
      };
      child.stdout.on('data', take);
      child.stderr.on('data', take);
      child.once('exit', (code) => reject(new Error(`exited ${code} before "${text}": ${out.slice(-2000)}`)));
    });
  const serveEnv = { ...process.env, GW_ENCRYPTION_KEY: encryptionKey, GW_LOG_LEVEL: 'warn' };
  delete serveEnv.GW_ADMIN_TOKEN;
  async function startServe(withPostgres) {
    const [port, adminPort] = [await freePort(), await freePort()];
    const args = [GW, 'serve', '-f', file, '--host', '127.0.0.1', '--port', String(port), '--admin-host', '127.0.0.1', '--admin-port', String(adminPort), '--redis', redisUrl];
    if (withPostgres) args.push('--postgres', pg.url);
    const child = spawn(process.execPath, ['--max-semi-space-size=2', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: serveEnv });
    children.push(child);
    await lineFrom(child, 'gw serve: listening');
    return { child, url: `http://127.0.0.1:${port}` };
  }
  async function startExportUsage() {
    const adminPort = await freePort();
    const child = spawn(process.execPath, [GW, 'export-usage', '--redis', redisUrl, '--postgres', pg.url, '--admin-port', String(adminPort)], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, GW_LOG_LEVEL: 'warn' },
    });
    children.push(child);
    return child;
  }
  const stop = async (child) => {
    if (child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
  };
  const benchStreams = companies.map((c) => `gw:{${c}}:usage`);
  const waitingInRedis = async () => {
    let n = 0;
    for (const key of benchStreams) n += await redis.xlen(key);
    return n;
  };
  const HOLD = 'bench-holds-the-lease';

  async function oneMode(mode) {
    // Held so that (b)'s thread stands by until the window opens; (a) and (c) have no exporter in gw.
    await redis.set('gw:usage-exporter', HOLD, 'PX', 600_000);
    const gw = await startServe(mode === 'b');
    if (mode !== 'a') await fill(BACKLOG);
    const load = spawn(process.execPath, [join(ROOT, 'bench', 'usage-export-load.mjs'), '--url', gw.url, '--token', token], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(load);
    await firstJsonLine(load, 'listening');
    await new Promise((r) => setTimeout(r, 2_000)); // warm-up, outside the window
    const cpu0 = cpuMs(gw.child.pid, false);
    const load0 = loadAverage();
    const from = Date.now();
    let exporterProcess = null;
    await redis.del('gw:usage-exporter');
    if (mode === 'c') exporterProcess = await startExportUsage();
    if (mode === 'a') await new Promise((r) => setTimeout(r, IDLE_WINDOW_MS));
    else while ((await waitingInRedis()) > 0) await new Promise((r) => setTimeout(r, 100));
    const to = Date.now();
    const gwCpuMs = cpuMs(gw.child.pid, false) - cpu0;
    const exporterCpuMs = exporterProcess ? cpuMs(exporterProcess.pid, false) : null;
    const load1 = loadAverage();
    const out = firstJsonLine(load, 'samples', true);
    load.kill('SIGTERM');
    const { samples, failures } = await out;
    if (exporterProcess) await stop(exporterProcess);
    await stop(gw.child);
    const inWindow = samples.filter(([at]) => at >= from && at <= to).map(([, ms]) => ms);
    const seconds = (to - from) / 1000;
    return {
      mode,
      windowSeconds: Number(seconds.toFixed(2)),
      loadAverage: [load0, load1],
      requests: inWindow.length,
      failures,
      requestMs: summary(inWindow),
      ...(mode === 'a' ? {} : { backlog: BACKLOG, recordsPerSecond: Math.round(BACKLOG / seconds) }),
      gwServeCpuMs: gwCpuMs,
      ...(exporterCpuMs === null ? {} : { exportUsageCpuMs: exporterCpuMs }),
    };
  }

  const rounds = [];
  const orders = [
    ['a', 'b', 'c'],
    ['b', 'c', 'a'],
    ['c', 'a', 'b'],
  ];
  for (let i = 0; i < ROUNDS; i++) {
    const round = {};
    for (const mode of orders[i % orders.length]) round[mode] = await oneMode(mode);
    for (const m of ['b', 'c'])
      round[m].addedMs = { p50: Number((round[m].requestMs.p50 - round.a.requestMs.p50).toFixed(3)), p99: Number((round[m].requestMs.p99 - round.a.requestMs.p99).toFixed(3)) };
    rounds.push(round);
    console.error(`s13 data plane round ${i + 1}: ${JSON.stringify(round)}`);
  }
  await stop(mock);
  const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  const mediansOf = (m, f) => Number(median(rounds.map((r) => f(r[m]))).toFixed(3));
  return {
    rounds,
    backlog: BACKLOG,
    callers: 2,
    pauseMs: 5,
    median: Object.fromEntries(
      ['a', 'b', 'c'].map((m) => [
        m,
        {
          p50: mediansOf(m, (r) => r.requestMs.p50),
          p99: mediansOf(m, (r) => r.requestMs.p99),
          ...(m === 'a' ? {} : { addedP50: mediansOf(m, (r) => r.addedMs.p50), addedP99: mediansOf(m, (r) => r.addedMs.p99), recordsPerSecond: mediansOf(m, (r) => r.recordsPerSecond) }),
        },
      ]),
    ),
  };
}

function firstJsonLine(child, field, last = false) {
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.stdout.on('data', (chunk) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop();
      for (const line of lines) {
        try {
          const parsed = JSON.parse(line);
          if (parsed[field] !== undefined) resolve(last ? parsed : parsed[field]);
        } catch {
          /* not JSON */
        }
      }
    });
    child.once('exit', (code) => reject(new Error(`exited ${code} before a line with "${field}"`)));
  });
}
