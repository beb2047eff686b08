// How the image runs node: the flags of its ENTRYPOINT and NODE_OPTIONS, and the environment of its
// runtime stage, read from the Dockerfile, where they are declared once. The bench starts gw with the
// same, so it measures gw as shipped.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';

/** The runtime stage's node flags and environment (NODE_OPTIONS is turned into flags, not passed on). */
export function imageRuntime(dockerfile) {
  const stages = dockerfile.split(/^FROM\s/m);
  const runtime = stages[stages.length - 1] ?? '';
  // A continued line (ending in a backslash) is one instruction.
  const lines = runtime.replace(/\\\n/g, ' ').split('\n');
  const env = {};
  const nodeFlags = [];
  for (const line of lines) {
    const instruction = /^(ENV|ENTRYPOINT)\s+(.*)$/.exec(line.trim());
    if (instruction === null) continue;
    if (instruction[1] === 'ENV') {
      for (const m of instruction[2].matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("([^"]*)"|\S*)/g)) env[m[1]] = m[3] ?? m[2];
      continue;
    }
    const argv = JSON.parse(instruction[2]);
    if (!Array.isArray(argv) || argv[0] !== 'node') throw new Error(`the image's ENTRYPOINT does not start node: ${instruction[2]}`);
    for (const a of argv.slice(1)) {
      if (!a.startsWith('-')) break;
      nodeFlags.push(a);
    }
  }
  const options = env.NODE_OPTIONS;
  delete env.NODE_OPTIONS;
  if (options !== undefined) nodeFlags.push(...options.split(/\s+/).filter(Boolean));
  return { nodeFlags, env };
}

export function readImageRuntime(root) {
  const runtime = imageRuntime(readFileSync(join(root, 'Dockerfile'), 'utf8'));
  if (runtime.env.LD_PRELOAD !== undefined) runtime.env.LD_PRELOAD = hostPreload(runtime.env.LD_PRELOAD);
  return runtime;
}

/**
 * The image preloads a library by a path of its own (a link made in the Dockerfile); the host has the
 * same library elsewhere, under its architecture's directory. Without it the loader would only warn and
 * gw would run on another allocator, measuring something that is not shipped, so a missing one stops
 * the bench (bench/ensure-bench-deps.sh installs it).
 */
export function hostPreload(preload, dirs = libraryDirs()) {
  return preload
    .split(/[\s:]+/)
    .filter(Boolean)
    .map((path) => {
      if (existsSync(path)) return path;
      const found = dirs.map((d) => join(d, basename(path))).find((p) => existsSync(p));
      if (found === undefined) throw new Error(`the image preloads ${path}; this machine has no ${basename(path)} in ${dirs.join(', ')} (see the Dockerfile for the package)`);
      return found;
    })
    .join(':');
}

function libraryDirs() {
  const dirs = [];
  for (const root of ['/usr/lib', '/lib', '/usr/local/lib']) {
    if (!existsSync(root)) continue;
    dirs.push(root);
    for (const d of readdirSync(root)) if (/-linux-gnu$/.test(d)) dirs.push(join(root, d));
  }
  return dirs;
}
