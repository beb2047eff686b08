#!/usr/bin/env node
// Usage exporter throughput (issue: every request's record in PostgreSQL). Starts a real
// redis-server and a real PostgreSQL (fsync on, as in production) in temp directories, lets
// the data plane's own RedisState write N records into the per-company streams, then runs the
// built UsageExporter (Redis stream consumer group -> PostgreSQL, batches of 2,000 inserted as
// up to two parts committed at once) until every
// record is stored, and reports records/s. A second phase writes records while the exporter
// drains, and compares the data plane's recordUsage latency with the exporter idle: the data
// plane never waits on PostgreSQL. Prints one JSON line. Needs `npm run build`.
//   node bench/usage-export.mjs [--records N]
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = (p) => import(join(ROOT, 'dist', p));
const { connectRedis } = await dist('state/redis/connect.js');
const { RedisState } = await dist('state/redis/redis-state.js');
const { RedisUsageSource, RedisExportLease } = await dist('state/redis/usage-stream-source.js');
const { SecretBox } = await dist('state/secret-box.js');
const { UsageExporter } = await dist('usage/export/exporter.js');
const { connectPostgres } = await dist('usage/postgres/connect.js');
const { migrate } = await dist('usage/postgres/migrations.js');
const { PgUsageStore } = await dist('usage/postgres/pg-usage-store.js');

const argIndex = process.argv.indexOf('--records');
const N = argIndex === -1 ? 200_000 : Number(process.argv[argIndex + 1]);
const COMPANIES = 4;

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
const waitPort = async (port) => {
  for (let i = 0; i < 600; i++) {
    const ok = await new Promise((r) => {
      const c = createConnection(port, '127.0.0.1');
      c.once('connect', () => (c.end(), r(true)));
      c.once('error', () => (c.destroy(), r(false)));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nothing listened on ${port}`);
};
function pgBin() {
  for (const d of ['/usr/local/bin', '/usr/bin']) if (existsSync(join(d, 'initdb'))) return d;
  const base = '/usr/lib/postgresql';
  const v = existsSync(base) ? readdirSync(base).sort((a, b) => Number(b) - Number(a))[0] : undefined;
  if (v) return join(base, v, 'bin');
  throw new Error('PostgreSQL not installed (make test-deps installs the Debian postgresql package)');
}

const children = [];
const dirs = [];
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function startPostgres() {
  const bin = pgBin();
  let ids = {};
  if (process.getuid?.() === 0) {
    const f = spawnSync('getent', ['passwd', 'postgres'], { encoding: 'utf8' }).stdout.split(':');
    ids = { uid: Number(f[2]), gid: Number(f[3]) };
  }
  const dir = mkdtempSync(join(tmpdir(), 'gw-bench-pg-'));
  dirs.push(dir);
  const password = randomBytes(8).toString('hex');
  writeFileSync(join(dir, 'pw'), `${password}\n`);
  if (ids.uid !== undefined) {
    chownSync(dir, ids.uid, ids.gid);
    chownSync(join(dir, 'pw'), ids.uid, ids.gid);
  }
  chmodSync(dir, 0o700);
  const init = spawnSync(join(bin, 'initdb'), ['-D', join(dir, 'data'), '-U', 'gw', '--auth=scram-sha-256', `--pwfile=${join(dir, 'pw')}`, '-E', 'UTF8', '--no-sync'], { cwd: dir, encoding: 'utf8', ...ids });
  if (init.status !== 0) throw new Error(init.stderr);
  const port = await freePort();
  children.push(spawn(join(bin, 'postgres'), ['-D', join(dir, 'data'), '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=on'], { cwd: dir, stdio: 'ignore', ...ids }));
  await waitPort(port);
  const url = `postgres://gw:${password}@127.0.0.1:${port}/postgres`;
  for (let i = 0; ; i++) {
    const pool = connectPostgres(url);
    try {
      await pool.query('SELECT 1');
      return { url, pool };
    } catch (e) {
      await pool.end();
      if (i > 300) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

async function startRedis() {
  const dir = mkdtempSync(join(tmpdir(), 'gw-bench-redis-'));
  dirs.push(dir);
  const port = await freePort();
  children.push(spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'], { stdio: 'ignore' }));
  await waitPort(port);
  return `redis://127.0.0.1:${port}`;
}

const record = (company, i) => ({
  request_id: `req_${randomUUID()}`,
  time: new Date(Date.now() - (N - i) * 10).toISOString(),
  company,
  address: `user${i % 50}@${company}.example`,
  endpoint: 'messages',
  model: i % 3 ? 'claude-sonnet-4-5' : 'claude-haiku-4-5',
  provider: 'vendor',
  provider_model: 'claude-sonnet-4-5-20250929',
  credential: 'main',
  input_tokens: 1000 + (i % 100),
  output_tokens: 200 + (i % 50),
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: i % 500,
  cost_usd: 0.0042,
  status: 200,
  fault: null,
  stream: true,
  duration_ms: 900,
  ttfb_ms: 300,
  outcome: 'complete',
  repo: `github.com/${company}/app${i % 5}`,
  application: 'claude-code',
});

const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

const [pg, redisUrl] = await Promise.all([startPostgres(), startRedis()]);
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

async function write(count, latencies) {
  const all = Array.from({ length: count }, (_, i) => record(companies[i % COMPANIES], i));
  for (let i = 0; i < all.length; i += 500) {
    await Promise.all(
      all.slice(i, i + 500).map(async (r) => {
        const t = performance.now();
        await state.recordUsage(r);
        latencies?.push(performance.now() - t);
      }),
    );
  }
}

const store = new PgUsageStore(pg.pool);
let insertMs = 0;
const sink = { prepare: async () => {}, insert: async (r) => { const t = performance.now(); const n = await store.insert(r); insertMs += performance.now() - t; return n; }, saveTimeZones: (z) => store.saveTimeZones(z), deleteOlderThan: (d) => store.deleteOlderThan(d) };
let exported = 0;
const observer = { exported: (n) => (exported += n), backlog: () => {}, active: () => {}, failed: (stage, e) => console.error(`export ${stage}: ${e.message}`) };

// Phase 1: the data plane writes N records; then the exporter drains them. Throughput = N / drain time.
const idleLatencies = [];
await write(N, idleLatencies);
const before = exported;
const exporter = new UsageExporter(source, sink, new RedisExportLease(exporterRedis, 15_000, undefined, () => source.restart()), observer, { batchSize: 2_000, idleMs: 20 });
const t0 = performance.now();
exporter.start();
while (exported < before + N) await new Promise((r) => setTimeout(r, 20));
const drainSeconds = (performance.now() - t0) / 1000;

// Phase 2: the data plane writes while the exporter works; its write latency is compared with phase 1.
const busyLatencies = [];
const exported2 = exported;
await write(Math.min(N, 50_000), busyLatencies);
while (exported < exported2 + Math.min(N, 50_000)) await new Promise((r) => setTimeout(r, 20));
await exporter.stop(0);
const result = {
  records: N,
  companies: COMPANIES,
  batchSize: 2_000,
  insertParts: 2,
  postgresFsync: true,
  drainSeconds: Number(drainSeconds.toFixed(2)),
  postgresInsertSeconds: Number((insertMs / 1000).toFixed(2)),
  recordsPerSecond: Math.round(N / drainSeconds),
  recordUsageMs: {
    exporterIdle: { p50: Number(percentile(idleLatencies, 50).toFixed(3)), p99: Number(percentile(idleLatencies, 99).toFixed(3)) },
    exporterBusy: { p50: Number(percentile(busyLatencies, 50).toFixed(3)), p99: Number(percentile(busyLatencies, 99).toFixed(3)) },
  },
  stored: await store.count(),
};
console.log(JSON.stringify(result));
redis.disconnect();
exporterRedis.disconnect();
await pg.pool.end();
process.exit(0);
