// Command-line options and paths of one bench run, read once and shared by every module.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BENCH = join(ROOT, 'bench');
export const RESULTS = join(BENCH, 'results');

const argv = process.argv.slice(2);
export const flag = (name) => argv.includes(`--${name}`);
export const option = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
};

export const QUICK = flag('quick');
export const ROUNDS = Number(option('rounds', QUICK ? '1' : '4'));
export const FEWER_ROUNDS = Math.max(1, Math.min(ROUNDS, 3));
export const ONLY = option('only', null)?.split(',') ?? null;
export const SKIP = option('skip', null)?.split(',') ?? [];
export const SCALE = QUICK ? 0.5 : 1;
/** Today's date, or today's date with -2, -3… when a run of today is already in bench/results (it would be overwritten). */
function freshLabel(today) {
  let label = today;
  for (let n = 2; existsSync(join(RESULTS, `${label}.json`)); n++) label = `${today}-${n}`;
  return label;
}
export const DATE = option('date', null) ?? freshLabel(new Date().toISOString().slice(0, 10));
// Counted from the end of the installs (bench/run.mjs). A full run takes 35–45 minutes on a quiet
// 2-core machine; the soak (last) fits itself into what is left, so a slower machine gets a
// shorter soak, reported as such, rather than a killed run.
export const HARD_DEADLINE_MS = Number(option('deadline-minutes', QUICK ? '25' : '60')) * 60_000;
// Where the bench keeps what it installs or builds for itself (the peers' npm tree and Python virtual
// environment, the baseline build). GW_BENCH_CACHE points only these at another directory, e.g. an
// empty one to see a fresh machine's run, without moving the project's other tools (MODEL_GATEWAY_CACHE).
export const CACHE = process.env.GW_BENCH_CACHE || process.env.MODEL_GATEWAY_CACHE || join(homedir(), '.cache', 'model-gateway');
export const NO_PEER_INSTALL = flag('no-peer-install');
// --gw-dist DIR benchmarks another build of gw (e.g. a patched copy) against the same harness.
export const GW_DIST = resolve(option('gw-dist', join(ROOT, 'dist')));
export const GW_BIN = join(GW_DIST, 'cli', 'main.js');
// --ab DIR adds a second gw built from DIR ("gw-before") to the same interleaved rounds.
export const AB_DIST = option('ab', null) ? resolve(option('ab')) : null;
export const AB_BIN = AB_DIST ? join(AB_DIST, 'cli', 'main.js') : null;
// --ab-commit SHA names the --ab build in the report (bench/ab.mjs passes it); s5 then runs it as its baseline.
export const AB_COMMIT = option('ab-commit', null);

export const startedAt = Date.now();
// When the run's hard deadline falls (set by installLifetime once the installs are done).
export const runClock = { deadlineAt: Infinity };
export const log = (...parts) => process.stderr.write(`[bench ${((Date.now() - startedAt) / 1000).toFixed(0).padStart(4)}s] ${parts.join(' ')}\n`);
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** Whether a case (by id) is selected with --only / --skip. */
export const runs = (id) => (ONLY === null || ONLY.includes(id)) && !SKIP.includes(id);

/** The data planes' default GW_IDLE_COLLECT_AFTER_MS, from the build (read when a case needs it, so scripts that never start a data plane do not need dist/). */
export async function idleCollectAfterMs() {
  return (await import(join(ROOT, 'dist/config/env-settings.js'))).envDefault('GW_IDLE_COLLECT_AFTER_MS');
}

/** How long after its last request a gw has surely run its idle collection, and at least the 10 s the memory rows judge. */
export async function collectedByMs() {
  return Math.max(10_000, (await idleCollectAfterMs()) + 2_000);
}
