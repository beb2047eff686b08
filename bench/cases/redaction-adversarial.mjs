// s8a: hostile input (bench/redaction-adversarial.mjs): a body built to make the secret
// scanner work hard, for every rule keyword and the generic shapes; the worst MB/s and
// whether the worst patterns grow linearly. Run on the SUT CPU, like s8.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { BENCH, ROOT, log, runs } from '../lib/options.mjs';
import { PINNED, SUT_CPU } from '../lib/processes.mjs';
import { budget } from '../budgets.mjs';

export default {
  id: 's8a',
  order: 52,
  selected: () => runs('s8a'),
  async run(ctx) {
    log('s8a: bench/redaction-adversarial.mjs');
    const script = [join(BENCH, 'redaction-adversarial.mjs'), '--json'];
    const [cmd, list] = PINNED ? ['taskset', ['-c', SUT_CPU, process.execPath, ...script]] : [process.execPath, script];
    const run = spawnSync(cmd, list, { cwd: ROOT, encoding: 'utf8', timeout: 1_200_000 });
    ctx.results.redactionAdversarial = run.status === 0 ? JSON.parse(run.stdout) : { failed: true, status: run.status, stderr: (run.stderr ?? '').slice(-2000) };
  },
  report({ results }) {
    const r = results.redactionAdversarial;
    if (!r) return null;
    if (r.failed) return { budgets: [budget('redaction-adversarial', null, { failed: true }), budget('redaction-adversarial-linear', null, { failed: true })] };
    const lines = [
      '### s8a: hostile input, scan cost (issue 29 point 4)',
      '',
      `${r.patterns} patterns screened at ${r.screenKib} KiB, ${r.belowGoal} of them below 5 MB/s; the slowest:`,
      '',
      `| pattern | MB/s at ${r.kib} KiB | CPU ms per MiB at ${r.kib} KiB / 1 MiB / 4 MiB | growth |`,
      '|---|---|---|---|',
    ];
    for (const w of r.worst) {
      const c = w.cpuMsPerMiB;
      lines.push(`| ${w.name.replace(/\|/g, '\\|')} | ${w.mbps.toFixed(1)} | ${c[r.kib].toFixed(0)} / ${c[1024].toFixed(0)} / ${c[4096].toFixed(0)} | ${w.growth.toFixed(2)}× |`);
    }
    return {
      sections: [lines.join('\n')],
      budgets: [budget('redaction-adversarial', r.worstMBps), budget('redaction-adversarial-linear', r.worstGrowth)],
    };
  },
};
