import { describe, expect, it } from 'vitest';
import { compareRows, type ReportRow } from '../../../src/usage/report.js';
import { foldGroups } from '../../../src/usage/top-groups.js';

function row(period: string | undefined, key: string | null, requests: number, micros: number): ReportRow {
  const r: ReportRow = {
    period,
    key,
    requests,
    input_tokens: requests * 10,
    output_tokens: requests * 3,
    cache_creation_input_tokens: requests,
    cache_read_input_tokens: 2 * requests,
    cost_usd: micros / 1e6,
  };
  if (period === undefined) delete r.period;
  return r;
}

const sumMicros = (rows: readonly { cost_usd: number }[]): number => rows.reduce((s, r) => s + Math.round(r.cost_usd * 1e6), 0);
const sumOf = (rows: readonly ReportRow[], field: 'requests' | 'input_tokens' | 'output_tokens' | 'cache_creation_input_tokens' | 'cache_read_input_tokens'): number =>
  rows.reduce((s, r) => s + r[field], 0);

/** 3 days × 40 end users (one with no value), costs that are not round in dollars. */
function report(): ReportRow[] {
  const rows: ReportRow[] = [];
  for (const day of ['2026-10-01', '2026-10-02', '2026-10-03']) {
    for (let u = 0; u < 40; u++) {
      if ((u + day.length) % 7 === 0 && day === '2026-10-02') continue; // not every group in every period
      rows.push(row(day, u === 39 ? null : `user-${u}`, 1 + (u % 5), 100_003 * ((u * 17) % 41) + 7));
    }
  }
  return rows.sort(compareRows);
}

describe('folding a Usage report with many groups (the console page)', () => {
  it('leaves a report with no more groups than the limit as it is', () => {
    const rows = report();
    const folded = foldGroups(rows, 40);
    expect(folded.data).toEqual(rows);
    expect(folded.others).toEqual([]);
    expect(folded.groups).toBe(40);
  });

  it('lists the groups with the highest cost over the range, sums the rest per period, and everything adds up exactly', () => {
    const rows = report();
    const folded = foldGroups(rows, 5);
    const cost = new Map<string | null, number>();
    for (const r of rows) cost.set(r.key, (cost.get(r.key) ?? 0) + Math.round(r.cost_usd * 1e6));
    const expected = [...cost.entries()]
      .sort(([, a], [, b]) => b - a)
      .slice(0, 5)
      .map(([k]) => k);
    expect(new Set(folded.data.map((r) => r.key))).toEqual(new Set(expected));
    // The listed rows are the report's own rows, in its order.
    expect(folded.data).toEqual(rows.filter((r) => expected.includes(r.key)));
    expect(folded.groups).toBe(40);
    expect(folded.others.map((o) => o.period)).toEqual(['2026-10-01', '2026-10-02', '2026-10-03']);
    for (const o of folded.others) {
      const rest = rows.filter((r) => r.period === o.period && !expected.includes(r.key));
      expect(o.groups).toBe(rest.length);
      expect(Math.round(o.cost_usd * 1e6)).toBe(sumMicros(rest));
      for (const f of ['requests', 'input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'] as const) expect(o[f]).toBe(sumOf(rest, f));
    }
    expect(Math.round(folded.totals.cost_usd * 1e6)).toBe(sumMicros(rows));
    expect(sumMicros(folded.data) + sumMicros(folded.others)).toBe(sumMicros(rows));
    expect(folded.totals.requests).toBe(sumOf(rows, 'requests'));
    expect(folded.totals.groups).toBe(40);
  });

  it('breaks ties in cost by requests, then by key, and tells "no value" apart from other keys', () => {
    const rows = [row(undefined, 'b', 1, 500), row(undefined, null, 2, 500), row(undefined, 'a', 1, 500), row(undefined, 'c', 9, 100)].sort(compareRows);
    expect(foldGroups(rows, 1).data.map((r) => r.key)).toEqual([null]);
    expect(foldGroups(rows, 2).data.map((r) => r.key)).toEqual([null, 'a']);
    const folded = foldGroups(rows, 3);
    expect(folded.others).toEqual([{ groups: 1, requests: 9, input_tokens: 90, output_tokens: 27, cache_creation_input_tokens: 9, cache_read_input_tokens: 18, cost_usd: 0.0001 }]);
  });
});
