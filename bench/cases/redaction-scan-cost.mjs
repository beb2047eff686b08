// s8w: what scanning every byte costs (bench/redaction-scan-cost.mjs): linear growth per MiB,
// a 12 MiB body in the worker pool against inline (wait and event-loop stall), a pathological body.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { BENCH, ROOT, log, runs } from '../lib/options.mjs';
import { budget } from '../budgets.mjs';

export default {
  id: 's8w',
  order: 51,
  selected: () => runs('s8w'),
  async run(ctx) {
    log('s8w: bench/redaction-scan-cost.mjs');
    const run = spawnSync(process.execPath, [join(BENCH, 'redaction-scan-cost.mjs'), '--json'], { cwd: ROOT, encoding: 'utf8', timeout: 300_000 });
    ctx.results.redactionScanCost = run.status === 0 ? JSON.parse(run.stdout) : { failed: true, status: run.status, stderr: (run.stderr ?? '').slice(-2000) };
  },
  report({ results }) {
    const r = results.redactionScanCost;
    if (!r || r.failed) return null;
    const lines = ['### s8w: scanning every byte (issue 14)', '', '| body | wall ms per MiB | CPU ms per MiB |', '|---|---|---|'];
    for (const x of r.linear) lines.push(`| ${x.mib} MiB, 100 credentials per MiB | ${x.wallMsPerMiB.toFixed(1)} | ${x.cpuMsPerMiB.toFixed(1)} |`);
    const p = r.pool;
    lines.push('', '| 12 MiB body | waits (ms) | longest event-loop stall (ms) |', '|---|---|---|');
    lines.push(`| inline | ${p.inlineMs.toFixed(0)} | ${p.inlineLoopStallMs.toFixed(0)} |`, `| worker pool | ${p.workerWaitMs.toFixed(0)} | ${p.workerLoopStallMs.toFixed(0)} |`);
    const first = r.linear[0]?.cpuMsPerMiB;
    const last = r.linear[r.linear.length - 1]?.cpuMsPerMiB;
    return {
      sections: [lines.join('\n')],
      budgets: [budget('redaction-linear', last / first), budget('redaction-stall', p.workerLoopStallMs)],
    };
  },
};
