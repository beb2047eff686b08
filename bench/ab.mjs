#!/usr/bin/env node
// `make bench-ab REF=<commit>`: the hot path of this tree against another commit, before merging
// anything on it. Builds REF once into the cache (bench/lib/baseline.mjs), runs the s1 case (gw serve,
// non-streaming requests at 500 req/s), the s3 case (gw serve, 32 concurrent streams) and the s5 case
// (gw extproc, a recorded exchange) with both builds
// in the same interleaved rounds, then prints CPU per stream and per exchange for each build and
// their ratio per round, with the median and the spread. CPU, not throughput: it is the figure that
// moves least with the machine's other load. A benchmark, not a test (timing stays out of make test).
//
//   npm run build && node bench/ab.mjs REF [--rounds 5]
//   node bench/ab.mjs REF --from bench/results/ab-<ref>.json   (print an earlier run again)
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildOf } from './lib/baseline.mjs';
import { RESULTS, ROOT } from './lib/options.mjs';

const args = process.argv.slice(2);
const ref = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--rounds' && args[i - 1] !== '--from');
const roundsAt = args.indexOf('--rounds');
const rounds = roundsAt >= 0 ? Number(args[roundsAt + 1]) : 5;
if (!ref || !Number.isInteger(rounds) || rounds < 2) {
  process.stderr.write('usage: node bench/ab.mjs REF [--rounds N (≥ 2, default 5)]   (make bench-ab REF=<commit>)\n');
  process.exit(2);
}
const resolved = spawnSync('git', ['rev-parse', '--verify', `${ref}^{commit}`], { cwd: ROOT, encoding: 'utf8' });
if (resolved.status !== 0) {
  process.stderr.write(`bench-ab: "${ref}" is not a commit of this repository\n`);
  process.exit(2);
}
const commit = resolved.stdout.trim();
const label = `ab-${commit.slice(0, 7)}`;
const fromAt = args.indexOf('--from');
const from = fromAt >= 0 ? args[fromAt + 1] : null;
if (from === null) measure();

function measure() {
  const dist = buildOf(commit);
  if (dist === null) process.exit(1);
  const run = spawnSync(
    process.execPath,
    [join(ROOT, 'bench', 'run.mjs'), '--only', 's1,s3,s5', '--rounds', String(rounds), '--ab', dist, '--ab-commit', commit, '--no-peer-install', '--date', label],
    {
      cwd: ROOT,
      stdio: 'inherit',
    },
  );
  if (run.status !== 0) process.exit(run.status ?? 1);
}

const results = JSON.parse(readFileSync(from ?? join(RESULTS, `${label}.json`), 'utf8'));
const cpuPer = (result, per) => {
  const cpu = result?.procs?.[0]?.cpuMs;
  const n = result?.[per];
  return cpu == null || !n ? NaN : cpu / n;
};
const median = (xs) => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (x, d = 3) => (Number.isFinite(x) ? x.toFixed(d) : '–');

/** One comparison: per round this build's and the other's CPU, and their ratio. */
function compare(title, roundsOf, now, before, per, unit, scale) {
  const rows = roundsOf.map((r) => [cpuPer(r[now], per) * scale, cpuPer(r[before], per) * scale]);
  const ratios = rows.map(([a, b]) => a / b).filter(Number.isFinite);
  const lines = [`${title}`, `  round  this tree (${unit})  ${commit.slice(0, 7)} (${unit})  ratio`];
  rows.forEach(([a, b], i) => lines.push(`  ${String(i + 1).padStart(5)}  ${fmt(a).padStart(14)}  ${fmt(b).padStart(15)}  ${fmt(a / b, 2)}×`));
  const spread = ratios.length ? `${fmt(Math.min(...ratios), 2)}–${fmt(Math.max(...ratios), 2)}×` : '–';
  lines.push(`  median ratio ${fmt(median(ratios), 2)}× (spread ${spread} over ${ratios.length} rounds)`);
  return lines.join('\n');
}

const s1 = results.scenarios?.s1?.rounds ?? [];
const s3 = results.scenarios?.s3?.rounds ?? [];
const s5 = results.scenarios?.s5?.rounds ?? [];
const out = [`bench-ab: this tree against ${commit} (${Math.max(s1.length, s3.length, s5.length)} interleaved rounds; CPU of the process under test)`, ''];
out.push(s1.length ? compare('s1: gw serve, CPU per non-streaming request at 500 req/s', s1, 'gw-memory', 'gw-before', 'completed', 'µs', 1000) : 's1: no rounds');
out.push('');
out.push(s3.length ? compare('s3: gw serve, CPU per stream at 32 concurrent streams', s3, 'gw-memory', 'gw-before', 'completed', 'ms', 1) : 's3: no rounds');
out.push('');
for (const c of [1, 16]) {
  out.push(s5.length ? compare(`s5: gw extproc, CPU per exchange at ${c} stream(s)`, s5, `gw-extproc@${c}`, `gw-extproc-baseline@${c}`, 'streams', 'µs', 1000) : 's5: no rounds');
}
out.push('', `Full report: bench/results/${label}.md (ratios above 1 mean this tree costs more).`);
process.stdout.write(`${out.join('\n')}\n`);
