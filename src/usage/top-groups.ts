import { compareKeys, type Answer, type ReportQuery, type ReportRow, type UsageReader } from './report.js';
import type { FoldedReport, OthersRow } from './report-row.js';

export type { FoldedReport } from './report-row.js';

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

const micros = (usd: number): number => Math.round(usd * 1e6);

type Sums = Omit<OthersRow, 'period' | 'groups'>;

/** Rows summed: integers, and cost as whole micro-dollars (exact, whatever the order). */
export function sumRows(rows: Iterable<Omit<ReportRow, 'key' | 'period'>>): Sums {
  let requests = 0;
  let input = 0;
  let output = 0;
  let creation = 0;
  let read = 0;
  let cost = 0;
  for (const r of rows) {
    requests += r.requests;
    input += r.input_tokens;
    output += r.output_tokens;
    creation += r.cache_creation_input_tokens;
    read += r.cache_read_input_tokens;
    cost += micros(r.cost_usd);
  }
  return { requests, input_tokens: input, output_tokens: output, cache_creation_input_tokens: creation, cache_read_input_tokens: read, cost_usd: cost / 1e6 };
}

/**
 * Which groups are listed, from each group's totals over the range (one row per key): the `top` with the highest
 * cost, then most requests, then by key; null when there are no more than `top` groups (nothing is folded).
 */
export function listedKeys(perKey: readonly ReportRow[], top: number): Set<string | null> | null {
  return perKey.length <= top ? null : topKeys(perKey, top);
}

/** The `top` keys of `perKey` by the rule (every group, or every group that can be among the first `top`). */
export function topKeys(perKey: readonly ReportRow[], top: number): Set<string | null> {
  const ranked = [...perKey].sort((a, b) => micros(b.cost_usd) - micros(a.cost_usd) || b.requests - a.requests || compareKeys(a.key, b.key));
  return new Set(ranked.slice(0, top).map((r) => r.key));
}

/** `rows`: a report in compareRows' order (what every store answers). */
export function foldGroups(rows: readonly ReportRow[], top: number): FoldedReport {
  // Keys are string | null (null: no value); a Map tells them apart.
  const byKey = new Map<string | null, ReportRow[]>();
  for (const r of rows) {
    const list = byKey.get(r.key);
    if (list === undefined) byKey.set(r.key, [r]);
    else list.push(r);
  }
  const perKey = [...byKey.entries()].map(([key, list]) => ({ key, ...sumRows(list) }));
  const totals = { groups: byKey.size, ...sumRows(rows) };
  const listed = listedKeys(perKey, top);
  if (listed === null) return { data: [...rows], others: [], groups: byKey.size, totals };
  const data: ReportRow[] = [];
  // Rows come period by period, so the map's order is the periods' order; each (period, key) is one row, so rows are groups.
  const others = new Map<string | undefined, ReportRow[]>();
  for (const r of rows) {
    if (listed.has(r.key)) data.push(r);
    else {
      const list = others.get(r.period);
      if (list === undefined) others.set(r.period, [r]);
      else list.push(r);
    }
  }
  const folded = [...others.entries()].map(([period, list]): OthersRow => {
    const row: OthersRow = { period, groups: list.length, ...sumRows(list) };
    if (period === undefined) delete row.period;
    return row;
  });
  return { data, others: folded, groups: byKey.size, totals };
}

/** The folded report from `reader`: computed by the store when it can read out only what is listed, else from the full report. */
export async function foldedReport(reader: UsageReader, query: ReportQuery, top: number): Promise<Answer<FoldedReport>> {
  if (reader.reportFolded !== undefined) return reader.reportFolded(query, top);
  const answer = await reader.report(query);
  return { data: foldGroups(answer.data, top), droppedRecords: answer.droppedRecords };
}
