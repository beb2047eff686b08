#!/usr/bin/env node
// What the daily-totals triggers (gw_usage_daily, src/usage/postgres/rollup.ts) cost the exporter's insert:
// 3 rounds of 25 batches of 2,000 records (20 companies, 4 time zones) through PgUsageStore.insert into a real
// PostgreSQL, with the triggers disabled and enabled in turn. Prints records per second. Needs `npm run build`.
//   node bench/usage-rollup-insert-cost.mjs
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = (p) => import(join(ROOT, 'dist', p));
const { migrate } = await dist('usage/postgres/migrations.js');

const { startPostgres } = await import('./lib/bench-postgres.mjs');

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
