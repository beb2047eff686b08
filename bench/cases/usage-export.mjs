// s13: the usage exporter's throughput from Redis streams into a local PostgreSQL (fsync on), and
// the data plane's record-write latency with the exporter idle and busy (bench/usage-export.mjs).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { BENCH, ROOT, log, runs } from '../lib/options.mjs';

const GOAL = 20_000;

export default {
  id: 's13',
  order: 85,
  selected: () => runs('s13'),
  async run(ctx) {
    log('s13: bench/usage-export.mjs (Redis -> PostgreSQL)');
    const run = spawnSync(process.execPath, [join(BENCH, 'usage-export.mjs'), '--records', '200000'], { cwd: ROOT, encoding: 'utf8', timeout: 600_000 });
    const line = (run.stdout ?? '').trim().split('\n').pop() ?? '';
    (ctx.results.cases ??= {}).s13 = run.status === 0 ? JSON.parse(line) : { failed: true, status: run.status, stderr: (run.stderr ?? '').slice(-2000) };
  },
  report({ results }) {
    const r = results.cases?.s13;
    if (!r) return null;
    if (r.failed) return { sections: ['### s13: usage export', '', `failed: ${r.stderr}`], budgets: [{ what: 'usage exporter throughput', target: `≥ ${GOAL} records/s`, ok: false }] };
    return {
      sections: [
        '### s13: usage export, Redis streams to PostgreSQL (fsync on)',
        '',
        `${r.records} records of ${r.companies} companies, batches of ${r.batchSize}: drained in ${r.drainSeconds} s = **${r.recordsPerSecond} records/s**.`,
        `Data plane record write (RedisState.recordUsage) p50/p99: exporter idle ${r.recordUsageMs.exporterIdle.p50}/${r.recordUsageMs.exporterIdle.p99} ms, exporter busy ${r.recordUsageMs.exporterBusy.p50}/${r.recordUsageMs.exporterBusy.p99} ms.`,
      ],
      budgets: [{ what: 'usage exporter throughput', target: `≥ ${GOAL} records/s`, measured: r.recordsPerSecond, unit: 'records/s', ok: r.recordsPerSecond >= GOAL }],
    };
  },
};
