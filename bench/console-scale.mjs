#!/usr/bin/env node
// The owner console at scale (issue 25): 1,000,000 usage records of one company in a real
// PostgreSQL, loaded in one INSERT … SELECT over generate_series (server-side, not a row at a
// time), all in one calendar month of the company's time zone; then a real `gw serve` with that
// PostgreSQL behind it, signed in to its console like a browser, and the time each console API
// call takes on loopback (what the server spends, plus one local HTTP round trip):
//   - Usage for the whole month, by day, for each grouping (goal ≤ 300 ms),
//   - a Logs page, newest first and most expensive first, the first page and a page deep in the
//     month through the keyset cursor, and one filtered by address (goal ≤ 200 ms);
// and the gzipped size of every JavaScript and CSS file the console ships (goal ≤ 150 KB).
// Each call is made once cold and then RUNS times; the median is judged, the worst is shown.
// Prints one JSON line. Needs `npm run build`.
//   node bench/console-scale.mjs [--records 1000000] [--runs 9]
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = (p) => import(join(ROOT, 'dist', p));
const { connectPostgres } = await dist('usage/postgres/connect.js');
const { migrate } = await dist('usage/postgres/migrations.js');
const { encodeCursor } = await dist('usage/query-params.js');

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const N = arg('--records', 1_000_000);
const RUNS = arg('--runs', 9);
const COMPANY = 'bench';
const ZONE = 'Europe/Paris';
// October 2026 in Paris: 2026-10-01T00:00+02:00 to 2026-11-01T00:00+01:00.
const FROM = '2026-09-30T22:00:00.000Z';
const TO = '2026-10-31T23:00:00.000Z';
const ADMIN_TOKEN = randomBytes(24).toString('hex');

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

/** 1,000,000 rows in one statement, generated by PostgreSQL itself, spread evenly over the month. */
async function load(pool) {
  const started = Date.now();
  await pool.query(
    `INSERT INTO gw_usage (request_id, time, company, address, model, provider, repo, application, end_user,
       input_tokens, output_tokens, cache_creation_input_tokens, cache_read_input_tokens, cost_micros, status, record)
     SELECT r.request_id, r.time, $1, r.address, r.model, r.provider, r.repo, r.application, r.end_user,
       r.input_tokens, r.output_tokens, 0, r.cache_read, r.cost_micros, 200,
       json_build_object('request_id', r.request_id, 'time', to_char(r.time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'company', $1::text,
         'address', r.address, 'endpoint', 'messages', 'model', r.model, 'requested_model', r.model, 'provider', r.provider,
         'provider_model', r.model, 'credential', 'main', 'input_tokens', r.input_tokens, 'output_tokens', r.output_tokens,
         'cache_creation_input_tokens', 0, 'cache_read_input_tokens', r.cache_read, 'cost_usd', r.cost_micros / 1e6,
         'status', 200, 'fault', NULL, 'stream', true, 'duration_ms', 900, 'ttfb_ms', 300, 'outcome', 'complete',
         'repo', r.repo, 'application', r.application, 'end_user', r.end_user)
     FROM (
       SELECT 'req_' || lpad(g::text, 9, '0') AS request_id,
         $2::timestamptz + (g - 0.5) * (($3::timestamptz - $2::timestamptz) / $4::int) AS time,
         'user' || (g % 200) || '@bench.example' AS address,
         (ARRAY['claude-sonnet-4-5', 'claude-haiku-4-5', 'claude-opus-4-1'])[1 + g % 3] AS model,
         CASE WHEN g % 4 = 0 THEN 'provider_a' ELSE 'vendor' END AS provider,
         'github.com/bench/app' || (g % 20) AS repo,
         (ARRAY['claude-code', 'ci', 'notebook', 'support-bot'])[1 + g % 4] AS application,
         'end-user-' || (g % 1000) AS end_user,
         1000 + g % 977 AS input_tokens, 200 + g % 331 AS output_tokens, g % 500 AS cache_read,
         100 + (g::bigint * 7919) % 50000 AS cost_micros
       FROM generate_series(1, $4::int) AS g) r`,
    [COMPANY, FROM, TO, N],
  );
  await pool.query(`INSERT INTO gw_usage_company (company, time_zone) VALUES ($1, $2) ON CONFLICT (company) DO UPDATE SET time_zone = EXCLUDED.time_zone`, [COMPANY, ZONE]);
  const loadMs = Date.now() - started;
  // What autovacuum would have done by the time a month of records is there: statistics and the visibility map.
  await pool.query('VACUUM ANALYZE gw_usage, gw_usage_daily');
  return { loadMs, vacuumMs: Date.now() - started - loadMs };
}

async function startGateway(pg) {
  const dir = mkdtempSync(join(tmpdir(), 'gw-bench-console-'));
  dirs.push(dir);
  const file = join(dir, 'resources.yaml');
  writeFileSync(
    file,
    `apiVersion: gw.io/v1alpha1
kind: GatewaySettings
metadata: {name: settings, namespace: ${COMPANY}}
spec:
  tokenDomain: bench.example
  spendLimits: {timeZone: ${ZONE}}
`,
  );
  const [port, adminPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'cli', 'main.js'), 'serve', '-f', file, '--port', String(port), '--admin-port', String(adminPort)], {
    env: { ...process.env, GW_ADMIN_TOKEN: ADMIN_TOKEN, GW_POSTGRES_URL: pg.urlWithoutPassword, PGPASSWORD: pg.password, GW_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  await waitPort(adminPort);
  return `http://127.0.0.1:${adminPort}`;
}

async function signIn(admin) {
  const res = await fetch(`${admin}/console/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: admin, 'x-gw-console': '1' },
    body: JSON.stringify({ token: ADMIN_TOKEN }),
  });
  if (res.status !== 200) throw new Error(`sign-in answered ${res.status}`);
  return res.headers.get('set-cookie').split(';')[0];
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x) => Math.round(x * 10) / 10;

/** One console API call: its time, once cold and RUNS times warm, and a check of what it answered. */
async function timed(admin, cookie, path, check) {
  const once = async () => {
    const t0 = process.hrtime.bigint();
    const res = await fetch(`${admin}/console/api/${path}`, { headers: { cookie } });
    const body = await res.json();
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(body)}`);
    check(body);
    return ms;
  };
  const cold = await once();
  const warm = [];
  for (let i = 0; i < RUNS; i++) warm.push(await once());
  return { cold: round(cold), median: round(median(warm)), max: round(Math.max(...warm)) };
}

function shippedAssets() {
  const dir = join(ROOT, 'dist', 'console');
  const files = [];
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (/\.(js|css)$/.test(entry.name)) files.push(p);
    }
  };
  walk(dir);
  // Each file as a server would gzip it on its own (level 9), summed.
  const gzipBytes = files.reduce((sum, f) => sum + gzipSync(readFileSync(f), { level: 9 }).length, 0);
  const rawBytes = files.reduce((sum, f) => sum + readFileSync(f).length, 0);
  return { files: files.length, rawBytes, gzipBytes };
}

const pg = await startPostgres();
await migrate(pg.pool);
const loaded = await load(pg.pool);
const rows = Number((await pg.pool.query('SELECT count(*) AS n FROM gw_usage WHERE company = $1', [COMPANY])).rows[0].n);
if (rows !== N) throw new Error(`loaded ${rows} rows, not ${N}`);
// The cursors of pages deep in the month: the record 90 % of the way down each order.
const deep = {};
for (const order of ['time', 'cost']) {
  const by = order === 'cost' ? 'cost_micros DESC, time DESC, request_id COLLATE "C"' : 'time DESC, request_id COLLATE "C"';
  const { rows: r } = await pg.pool.query(`SELECT record FROM gw_usage WHERE company = $1 ORDER BY ${by} OFFSET $2 LIMIT 1`, [COMPANY, Math.floor(N * 0.9)]);
  const rec = r[0].record;
  deep[order] = encodeCursor({ time: rec.time, request_id: rec.request_id, cost_micros: Math.round(rec.cost_usd * 1e6) });
}
if (process.argv.includes('--explain')) {
  // What PostgreSQL does for the slowest calls, on stderr (docs/benchmarks.md quotes it).
  const plan = async (title, sql, params) => {
    const { rows: r } = await pg.pool.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
    process.stderr.write(`--- ${title}\n${r.map((x) => x['QUERY PLAN']).join('\n')}\n`);
  };
  // As the store runs it: one company's zone as a parameter, hashed groups in 64 MB of work_mem.
  await pg.pool.query("SET work_mem = '64MB'");
  await plan(
    'usage by end_user, by day',
    `SELECT to_char(g.bucket, 'YYYY-MM-DD'), g.* FROM (SELECT date_trunc('day', u.time AT TIME ZONE $4::text) AS bucket, u.end_user AS key, count(*) AS requests,
       sum(u.input_tokens), sum(u.output_tokens), sum(u.cache_creation_input_tokens), sum(u.cache_read_input_tokens), sum(u.cost_micros)
     FROM gw_usage u
     WHERE ($1::text IS NULL OR u.company = $1) AND ($2::timestamptz IS NULL OR u.time >= $2) AND ($3::timestamptz IS NULL OR u.time < $3)
     GROUP BY 1, 2) g`,
    [COMPANY, FROM, TO, ZONE],
  );
  // The same call through the store, in this process: PostgreSQL's time above plus reading the rows in Node.
  const { PgUsageStore } = await dist('usage/postgres/pg-usage-store.js');
  const store = new PgUsageStore(pg.pool);
  for (const groupBy of ['end_user', 'model']) {
    const t0 = Date.now();
    await store.report({ company: COMPANY, since: FROM, until: TO, groupBy, period: 'day' });
    process.stderr.write(`--- PgUsageStore.report by ${groupBy}, in process: ${Date.now() - t0} ms\n`);
  }
  const d = JSON.parse(Buffer.from(deep.cost, 'base64url').toString('utf8'));
  await plan(
    'logs most expensive, 90 % deep',
    `SELECT u.record FROM gw_usage u WHERE ($1::text IS NULL OR u.company = $1)
       AND u.cost_micros <= $2::bigint AND (u.cost_micros < $2::bigint OR (u.cost_micros = $2::bigint AND (u.time < $3::timestamptz OR (u.time = $3::timestamptz AND u.request_id COLLATE "C" > $4::text COLLATE "C"))))
     ORDER BY u.cost_micros DESC, u.time DESC, u.request_id COLLATE "C" LIMIT 51`,
    [COMPANY, d.cost_micros, d.time, d.request_id],
  );
}
const admin = await startGateway(pg);
const cookie = await signIn(admin);

const range = `from=${encodeURIComponent(FROM)}&to=${encodeURIComponent(TO)}`;
const usage = {};
for (const group of ['address', 'model', 'provider', 'repo', 'application', 'end_user']) {
  usage[group] = await timed(admin, cookie, `usage?company=${COMPANY}&group_by=${group}&period=day&${range}`, (body) => {
    const requests = body.data.reduce((s, r) => s + r.requests, 0);
    if (requests !== N) throw new Error(`usage by ${group} counted ${requests} requests, not ${N}`);
  });
}
const page = (body) => {
  if (body.data.length !== 50 || !body.next) throw new Error(`a Logs page held ${body.data.length} records`);
};
const logs = {
  'newest, first page': await timed(admin, cookie, `logs?company=${COMPANY}&order=time`, page),
  'newest, 90 % deep': await timed(admin, cookie, `logs?company=${COMPANY}&order=time&after=${deep.time}`, page),
  'most expensive, first page': await timed(admin, cookie, `logs?company=${COMPANY}&order=cost`, page),
  'most expensive, 90 % deep': await timed(admin, cookie, `logs?company=${COMPANY}&order=cost&after=${deep.cost}`, page),
  'one address, month range': await timed(admin, cookie, `logs?company=${COMPANY}&order=time&address=${encodeURIComponent('user7@bench.example')}&${range}`, page),
  'one model, first page': await timed(admin, cookie, `logs?company=${COMPANY}&order=time&model=claude-opus-4-1`, page),
};
const assets = shippedAssets();
const pgVersion = (await pg.pool.query('SHOW server_version')).rows[0].server_version;
await pg.pool.end();

console.log(
  JSON.stringify({
    records: N,
    runs: RUNS,
    company: COMPANY,
    timeZone: ZONE,
    month: '2026-10',
    postgres: pgVersion,
    loadSeconds: round(loaded.loadMs / 1000),
    vacuumSeconds: round(loaded.vacuumMs / 1000),
    usageMs: usage,
    logsMs: logs,
    worstUsageMedianMs: Math.max(...Object.values(usage).map((u) => u.median)),
    worstLogsMedianMs: Math.max(...Object.values(logs).map((l) => l.median)),
    assets,
    loadAverage: (await import('node:os')).loadavg().map((x) => round(x)),
  }),
);
process.exit(0);
