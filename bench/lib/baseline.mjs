// The build that budgets of the form "cut by a third against main" are judged against: the commit
// of main when the budgets were set, checked out of this repository's history into the cache and
// built once, then run beside the current build in the same rounds (the only comparison that means
// much on a shared machine).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CACHE, ROOT, log } from './options.mjs';

// main when issue 18 set the ext_proc budgets (the report keeps this commit's figures as the baseline).
export const BASELINE_COMMIT = '11bec4b715a2fbf16fc6b6cf63c5eb2de13df9c8';

/** dist/ of the baseline commit, built into the cache if missing; null (with a log line) when it cannot be. */
export function baselineDist() {
  return buildOf(BASELINE_COMMIT, 'the baseline (main at ' + BASELINE_COMMIT + ')');
}

/**
 * dist/ of any commit of this repository (`make bench-ab REF=…`), checked out with git archive into
 * the cache and built once with the current tree's dependencies; null (with a log line) when it
 * cannot be.
 */
export function buildOf(commit, what = `commit ${commit}`) {
  const dir = join(CACHE, 'bench-baseline', commit.slice(0, 12));
  const dist = join(dir, 'dist');
  if (existsSync(join(dist, 'cli', 'main.js')) && existsSync(join(dir, '.built'))) return dist;
  const have = spawnSync('git', ['cat-file', '-e', `${commit}^{commit}`], { cwd: ROOT });
  if (have.status !== 0) {
    log(`${commit} is not in this repository's history; no build of it`);
    return null;
  }
  log(`building ${what} into ${dir} (once)`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const archive = spawnSync('sh', ['-c', `git archive ${commit} src proto crds tsconfig.json package.json | tar -x -C "${dir}"`], { cwd: ROOT, stdio: 'inherit' });
  if (archive.status !== 0) return null;
  // Same dependencies as the current tree (the other build's lock differs at most in packages it does not load).
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: dir, stdio: 'inherit', timeout: 600_000 });
  if (tsc.status !== 0 || !existsSync(join(dist, 'cli', 'main.js'))) {
    log(`the build of ${what} failed`);
    return null;
  }
  writeFileSync(join(dir, '.built'), `${commit}\n`);
  return dist;
}
