// Summarises a V8 .cpuprofile (node --cpu-prof): self time by function and by
// category (our code, undici, logging, metrics, Node core, GC, ...), and
// inclusive time of our own functions. Used by bench/run.mjs; also runnable:
//
//   node bench/profile-summary.mjs bench/results/gw-serve-<date>.cpuprofile
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// `root`: the package root of the profiled build (its code is under root/dist).
export function where(url, line, root) {
  if (!url) return '';
  let path = url.startsWith('file://') ? fileURLToPath(url) : url;
  const nm = path.lastIndexOf('/node_modules/');
  if (nm >= 0) path = path.slice(nm + '/node_modules/'.length);
  else if (path.startsWith(root + '/')) path = path.slice(root.length + 1);
  return `${path}:${line + 1}`;
}

export function category(fn, url, root) {
  if (fn === '(idle)') return 'idle';
  if (fn === '(garbage collector)') return 'GC';
  if (fn === '(program)') return 'V8/native (program)';
  if (fn === '(root)') return 'root';
  if (!url) return 'native (V8 builtins, bindings)';
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  if (path.startsWith('node:') || !path.startsWith('/')) return 'Node core';
  const nm = path.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const pkg = path.slice(nm + 14).split('/');
    const name = pkg[0].startsWith('@') ? `${pkg[0]}/${pkg[1]}` : pkg[0];
    if (
      name === 'pino' ||
      name === 'sonic-boom' ||
      name === 'thread-stream' ||
      name === 'fast-redact' ||
      name === 'quick-format-unescaped' ||
      name === 'atomic-sleep' ||
      name === 'safe-stable-stringify'
    )
      return 'logging (pino)';
    if (name === 'prom-client' || name === 'tdigest' || name === 'bintrees') return 'metrics (prom-client)';
    return name;
  }
  if (path.startsWith(root + '/dist/')) return 'gw (our code, dist/)';
  return 'other';
}

/**
 * `windows`: optional [fromUs, toUs] ranges on the CLOCK_MONOTONIC microsecond
 * clock (process.hrtime / 1000, which is what V8 stamps profiles with on
 * Linux); only samples inside them are counted (to leave start-up out).
 */
export function summarizeProfile(profile, root, windows = null) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfMs = new Map();
  const { samples = [], timeDeltas = [] } = profile;
  let t = profile.startTime;
  let kept = 0;
  for (let i = 0; i < samples.length; i++) {
    t += timeDeltas[i] ?? 0;
    if (windows && !windows.some(([a, b]) => t >= a && t <= b)) continue;
    kept++;
    const dt = (timeDeltas[i + 1] ?? 0) / 1000;
    selfMs.set(samples[i], (selfMs.get(samples[i]) ?? 0) + dt);
  }
  const info = (n) => {
    const fn = n.callFrame.functionName || '(anonymous)';
    const url = n.callFrame.url;
    return { fn, at: where(url, n.callFrame.lineNumber, root), cat: category(n.callFrame.functionName, url, root) };
  };

  let total = 0;
  let idle = 0;
  const byKey = new Map();
  const byCat = new Map();
  const byFile = new Map();
  for (const [id, ms] of selfMs) {
    const n = nodes.get(id);
    if (!n) continue;
    const { fn, at, cat } = info(n);
    total += ms;
    if (cat === 'idle') {
      idle += ms;
      continue;
    }
    const key = `${fn}\u0000${at}`;
    const entry = byKey.get(key) ?? { fn, at, cat, ms: 0 };
    entry.ms += ms;
    byKey.set(key, entry);
    byCat.set(cat, (byCat.get(cat) ?? 0) + ms);
    if (cat.startsWith('gw ')) {
      const file = at.replace(/:\d+$/, '');
      byFile.set(file, (byFile.get(file) ?? 0) + ms);
    }
  }
  const busy = total - idle;
  const pct = (ms) => (busy > 0 ? (100 * ms) / busy : 0);

  // Inclusive time of our functions, counting a function once per stack even when it recurses.
  const inclusive = new Map();
  const root0 = profile.nodes[0];
  const subtree = new Map();
  const order = [];
  const stack = [root0.id];
  while (stack.length) {
    const id = stack.pop();
    order.push(id);
    for (const c of nodes.get(id)?.children ?? []) stack.push(c);
  }
  for (let i = order.length - 1; i >= 0; i--) {
    const id = order[i];
    const n = nodes.get(id);
    let sum = info(n).cat === 'idle' ? 0 : (selfMs.get(id) ?? 0);
    for (const c of n.children ?? []) sum += subtree.get(c) ?? 0;
    subtree.set(id, sum);
  }
  const walk = [[root0.id, new Set()]];
  while (walk.length) {
    const [id, open] = walk.pop();
    const n = nodes.get(id);
    const { fn, at, cat } = info(n);
    const key = `${fn}\u0000${at}`;
    let next = open;
    if (cat.startsWith('gw ') && !open.has(key)) {
      const entry = inclusive.get(key) ?? { fn, at, ms: 0 };
      entry.ms += subtree.get(id) ?? 0;
      inclusive.set(key, entry);
      next = new Set(open).add(key);
    }
    for (const c of n.children ?? []) walk.push([c, next]);
  }

  const round = (x) => Math.round(x * 10) / 10;
  const rows = (list, n) =>
    list
      .sort((a, b) => b.ms - a.ms)
      .slice(0, n)
      .map((e) => ({ ...e, ms: round(e.ms), pct: round(pct(e.ms)) }));
  return {
    samples: kept,
    windowed: windows !== null,
    sampledMs: round(total),
    idleMs: round(idle),
    busyMs: round(busy),
    categories: [...byCat].map(([name, ms]) => ({ name, ms: round(ms), pct: round(pct(ms)) })).sort((a, b) => b.ms - a.ms),
    topSelf: rows([...byKey.values()], 25),
    topOursSelf: rows(
      [...byKey.values()].filter((e) => e.cat.startsWith('gw ')),
      15,
    ),
    ourFiles: [...byFile]
      .map(([file, ms]) => ({ file, ms: round(ms), pct: round(pct(ms)) }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 15),
    topOursInclusive: rows([...inclusive.values()], 15),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const summary = summarizeProfile(JSON.parse(readFileSync(process.argv[2], 'utf8')), root);
  console.log(JSON.stringify(summary, null, 2));
}
