import { describe, expect, it } from 'vitest';
import { logsOf, periodStart, reportOf } from '../../../src/usage/report.js';
import { logsCsv } from '../../../src/usage/csv.js';
import { usageRecord } from '../../support/usage-records.js';

describe('finance reports over records', () => {
  it('buckets days, weeks (from Monday) and months in the company time zone', () => {
    // 2026-03-01T11:30Z is already 2 March in Auckland (UTC+13), still 1 March in New York.
    const t = '2026-03-01T11:30:00.000Z';
    expect(periodStart(t, 'day', 'UTC')).toBe('2026-03-01');
    expect(periodStart(t, 'day', 'Pacific/Auckland')).toBe('2026-03-02');
    expect(periodStart(t, 'week', 'Pacific/Auckland')).toBe('2026-03-02'); // a Monday
    expect(periodStart(t, 'week', 'America/New_York')).toBe('2026-02-23');
    expect(periodStart('2026-02-28T23:30:00.000Z', 'month', 'Pacific/Auckland')).toBe('2026-03-01');
    expect(periodStart('2026-02-28T23:30:00.000Z', 'month', 'UTC')).toBe('2026-02-01');
  });

  it('sums exact micro-dollars per group and period, most expensive first', () => {
    const records = Array.from({ length: 100 }, (_, i) => usageRecord('acme', i));
    const rows = reportOf(records, { groupBy: 'provider', period: 'day' }, () => 'UTC');
    expect(rows.reduce((n, r) => n + r.requests, 0)).toBe(100);
    const micros = records.reduce((n, r) => n + Math.round((r.cost_usd ?? 0) * 1e6), 0);
    expect(Math.round(rows.reduce((n, r) => n + r.cost_usd, 0) * 1e6)).toBe(micros);
    for (let i = 1; i < rows.length; i++) {
      const a = rows[i - 1]!;
      const b = rows[i]!;
      expect(a.period! < b.period! || (a.period === b.period && a.cost_usd >= b.cost_usd)).toBe(true);
    }
  });

  it('lists the most expensive requests, filters by company and range', () => {
    const records = [...Array.from({ length: 20 }, (_, i) => usageRecord('acme', i)), usageRecord('globex', 1, { cost_usd: 99 })];
    const top = logsOf(records, { company: 'acme', limit: 3, order: 'cost' });
    expect(top).toHaveLength(3);
    expect(top.every((r) => r.company === 'acme')).toBe(true);
    expect(top[0]!.cost_usd).toBe(Math.max(...records.filter((r) => r.company === 'acme').map((r) => r.cost_usd ?? 0)));
    const ranged = logsOf(records, { since: records[5]!.time, until: records[8]!.time, limit: 100, order: 'time' });
    expect(ranged.map((r) => r.time)).toEqual([records[7]!.time, records[6]!.time, records[5]!.time]);
  });

  it('writes CSV a spreadsheet reads as data: quoted fields, formulas neutralised', () => {
    const csv = logsCsv([usageRecord('acme', 0, { end_user: '=HYPERLINK("x")', application: 'a,b' })]);
    const [header, row] = csv.split('\r\n');
    expect(header!.split(',')).toContain('cost_usd');
    expect(row).toContain(`"'=HYPERLINK(""x"")"`);
    expect(row).toContain('"a,b"');
  });
});
