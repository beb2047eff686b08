import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { UsageRecord } from '../../../src/metering/usage-record.js';
import { connectPostgres } from '../../../src/usage/postgres/connect.js';
import { migrate, SCHEMA_VERSION } from '../../../src/usage/postgres/migrations.js';
import { PgUsageStore } from '../../../src/usage/postgres/pg-usage-store.js';
import { PERIODS, REPORT_GROUPS, reportOf, type ReportQuery } from '../../../src/usage/report.js';
import { foldGroups } from '../../../src/usage/top-groups.js';
import { startPostgres, type TestPostgres } from '../../support/postgres-server.js';
import { usageRecord } from '../../support/usage-records.js';

/**
 * Usage from the daily totals (gw_usage_daily, kept by triggers): for one
 * company the report reads them instead of every record, and must give
 * exactly what the records give (reportOf over the same records, the
 * in-memory stores' computation) in every zone, grouping, period and range,
 * including ranges whose bounds cut a day.
 */

let postgres: TestPostgres;
let pool: pg.Pool;

beforeAll(async () => {
  postgres = await startPostgres();
  pool = connectPostgres(postgres.url, { max: 6 });
  await migrate(pool);
});

afterEach(async () => {
  await pool.query('TRUNCATE gw_usage, gw_usage_company');
});

afterAll(async () => {
  await pool?.end();
  await postgres?.destroy();
});

const ZONES: Readonly<Record<string, string>> = {
  'c-utc': 'UTC',
  'c-ny': 'America/New_York',
  'c-kolkata': 'Asia/Kolkata',
  'c-kathmandu': 'Asia/Kathmandu',
};
const zoneOf = (company: string): string => ZONES[company] ?? 'UTC';

/**
 * Records every 37 minutes and 13 seconds from 2026-10-28 to 2026-11-05 (New York leaves summer time on
 * 2026-11-01; the times fall on no 15-minute line), for each company.
 */
function records(company: string, from = Date.UTC(2026, 9, 28), count = 300): UsageRecord[] {
  return Array.from({ length: count }, (_, i) => usageRecord(company, i, { time: new Date(from + i * (37 * 60_000 + 13_000)).toISOString() }));
}

/** The ranges asked: open, the company's local midnights (whole days only), and bounds that cut days. */
function ranges(company: string): Array<Pick<ReportQuery, 'since' | 'until'>> {
  const midnight: Readonly<Record<string, [string, string]>> = {
    'c-utc': ['2026-10-30T00:00:00.000Z', '2026-11-03T00:00:00.000Z'],
    'c-ny': ['2026-10-30T04:00:00.000Z', '2026-11-03T05:00:00.000Z'],
    'c-kolkata': ['2026-10-29T18:30:00.000Z', '2026-11-02T18:30:00.000Z'],
    'c-kathmandu': ['2026-10-29T18:15:00.000Z', '2026-11-02T18:15:00.000Z'],
  };
  const [since, until] = midnight[company] as [string, string];
  return [
    {},
    { since, until },
    { since: '2026-10-30T03:07:13.500Z', until: '2026-11-02T17:44:00.000Z' },
    { since: '2026-10-31T10:00:00.000Z' },
    { until: '2026-11-01T06:20:00.000Z' },
    // Shorter than a day, inside one day.
    { since: '2026-11-01T05:10:00.000Z', until: '2026-11-01T09:00:00.000Z' },
  ];
}

async function saveZones(store: PgUsageStore): Promise<void> {
  // c-utc has no saved zone: the report's default (UTC) applies.
  await store.saveTimeZones(new Map(Object.entries(ZONES).filter(([c]) => c !== 'c-utc')));
}

/** The daily totals of one company and grouping, summed over days, as {key: requests}. */
async function dailyRequests(company: string, dim: number): Promise<Record<string, number>> {
  const { rows } = await pool.query<{ k: string; n: string }>('SELECT k, sum(requests) AS n FROM gw_usage_daily WHERE company = $1 AND dim = $2 GROUP BY k', [company, dim]);
  return Object.fromEntries(rows.map((r) => [r.k, Number(r.n)]));
}

function expectedRequests(rs: readonly UsageRecord[], field: 'address' | 'repo'): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of rs) {
    const v = r[field];
    const k = typeof v === 'string' ? `=${v}` : '';
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

describe('Usage from the daily totals', () => {
  test('equals the computation from the records for every zone, grouping, period and range', async () => {
    const store = new PgUsageStore(pool);
    await saveZones(store);
    const all = Object.keys(ZONES).flatMap((c) => records(c));
    expect(await store.insert(all)).toBe(all.length);
    let compared = 0;
    for (const company of Object.keys(ZONES)) {
      for (const range of ranges(company)) {
        for (const groupBy of REPORT_GROUPS) {
          for (const period of [...PERIODS, undefined]) {
            const query: ReportQuery = { company, groupBy, ...range, ...(period === undefined ? {} : { period }) };
            const { data } = await store.report(query);
            const expected = reportOf(all, query, zoneOf);
            expect(data, JSON.stringify(query)).toEqual(expected);
            compared += data.length;
            // The console's page: only the listed groups read out, the rest summed in PostgreSQL; the same as folding the full report.
            const top = groupBy === 'address' ? 3 : 1;
            expect((await store.reportFolded(query, top)).data, `${JSON.stringify(query)} top ${top}`).toEqual(foldGroups(expected, top));
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(1000);
    // Across companies (no company: each record in its own company's zone), from the records.
    for (const groupBy of REPORT_GROUPS) {
      const query: ReportQuery = { groupBy, period: 'day' };
      expect((await store.reportFolded(query, 2)).data, groupBy).toEqual(foldGroups(reportOf(all, query, zoneOf), 2));
    }
  });

  test('the folded report picks the groups foldGroups picks when PostgreSQL breaks a tie the other way (UTF-8 bytes against UTF-16 units)', async () => {
    const store = new PgUsageStore(pool);
    // Equal cost and requests; U+FF21 sorts first by UTF-8 bytes (EF … < F0 …), U+1F600 first by UTF-16 units (D83D < FF21).
    const rs = ['\uFF21', '\u{1F600}', 'plain'].map((endUser, i) =>
      usageRecord('c-utc', 0, { time: new Date(Date.UTC(2026, 9, 30, 10, i)).toISOString(), end_user: endUser, cost_usd: endUser === 'plain' ? 0.000001 : 0.5 }),
    );
    await store.insert(rs);
    for (const period of ['day', undefined] as const) {
      const query: ReportQuery = { company: 'c-utc', groupBy: 'end_user', ...(period === undefined ? {} : { period }) };
      const folded = (await store.reportFolded(query, 1)).data;
      expect(folded).toEqual(foldGroups(reportOf(rs, query, zoneOf), 1));
      expect(folded.data.map((r) => r.key)).toEqual(['\u{1F600}']);
    }
  });

  test('the report reads the daily totals (a change to them shows) and reads records only for days a bound cuts', async () => {
    const store = new PgUsageStore(pool);
    await saveZones(store);
    const rs = records('c-kathmandu');
    await store.insert(rs);
    const whole: ReportQuery = { company: 'c-kathmandu', groupBy: 'model', period: 'day', since: '2026-10-29T18:15:00.000Z', until: '2026-11-02T18:15:00.000Z' };
    const cut: ReportQuery = { ...whole, since: '2026-10-30T03:07:13.500Z' };
    expect((await store.report(whole)).data).toEqual(reportOf(rs, whole, zoneOf));
    // Only the totals of 2026-10-31 change: a whole-days report shows it; the first, cut day is read from the records.
    await pool.query("UPDATE gw_usage_daily SET requests = requests + 1000 WHERE company = 'c-kathmandu' AND day IN ('2026-10-31', '2026-10-30')");
    const changed = (await store.report(whole)).data;
    expect(changed.filter((r) => r.period === '2026-10-31').every((r, _, a) => a.length > 0 && r.requests > 1000)).toBe(true);
    const cutAnswer = (await store.report(cut)).data;
    expect(cutAnswer.filter((r) => r.period === '2026-10-30')).toEqual(reportOf(rs, cut, zoneOf).filter((r) => r.period === '2026-10-30'));
    expect(cutAnswer.filter((r) => r.period === '2026-10-31').every((r) => r.requests > 1000)).toBe(true);
  });

  test('a re-delivered record is counted once, whether the batch is copied or staged', async () => {
    const store = new PgUsageStore(pool, 2);
    const rs = records('c-utc', Date.UTC(2026, 9, 28), 1_500);
    expect(await store.insert(rs)).toBe(1_500);
    // Half stored already (the staging path, INSERT … ON CONFLICT DO NOTHING), and one id twice in the batch.
    const more = records('c-utc', Date.UTC(2026, 10, 10), 600);
    expect(await store.insert([...rs.slice(0, 700), ...more, more[3] as UsageRecord])).toBe(600);
    expect(await store.insert(rs)).toBe(0);
    const stored = [...rs, ...more];
    expect(await dailyRequests('c-utc', 1)).toEqual(expectedRequests(stored, 'address'));
    expect(await dailyRequests('c-utc', 4)).toEqual(expectedRequests(stored, 'repo'));
    const query: ReportQuery = { company: 'c-utc', groupBy: 'repo', period: 'week' };
    expect((await store.report(query)).data).toEqual(reportOf(stored, query, zoneOf));
  });

  test('retention deletes take records out of the totals, and days left empty go', async () => {
    const store = new PgUsageStore(pool);
    await saveZones(store);
    const now = Date.now();
    const old = records('c-ny', now - 40 * 86_400_000, 200);
    const recent = records('c-ny', now - 3 * 86_400_000, 100);
    await store.insert([...old, ...recent]);
    expect(await store.deleteOlderThan(30, 50)).toBe(200);
    expect(await dailyRequests('c-ny', 2)).toEqual(Object.fromEntries(Object.entries(recent.reduce<Record<string, number>>((a, r) => ({ ...a, [`=${r.model}`]: (a[`=${r.model}`] ?? 0) + 1 }), {}))));
    const { rows } = await pool.query<{ n: string }>("SELECT count(*) AS n FROM gw_usage_daily WHERE day < (now() - interval '20 days')::date");
    expect(Number(rows[0]?.n)).toBe(0);
    const query: ReportQuery = { company: 'c-ny', groupBy: 'end_user', period: 'day' };
    expect((await store.report(query)).data).toEqual(reportOf(recent, query, zoneOf));
  });

  test("a company's zone saved or changed after its records rebuilds its totals in the new zone", async () => {
    const store = new PgUsageStore(pool);
    const rs = records('c-kolkata');
    await store.insert(rs);
    const query: ReportQuery = { company: 'c-kolkata', groupBy: 'application', period: 'day', since: '2026-10-29T18:30:00.000Z', until: '2026-11-02T18:30:00.000Z' };
    // No zone saved yet: UTC.
    expect((await store.report(query)).data).toEqual(reportOf(rs, query, () => 'UTC'));
    await store.saveTimeZones(new Map([['c-kolkata', 'Asia/Kolkata']]));
    expect((await store.report(query)).data).toEqual(reportOf(rs, query, () => 'Asia/Kolkata'));
    await store.saveTimeZones(new Map([['c-kolkata', 'Asia/Kathmandu']]));
    expect((await store.report(query)).data).toEqual(reportOf(rs, query, () => 'Asia/Kathmandu'));
    const { rows } = await pool.query<{ zone: string }>("SELECT DISTINCT zone FROM gw_usage_daily WHERE company = 'c-kolkata'");
    expect(rows).toEqual([{ zone: 'Asia/Kathmandu' }]);
  });

  test('an UPDATE of records (by hand: the gateway never updates them) moves them between totals', async () => {
    const store = new PgUsageStore(pool);
    await saveZones(store);
    const rs = records('c-ny', Date.UTC(2026, 9, 28), 200);
    await store.insert(rs);
    const moved = new Set(rs.filter((_, i) => i % 3 === 0).map((r) => r.request_id));
    await pool.query("UPDATE gw_usage SET repo = 'github.com/acme/renamed', input_tokens = input_tokens + 7 WHERE request_id = ANY($1::text[])", [[...moved]]);
    const now = rs.map((r) => (moved.has(r.request_id) ? { ...r, repo: 'github.com/acme/renamed', input_tokens: r.input_tokens + 7 } : r));
    expect(await dailyRequests('c-ny', 4)).toEqual(expectedRequests(now, 'repo'));
    for (const groupBy of ['repo', 'model'] as const) {
      const query: ReportQuery = { company: 'c-ny', groupBy, period: 'day' };
      expect((await store.report(query)).data, groupBy).toEqual(reportOf(now, query, zoneOf));
    }
  });

  test('a zone PostgreSQL does not know stops no insert; the totals are built once the zone is one it knows', async () => {
    const store = new PgUsageStore(pool);
    await store.saveTimeZones(new Map([['c-x', 'Nowhere/Atlantis']]));
    const rs = records('c-x', Date.UTC(2026, 9, 28), 50);
    expect(await store.insert(rs)).toBe(50);
    const totals: ReportQuery = { company: 'c-x', groupBy: 'model' };
    expect((await store.report(totals)).data).toEqual(reportOf(rs, totals, () => 'UTC'));
    await store.saveTimeZones(new Map([['c-x', 'Asia/Kolkata']]));
    const byDay: ReportQuery = { ...totals, period: 'day' };
    expect((await store.report(byDay)).data).toEqual(reportOf(rs, byDay, () => 'Asia/Kolkata'));
    expect(Object.values(await dailyRequests('c-x', 2)).reduce((a, b) => a + b, 0)).toBe(50);
  });

  test('the migration that adds the totals builds them from the records already stored', async () => {
    await pool.query('CREATE DATABASE gw_backfill');
    const other = connectPostgres(postgres.url.replace(/\/postgres$/, '/gw_backfill'));
    try {
      await migrate(other, 2);
      const store = new PgUsageStore(other);
      await store.saveTimeZones(new Map([['c-ny', 'America/New_York']]));
      const rs = [...records('c-ny'), ...records('c-utc', Date.UTC(2026, 9, 29), 100)];
      await store.insert(rs);
      expect(await migrate(other)).toBe(SCHEMA_VERSION - 2);
      for (const company of ['c-ny', 'c-utc']) {
        const query: ReportQuery = { company, groupBy: 'address', period: 'day', since: '2026-10-30T04:00:00.000Z' };
        const { data } = await store.report(query);
        expect(data).toEqual(reportOf(rs, query, zoneOf));
        const { rows } = await other.query<{ n: string }>('SELECT sum(requests) AS n FROM gw_usage_daily WHERE company = $1 AND dim = 1', [company]);
        expect(Number(rows[0]?.n)).toBe(rs.filter((r) => r.company === company).length);
      }
      expect(await migrate(other)).toBe(0);
    } finally {
      await other.end();
      await pool.query('DROP DATABASE gw_backfill');
    }
  });
  test('after the upgrade to the grouped triggers (step 4) the totals kept by step 3 stay exact through inserts, re-deliveries, deletes and a zone change', async () => {
    await pool.query('CREATE DATABASE gw_step4');
    const other = connectPostgres(postgres.url.replace(/\/postgres$/, '/gw_step4'));
    try {
      await migrate(other, 3);
      const store = new PgUsageStore(other, 2);
      await store.saveTimeZones(new Map([['c-ny', 'America/New_York']]));
      const before = [...records('c-ny', Date.UTC(2026, 9, 28), 400), ...records('c-kolkata', Date.UTC(2026, 9, 29), 400)];
      await store.insert(before);
      expect(await migrate(other)).toBe(SCHEMA_VERSION - 3);
      // New records, half of them in a batch that re-delivers stored ones (the staged path), one id twice.
      const after = [...records('c-ny', Date.UTC(2026, 10, 2), 600), ...records('c-kolkata', Date.UTC(2026, 10, 2), 300)];
      expect(await store.insert(after.slice(0, 700))).toBe(700);
      expect(await store.insert([...before.slice(0, 300), ...after.slice(700), after[0] as UsageRecord])).toBe(200);
      let stored = [...before, ...after];
      // A retention-like delete of one company's oldest records, then a zone change that rebuilds from the records.
      const { rowCount } = await other.query("DELETE FROM gw_usage WHERE company = 'c-ny' AND time < '2026-10-31T00:00:00Z'");
      stored = stored.filter((r) => !(r.company === 'c-ny' && r.time < '2026-10-31T00:00:00Z'));
      expect(rowCount).toBeGreaterThan(0);
      await store.saveTimeZones(new Map([['c-kolkata', 'Asia/Kathmandu']]));
      const zones: Record<string, string> = { 'c-ny': 'America/New_York', 'c-kolkata': 'Asia/Kathmandu' };
      for (const company of ['c-ny', 'c-kolkata']) {
        for (const groupBy of REPORT_GROUPS) {
          const query: ReportQuery = { company, groupBy, period: 'day' };
          expect((await store.report(query)).data, `${company} ${groupBy}`).toEqual(reportOf(stored, query, (c) => zones[c] ?? 'UTC'));
        }
        const { rows } = await other.query<{ n: string }>('SELECT sum(requests) AS n FROM gw_usage_daily WHERE company = $1 AND dim = 6', [company]);
        expect(Number(rows[0]?.n)).toBe(stored.filter((r) => r.company === company).length);
      }
      const { rows: empty } = await other.query<{ n: string }>('SELECT count(*) AS n FROM gw_usage_daily WHERE requests = 0');
      expect(Number(empty[0]?.n)).toBe(0);
    } finally {
      await other.end();
      await pool.query('DROP DATABASE gw_step4');
    }
  });
});
