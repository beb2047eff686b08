import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { UsageRecord } from '../../../src/metering/usage-record.js';
import { connectPostgres } from '../../../src/usage/postgres/connect.js';
import { migrate, SCHEMA_VERSION } from '../../../src/usage/postgres/migrations.js';
import { PgUsageStore } from '../../../src/usage/postgres/pg-usage-store.js';
import { logsOf } from '../../../src/usage/report.js';
import { startPostgres, type TestPostgres } from '../../support/postgres-server.js';
import { allLogPages, usageRecord } from '../../support/usage-records.js';

/**
 * Keyset paging of Logs (the console's pages): walking page by page after
 * the last record's mark gives exactly the one-shot list, in both orders,
 * with many records sharing a time and a cost (the ties a keyset must break
 * the way the ORDER BY does), in PostgreSQL and in memory alike.
 */
let postgres: TestPostgres;
let pool: pg.Pool;
let store: PgUsageStore;
const records: UsageRecord[] = [];

beforeAll(async () => {
  postgres = await startPostgres();
  pool = connectPostgres(postgres.url, { max: 2 });
  await migrate(pool);
  store = new PgUsageStore(pool, 2);
  for (let i = 0; i < 300; i++) {
    // Every ten records share one millisecond and three costs: ties on time and on cost throughout.
    records.push(
      usageRecord(i % 2 === 0 ? 'acme' : 'other', i, { time: new Date(Date.UTC(2026, 0, 1) + Math.floor(i / 10) * 1_000).toISOString(), cost_usd: [0.5, 0.25, null][i % 3] as number | null }),
    );
  }
  await store.insert(records);
});

afterAll(async () => {
  await pool?.end();
  await postgres?.destroy();
});

describe('Logs keyset paging', () => {
  for (const order of ['time', 'cost'] as const) {
    for (const base of [{ company: 'acme' }, { company: 'acme', address: 'user3@acme.example' }, {}] as const) {
      test(`${order} order ${JSON.stringify(base)}: pages of 7 joined equal the whole list, in PostgreSQL and in memory`, async () => {
        const query = { ...base, order };
        const whole = (await store.logs({ ...query, limit: 100_000 })).data.map((r) => r.request_id);
        expect(whole.length).toBeGreaterThan(20);
        const paged = await allLogPages(async (q) => (await store.logs(q)).data, query, 7);
        expect(paged).toEqual(whole);
        const inMemory = await allLogPages(async (q) => logsOf(records, q), query, 7);
        expect(inMemory).toEqual(whole);
      });
    }
  }

  test('a store upgraded from schema step 4 (a B-tree on time) to the block-range index pages across companies and deletes by age as before', async () => {
    await pool.query('CREATE DATABASE gw_step5');
    const other = connectPostgres(postgres.url.replace(/\/postgres$/, '/gw_step5'), { max: 2 });
    try {
      await migrate(other, 4);
      const older = new PgUsageStore(other, 2);
      await older.insert(records);
      expect(await migrate(other)).toBe(SCHEMA_VERSION - 4);
      const { rows } = await other.query<{ indexdef: string }>("SELECT indexdef FROM pg_indexes WHERE tablename = 'gw_usage' AND indexdef LIKE '%(\"time\")%'");
      expect(rows.map((r) => r.indexdef)).toEqual([expect.stringContaining('USING brin')]);
      for (const order of ['time', 'cost'] as const) {
        const paged = await allLogPages(async (q) => (await older.logs(q)).data, { order }, 11);
        expect(paged).toEqual(await allLogPages(async (q) => logsOf(records, q), { order }, 11));
      }
      // Every record is from 2026-01-01, so older than any retention of a day.
      expect(await older.deleteOlderThan(1, 40)).toBe(records.length);
    } finally {
      await other.end();
      await pool.query('DROP DATABASE gw_step5');
    }
  });
});
