// s8: bench/redaction-throughput.mjs (owned by the redaction work), run as it is on the SUT CPU and quoted.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH, ROOT, log, runs } from '../lib/options.mjs';
import { PINNED, SUT_CPU } from '../lib/processes.mjs';

export default {
  id: 's8',
  order: 50,
  selected: () => runs('s8'),
  async run(ctx) {
    ctx.results.redaction = redactionThroughput();
  },
};

function redactionThroughput() {
  const script = join(BENCH, 'redaction-throughput.mjs');
  if (!existsSync(script)) return { skipped: 'bench/redaction-throughput.mjs not present' };
  log('s8: bench/redaction-throughput.mjs');
  const [cmd, list] = PINNED ? ['taskset', ['-c', SUT_CPU, process.execPath, script]] : [process.execPath, [script]];
  const run = spawnSync(cmd, list, { cwd: ROOT, encoding: 'utf8', timeout: 180_000 });
  if (run.status !== 0) return { failed: true, status: run.status, stderr: (run.stderr ?? '').slice(-2000) };
  // Its table is read by column name (it is someone else's script; its columns may change).
  const rows = {};
  let columns = null;
  for (const line of run.stdout.split('\n')) {
    if (!line.startsWith('|')) {
      columns = null;
      continue;
    }
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
    if (columns === null) {
      columns = cells.map((c) => c.toLowerCase());
      continue;
    }
    if (cells.every((c) => /^-+$/.test(c))) continue;
    const row = Object.fromEntries(columns.map((c, i) => [c, cells[i]]));
    const mbs = (key) => (row[key] === undefined ? undefined : Number(/([\d.]+)\s*MB\/s/.exec(row[key])?.[1]));
    rows[cells[0]] = { wallMBps: mbs('wall throughput') ?? mbs('throughput'), cpuMBps: mbs('cpu throughput'), raw: row };
  }
  return { output: run.stdout, rows };
}
