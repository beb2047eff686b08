#!/usr/bin/env node
// What the daily-totals triggers (gw_usage_daily, src/usage/postgres/rollup.ts) cost the exporter's insert:
// 3 rounds of 25 batches of 2,000 records (20 companies, 4 time zones) through PgUsageStore.insert into a real
// PostgreSQL, with the triggers disabled and enabled in turn. Prints records per second. Needs `npm run build`.
//   node bench/usage-rollup-insert-cost.mjs
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = (p) => import(join(ROOT, 'dist', p));
const { connectPostgres } = await dist('usage/postgres/connect.js');
const { migrate } = await dist('usage/postgres/migrations.js');

const children = [];
const dirs = [];
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
const waitPort = async (port) => {
  for (let i = 0; i < 1200; i++) {
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

async function startPostgres() {
  const bin = pgBin();
  let ids = {};
  if (process.getuid?.() === 0) {
    const f = spawnSync('getent', ['passwd', 'postgres'], { encoding: 'utf8' }).stdout.split(':');
    ids = { uid: Number(f[2]), gid: Number(f[3]) };
  }
  const dir = mkdtempSync(join(tmpdir(), 'gw-bench-console-pg-'));
  dirs.push(dir);
  const password = randomBytes(8).toString('hex');
  writeFileSync(join(dir, 'pw'), `${password}\n`);
  if (ids.uid !== undefined) {
    chownSync(dir, ids.uid, ids.gid);
    chownSync(join(dir, 'pw'), ids.uid, ids.gid);
  }
  chmodSync(dir, 0o700);
  const init = spawnSync(join(bin, 'initdb'), ['-D', join(dir, 'data'), '-U', 'gw', '--auth=scram-sha-256', `--pwfile=${join(dir, 'pw')}`, '-E', 'UTF8', '--no-sync'], {
    cwd: dir,
    encoding: 'utf8',
    ...ids,
  });
  if (init.status !== 0) throw new Error(init.stderr);
  const port = await freePort();
  // PostgreSQL's defaults otherwise (shared_buffers 128 MB): what a small install has.
  const server = spawn(join(bin, 'postgres'), ['-D', join(dir, 'data'), '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1'], { cwd: dir, stdio: 'ignore', ...ids });
  children.push(server);
  await waitPort(port);
  for (let i = 0; ; i++) {
    const pool = connectPostgres(`postgres://gw:${password}@127.0.0.1:${port}/postgres`);
    try {
      await pool.query('SELECT 1');
      return { pool, password, urlWithoutPassword: `postgres://gw@127.0.0.1:${port}/postgres` };
    } catch (e) {
      await pool.end();
      if (i > 300) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

const { PgUsageStore } = await dist('usage/postgres/pg-usage-store.js');
const pg = await startPostgres();
await migrate(pg.pool);
await pg.pool.query("INSERT INTO gw_usage_company (company, time_zone) SELECT 'c' || g, (ARRAY['UTC','Europe/Paris','Asia/Kolkata','America/New_York'])[1 + g % 4] FROM generate_series(0, 19) g");
const store = new PgUsageStore(pg.pool, 2);
let seq = 0;
const batch = (n) =>
  Array.from({ length: n }, () => {
    const i = seq++;
    return {
      request_id: `req_${String(i).padStart(10, '0')}`,
      time: new Date(Date.UTC(2026, 9, 1) + i * 2_000).toISOString(),
      company: `c${i % 20}`,
      address: `user${i % 200}@x.example`,
      endpoint: 'messages',
      model: ['claude-sonnet-4-5', 'claude-haiku-4-5', 'claude-opus-4-1'][i % 3],
      requested_model: 'claude-sonnet-4-5',
      provider: i % 4 ? 'vendor' : 'provider_a',
      provider_model: 'm',
      credential: 'main',
      input_tokens: 1000 + (i % 977),
      output_tokens: 200 + (i % 331),
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: i % 500,
      cost_usd: (100 + ((i * 7919) % 50000)) / 1e6,
      status: 200,
      fault: null,
      stream: true,
      duration_ms: 900,
      ttfb_ms: 300,
      outcome: 'complete',
      repo: `github.com/x/app${i % 20}`,
      application: ['claude-code', 'ci'][i % 2],
      end_user: `end-user-${i % 1000}`,
    };
  });
const out = {};
for (const round of [1, 2, 3]) {
  for (const mode of ['without triggers', 'with triggers']) {
    await pg.pool.query(`ALTER TABLE gw_usage ${mode === 'with triggers' ? 'ENABLE' : 'DISABLE'} TRIGGER USER`);
    const batches = Array.from({ length: 25 }, () => batch(2000));
    const t0 = process.hrtime.bigint();
    for (const b of batches) await store.insert(b);
    const s = Number(process.hrtime.bigint() - t0) / 1e9;
    (out[mode] ??= []).push(Math.round(50_000 / s));
    process.stderr.write(`round ${round} ${mode}: ${Math.round(50_000 / s)} records/s\n`);
  }
}
await pg.pool.query('ALTER TABLE gw_usage ENABLE TRIGGER USER');
console.log(JSON.stringify({ recordsPerSecond: out, loadAverage: (await import('node:os')).loadavg() }));
await pg.pool.end();
process.exit(0);
