// Turns the raw results of bench/run.mjs into bench/results/<date>.md and
// <date>.json: medians over rounds, paired differences against the direct
// (mock-only) case of the same round, ratios against Portkey, and the
// DESIGN §9 budgets with met / not met.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyse } from './report/analyse.mjs';
import { renderMarkdown } from './report/markdown.mjs';

// The jobs live in bench/report/: stats.mjs (medians, paired differences), analyse.mjs
// (budgets and scenario tables), markdown.mjs (the page); this file runs the cases' own
// reports and writes the two files.
export function writeReport(results, { resultsDir, date, cases = [] }) {
  const a = analyse(results);
  const extra = [];
  for (const c of cases) {
    if (typeof c.report !== 'function') continue;
    try {
      const r = c.report({ results, resultsDir, date });
      if (r) extra.push({ id: c.id, ...r });
    } catch (error) {
      extra.push({ id: c.id, sections: [`## ${c.id}\n\nIts report failed: ${error?.message ?? error}\n`], budgets: [] });
    }
  }
  for (const e of extra) a.budgets.push(...(e.budgets ?? []));
  const md = renderMarkdown(results, a, extra, date);
  const mdPath = join(resultsDir, `${date}.md`);
  const jsonPath = join(resultsDir, `${date}.json`);
  writeFileSync(mdPath, md);
  writeFileSync(jsonPath, JSON.stringify({ ...results, analysis: a }, null, 2) + '\n');
  return { md: mdPath, json: jsonPath };
}
