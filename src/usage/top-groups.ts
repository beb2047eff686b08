import { compareKeys, type ReportRow } from './report.js';
import type { OthersRow } from './report-row.js';

/**
 * What the owner console's Usage page shows of a report with many groups
 * (a month by end user: thousands of end users, tens of thousands of rows,
 * which no one reads on a screen and which a browser takes seconds to lay
 * out). The rule, the same for every grouping and every store:
 *
 * - when the report holds more than `top` distinct groups, the `top` groups
 *   with the highest cost over the whole range are listed one by one (ties:
 *   more requests first, then by key, as the report orders its rows), and
 *   every other group is summed into one "all others" row per period;
 * - the listed rows are the report's own rows, unchanged, and the sums are
 *   of whole micro-dollars and integers, so listed rows plus "all others"
 *   add up exactly to the report, period by period;
 * - the totals are the report's, summed the same way.
 *
 * The Usage API, `gw usage` and the console's Download CSV are not folded:
 * they give every group.
 */
export interface FoldedReport {
  /** The rows of the listed groups, in the report's order. */
  readonly data: ReportRow[];
  /** One row per period holding unlisted groups, oldest period first; empty when nothing was folded. */
  readonly others: OthersRow[];
  /** Distinct groups in the report, listed or not. */
  readonly groups: number;
  /** Every row of the report summed (without a period). */
  readonly totals: Omit<OthersRow, 'period'>;
}

const micros = (usd: number): number => Math.round(usd * 1e6);

interface Sum {
  groups: number;
  requests: number;
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  micros: number;
}

const emptySum = (): Sum => ({ groups: 0, requests: 0, input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, micros: 0 });

function add(sum: Sum, r: ReportRow): void {
  sum.requests += r.requests;
  sum.input_tokens += r.input_tokens;
  sum.output_tokens += r.output_tokens;
  sum.cache_creation_input_tokens += r.cache_creation_input_tokens;
  sum.cache_read_input_tokens += r.cache_read_input_tokens;
  sum.micros += micros(r.cost_usd);
}

const toRow = (s: Sum): Omit<OthersRow, 'period'> => ({
  groups: s.groups,
  requests: s.requests,
  input_tokens: s.input_tokens,
  output_tokens: s.output_tokens,
  cache_creation_input_tokens: s.cache_creation_input_tokens,
  cache_read_input_tokens: s.cache_read_input_tokens,
  cost_usd: s.micros / 1e6,
});

/** `rows`: a report in compareRows' order (what every store answers). */
export function foldGroups(rows: readonly ReportRow[], top: number): FoldedReport {
  // Keys are string | null (null: no value); a Map tells them apart.
  const byKey = new Map<string | null, Sum>();
  const totals = emptySum();
  for (const r of rows) {
    let s = byKey.get(r.key);
    if (s === undefined) byKey.set(r.key, (s = emptySum()));
    add(s, r);
    add(totals, r);
  }
  totals.groups = byKey.size;
  if (byKey.size <= top) return { data: [...rows], others: [], groups: byKey.size, totals: toRow(totals) };
  const ranked = [...byKey.entries()].sort(([ka, a], [kb, b]) => b.micros - a.micros || b.requests - a.requests || compareKeys(ka, kb));
  const listed = new Set(ranked.slice(0, top).map(([k]) => k));
  const data: ReportRow[] = [];
  const others = new Map<string | undefined, Sum>();
  for (const r of rows) {
    if (listed.has(r.key)) {
      data.push(r);
      continue;
    }
    let s = others.get(r.period);
    if (s === undefined) others.set(r.period, (s = emptySum()));
    s.groups += 1;
    add(s, r);
  }
  // Rows come period by period, so the map's order is the periods' order; each (period, key) is one row, so rows counted are groups.
  const folded = [...others.entries()].map(([period, s]) => (period === undefined ? toRow(s) : { period, ...toRow(s) }));
  return { data, others: folded, groups: byKey.size, totals: toRow(totals) };
}
