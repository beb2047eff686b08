import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { UsageRecord } from '../../../src/metering/usage-record.js';
import { connectPostgres } from '../../../src/usage/postgres/connect.js';
import { migrate, SCHEMA_VERSION } from '../../../src/usage/postgres/migrations.js';
import { PgUsageStore } from '../../../src/usage/postgres/pg-usage-store.js';
import { logsOf, REPORT_GROUPS, reportOf, type ReportQuery } from '../../../src/usage/report.js';
import { startPostgres, type TestPostgres } from '../../support/postgres-server.js';
import { allLogPages, usageRecord } from '../../support/usage-records.js';

/**
 * Schema step 6 (the indexed keys compared as bytes) upgrading a store with data in place, in a database whose
 * collation does not order text by bytes (ICU en-US: "a" < "B" < "b", where bytes put "B" first), as many installs
 * have: the keys take the byte order, every index is still there and valid, and Logs, reports, the totals,
 * re-deliveries and retention give what they gave before, and what the in-memory computation gives.
 */
let postgres: TestPostgres;
let admin: pg.Pool;
let pool: pg.Pool;
let store: PgUsageStore;
const ZONES: Readonly<Record<string, string>> = { Acme: 'America/New_York', acme: 'Asia/Kolkata', Zeta: 'UTC' };
const zoneOf = (company: string): string => ZONES[company] ?? 'UTC';
const companies = ['Acme', 'acme', 'Zeta', 'beta'];
const records: UsageRecord[] = [];

/** Keys whose byte order and en-US order differ: capitals, and ties on time and cost broken by request id. */
function record(i: number): UsageRecord {
  const company = companies[i % companies.length] as string;
  return usageRecord(company, i, {
    request_id: `${i % 3 === 0 ? 'Req' : 'req'}_${randomUUID()}`,
    address: `${Math.floor(i / 4) % 2 === 0 ? 'User' : 'user'}${i % 5}@${company}.example`,
    time: new Date(Date.UTC(2026, 0, 1) + Math.floor(i / 8) * 1_000_000).toISOString(),
    cost_usd: [0.5, 0.25, null][i % 3] as number | null,
  });
}

const columnCollations = async (): Promise<Record<string, string>> => {
  const { rows } = await pool.query<{ c: string; collation: string }>(
    `SELECT a.attrelid::regclass || '.' || a.attname AS c, coalesce(l.collname, '') AS collation
     FROM pg_attribute a LEFT JOIN pg_collation l ON l.oid = a.attcollation
     WHERE a.attrelid IN ('gw_usage'::regclass, 'gw_usage_company'::regclass, 'gw_usage_daily'::regclass) AND a.attnum > 0 AND NOT a.attisdropped
       AND a.atttypid = 'text'::regtype`,
  );
  return Object.fromEntries(rows.map((r) => [r.c, r.collation]));
};
const indexes = async (): Promise<string[]> => {
  const { rows } = await pool.query<{ name: string; valid: boolean }>(
    `SELECT c.relname AS name, i.indisvalid AND i.indisready AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     WHERE i.indrelid IN ('gw_usage'::regclass, 'gw_usage_company'::regclass, 'gw_usage_daily'::regclass) ORDER BY 1`,
  );
  expect(rows.every((r) => r.valid)).toBe(true);
  return rows.map((r) => r.name);
};

beforeAll(async () => {
  postgres = await startPostgres();
  admin = connectPostgres(postgres.url, { max: 1 });
  await admin.query("CREATE DATABASE gw_icu TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'");
  pool = connectPostgres(postgres.url.replace(/\/postgres$/, '/gw_icu'), { max: 3 });
  await migrate(pool, 5);
  store = new PgUsageStore(pool, 2);
  for (let i = 0; i < 400; i++) records.push(record(i));
  await store.saveTimeZones(new Map(Object.entries(ZONES)));
  await store.insert(records.slice(0, 300));
});

afterAll(async () => {
  await pool?.end();
  await admin?.query('DROP DATABASE IF EXISTS gw_icu').catch(() => undefined);
  await admin?.end();
  await postgres?.destroy();
});

describe('schema step 6: the indexed keys as bytes', () => {
  test('the upgrade from step 5 with records in place changes the keys to byte order and keeps every index', async () => {
    // The database orders text otherwise: what makes the change visible.
    const { rows } = await pool.query<{ ordered: string[] }>("SELECT array_agg(x ORDER BY x) AS ordered FROM unnest(ARRAY['b', 'B', 'a']) x");
    expect(rows[0]?.ordered).toEqual(['a', 'b', 'B']);
    const before = await indexes();
    expect((await columnCollations())['gw_usage.request_id']).toBe('default');
    expect(await migrate(pool)).toBe(SCHEMA_VERSION - 5);
    expect(await indexes()).toEqual(before);
    const collations = await columnCollations();
    for (const column of ['gw_usage.request_id', 'gw_usage.company', 'gw_usage.address', 'gw_usage_company.company', 'gw_usage_daily.company', 'gw_usage_daily.zone', 'gw_usage_daily.k']) {
      expect(collations[column], column).toBe('C');
    }
    // The rest keep the database's: model, provider and the others order reports' keys only through compareRows.
    expect(collations['gw_usage.model']).toBe('default');
    expect(await store.count()).toBe(300);
  });

  test('after it, inserts with re-deliveries, Logs in both orders, reports from records and from the totals, and retention are exact', async () => {
    // New records and a batch re-delivering stored ones (the staged path).
    expect(await store.insert(records.slice(300, 350))).toBe(50);
    expect(await store.insert([...records.slice(0, 120), ...records.slice(350)])).toBe(50);
    expect(await store.count()).toBe(records.length);
    for (const order of ['time', 'cost'] as const) {
      for (const base of [{ company: 'Acme' }, { company: 'acme', address: 'User2@acme.example' }, {}] as const) {
        const query = { ...base, order };
        const paged = await allLogPages(async (q) => (await store.logs(q)).data, query, 4);
        expect(paged.length, JSON.stringify(query)).toBeGreaterThan(8);
        expect(paged, JSON.stringify(query)).toEqual(await allLogPages(async (q) => logsOf(records, q), query, 4));
      }
    }
    for (const company of ['Acme', 'acme', undefined]) {
      for (const groupBy of REPORT_GROUPS) {
        // From one company's totals (with a bound that cuts a day), and across companies from the records.
        const query: ReportQuery = { ...(company === undefined ? {} : { company }), groupBy, period: 'day', since: '2026-01-01T03:30:00.000Z' };
        expect((await store.report(query)).data, `${company} ${groupBy}`).toEqual(reportOf(records, query, zoneOf));
      }
    }
    // A zone change rebuilds one company's totals from its records (a lookup of the totals by company).
    await store.saveTimeZones(new Map([['Acme', 'Asia/Kathmandu']]));
    const rebuilt: ReportQuery = { company: 'Acme', groupBy: 'address', period: 'day' };
    expect((await store.report(rebuilt)).data).toEqual(reportOf(records, rebuilt, (c) => (c === 'Acme' ? 'Asia/Kathmandu' : zoneOf(c))));
    // Every record is from 2026, so older than a retention of a day; the totals go with them.
    expect(await store.deleteOlderThan(1, 70)).toBe(records.length);
    const { rows } = await pool.query<{ n: string }>('SELECT count(*) AS n FROM gw_usage_daily WHERE requests <> 0');
    expect(Number(rows[0]?.n)).toBe(0);
  });

  test("the store's reads of one company and by request id still find their rows through the indexes", async () => {
    await store.insert(records.slice(0, 200));
    await pool.query('ANALYZE gw_usage');
    const plan = async (sql: string, params: unknown[]): Promise<string> => {
      const client = await pool.connect();
      try {
        await client.query('SET enable_seqscan = off');
        const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params);
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      } finally {
        await client.query('RESET enable_seqscan');
        client.release();
      }
    };
    // With sequential scans priced out, a scan of gw_usage left in a plan is one no index could serve: a clause whose
    // collation differs from its index's (a text parameter against a byte-ordered column must take the column's).
    const logs = `SELECT u.record FROM gw_usage u WHERE u.company = $1 AND u.address = $2 ORDER BY u.time DESC, u.request_id COLLATE "C" LIMIT 10`;
    expect(await plan(logs, ['acme', 'User2@acme.example'])).toContain('gw_usage_company_address_time');
    expect(await plan('SELECT u.record FROM gw_usage u WHERE u.company = $1 ORDER BY u.cost_micros DESC, u.time DESC LIMIT 10', ['Acme'])).toContain('gw_usage_company_cost');
    expect(await plan('SELECT 1 FROM gw_usage WHERE request_id = $1', [records[0]?.request_id])).toContain('gw_usage_pkey');
    expect(await plan('SELECT company FROM gw_usage WHERE company > $1 ORDER BY company LIMIT 1', ['Acme'])).toMatch(/gw_usage_company_(time|cost|address_time)/);
    expect(await plan('SELECT * FROM gw_usage_daily d WHERE d.company = $1 AND d.zone = $2 AND d.dim = 1', ['Acme', 'UTC'])).toContain('gw_usage_daily_pkey');
  });
});
