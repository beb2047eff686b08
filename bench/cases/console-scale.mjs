// s15: the owner console at scale (issue 25): 1,000,000 usage records of one company in
// PostgreSQL, a month of Usage by each grouping and Logs pages (first and deep, keyset) through
// a real gw serve's console API, the same on screen in Chromium after navigation, and the gzipped
// size of the console's JavaScript and CSS (bench/console-scale.mjs).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { BENCH, QUICK, ROOT, log, runs } from '../lib/options.mjs';
import { budget } from '../budgets.mjs';

export default {
  id: 's15',
  order: 86,
  selected: () => runs('s15'),
  async run(ctx) {
    log('s15: bench/console-scale.mjs (1,000,000 records, console API and Chromium)');
    const run = spawnSync(process.execPath, [join(BENCH, 'console-scale.mjs'), '--records', QUICK ? '200000' : '1000000', '--runs', QUICK ? '3' : '5'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 2_400_000,
    });
    const line = (run.stdout ?? '').trim().split('\n').pop() ?? '';
    (ctx.results.cases ??= {}).s15 = run.status === 0 ? JSON.parse(line) : { failed: true, status: run.status, stderr: (run.stderr ?? '').slice(-2000) };
  },
  report({ results }) {
    const r = results.cases?.s15;
    if (!r) return null;
    if (r.failed) {
      return {
        sections: ['### s15: owner console at scale', '', `failed: ${r.stderr}`],
        budgets: ['console-usage', 'console-logs', 'console-usage-screen', 'console-logs-screen', 'console-assets'].map((key) => budget(key, null, { failed: true })),
      };
    }
    // A smaller load (--quick) is shown, not judged: the goals are for 1,000,000 records.
    const judged = r.records >= 1_000_000;
    const row = (name, t) => `| ${name} | ${t.cold} | ${t.median} | ${t.max} |`;
    return {
      sections: [
        '### s15: owner console at scale',
        '',
        `${r.records.toLocaleString('en-US')} records of one company, all in ${r.month} (${r.timeZone}), loaded by one INSERT … SELECT over generate_series in ${r.loadSeconds} s, then VACUUM ANALYZE (${r.vacuumSeconds} s); PostgreSQL ${r.postgres}. Times are the console API's on loopback (server time plus one local round trip): the first call, then the median and worst of ${r.runs}. Load average ${r.loadAverage.join(' / ')}.`,
        '',
        '| Usage, the month by day, grouped by | first ms | median ms | worst ms |',
        '|---|---|---|---|',
        ...Object.entries(r.usageMs).map(([k, t]) => row(k, t)),
        '',
        '| Logs page (50) | first ms | median ms | worst ms |',
        '|---|---|---|---|',
        ...Object.entries(r.logsMs).map(([k, t]) => row(k, t)),
        '',
        ...(r.screenMs
          ? [
              `On screen in Chromium ${r.screenMs.chromium} (headless, Debian's package, 1280×900): from navigation to the table drawn, by the page's own clock; the first navigation, then the median and worst of ${r.runs}.`,
              '',
              '| On screen after navigation | first ms | median ms | worst ms |',
              '|---|---|---|---|',
              ...Object.entries(r.screenMs.usage).map(([k, t]) => row(`Usage by ${k}`, t)),
              row('Logs, first page', r.screenMs.logs),
              '',
            ]
          : []),
        `Shipped JavaScript and CSS: ${r.assets.files} files, ${r.assets.rawBytes.toLocaleString('en-US')} bytes, ${(r.assets.gzipBytes / 1000).toFixed(1)} KB gzipped.`,
      ],
      budgets: [
        budget('console-usage', r.worstUsageMedianMs, { judged }),
        budget('console-logs', r.worstLogsMedianMs, { judged }),
        budget('console-usage-screen', r.worstUsageScreenMedianMs, { judged }),
        budget('console-logs-screen', r.logsScreenMedianMs, { judged }),
        budget('console-assets', Math.round(r.assets.gzipBytes / 100) / 10, { judged: true }),
      ],
    };
  },
};
