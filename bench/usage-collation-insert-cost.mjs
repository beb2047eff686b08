#!/usr/bin/env node
// What comparing the indexed keys as bytes (usage schema step 6) saves PostgreSQL on the exporter's inserts: one server
// in the given locale, three databases (step 5, step 5 again as an A/A control, and step 6), batches of 2,000 records
// shaped as bench/usage-export.mjs writes them, inserted through PgUsageStore.insert into each database in turn,
// rotating which goes first. Reports PostgreSQL's CPU (every server process, from /proc) per 1,000 records, per round
// and as medians. Alternating within seconds keeps the machine's changing load out of the comparison far better than
// whole bench runs do. Needs `npm run build`.
//   node bench/usage-collation-insert-cost.mjs [--pg-locale en_US.UTF-8] [--rounds 12] [--batches 5]
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuMsWithChildren } from './lib/procfs.mjs';
import { benchUsageRecord } from './lib/usage-record.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = (p) => import(join(ROOT, 'dist', p));
const { migrate, SCHEMA_VERSION } = await dist('usage/postgres/migrations.js');
const { PgUsageStore } = await dist('usage/postgres/pg-usage-store.js');
const { connectPostgres } = await dist('usage/postgres/connect.js');
const { startPostgres } = await import('./lib/bench-postgres.mjs');

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : process.argv[i + 1];
};
const LOCALE = arg('--pg-locale', undefined);
const ROUNDS = Number(arg('--rounds', 12));
const BATCHES = Number(arg('--batches', 5));
const BATCH = 2_000;

// CPU (ms) of the server and every process it started.
const serverCpuMs = (pid) => cpuMsWithChildren(pid, true);

const pg = await startPostgres({ locale: LOCALE });
const { rows } = await pg.pool.query('SELECT datcollate FROM pg_database WHERE datname = current_database()');
const variants = [
  { name: 'step 5', step: 5 },
  { name: 'step 5 (A/A)', step: 5 },
  { name: `step ${SCHEMA_VERSION}`, step: SCHEMA_VERSION },
];
for (const [i, v] of variants.entries()) {
  await pg.pool.query(`CREATE DATABASE gw_v${i}`);
  v.pool = connectPostgres(pg.url.replace(/\/postgres$/, `/gw_v${i}`), { max: 3 });
  await migrate(v.pool, v.step);
  v.store = new PgUsageStore(v.pool, 2);
  v.per1k = [];
}

let seq = 0;
const companies = ['bench0', 'bench1', 'bench2', 'bench3'];
const record = () => {
  const i = seq++;
  return benchUsageRecord(companies[i % companies.length], i, new Date(Date.UTC(2026, 10, 1) + i * 10).toISOString());
};
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

for (let round = 0; round < ROUNDS; round++) {
  // The same records for every variant (each database has its own table), so only the schema differs.
  const batches = Array.from({ length: BATCHES }, () => Array.from({ length: BATCH }, record));
  const texts = batches.map((b) => b.map((r) => JSON.stringify(r)));
  const order = variants.map((_, i) => variants[(i + round) % variants.length]);
  for (const v of order) {
    const before = serverCpuMs(pg.pid);
    for (const [i, b] of batches.entries()) await v.store.insert(b, texts[i]);
    v.per1k.push(((serverCpuMs(pg.pid) - before) / (BATCH * BATCHES)) * 1000);
  }
  process.stderr.write(`round ${round + 1}: ${variants.map((v) => `${v.name} ${v.per1k.at(-1).toFixed(1)}`).join(', ')}\n`);
}
const summary = Object.fromEntries(variants.map((v) => [v.name, { median: Number(median(v.per1k).toFixed(1)), min: Math.min(...v.per1k), max: Math.max(...v.per1k) }]));
const paired = (a, b) => Number(median(a.per1k.map((x, i) => b.per1k[i] - x)).toFixed(1));
console.log(
  JSON.stringify({
    collation: rows[0].datcollate,
    recordsPerRound: BATCH * BATCHES,
    rounds: ROUNDS,
    postgresCpuMsPer1000Records: summary,
    medianPairedDifference: { 'A/A (step 5 again - step 5)': paired(variants[0], variants[1]), [`step ${SCHEMA_VERSION} - step 5`]: paired(variants[0], variants[2]) },
    loadAverage: Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]),
  }),
);
for (const v of variants) await v.pool.end();
await pg.pool.end();
process.exit(0);
