// Summarises a V8 sampling heap profile (node --heap-prof, written at exit): the bytes still live
// at the end, by allocating function and by category (our code, undici, Node core, ...), and our
// functions' allocations including what they call. Used by the profile case; also runnable:
//
//   node bench/heap-summary.mjs bench/results/gw-serve-<date>.heapprofile
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { category, where } from './profile-summary.mjs';

export function summarizeHeapProfile(profile, root) {
  const byFn = new Map();
  const byCat = new Map();
  const ours = new Map();
  let total = 0;
  const walk = (node, ourStack) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const fn = functionName || '(anonymous)';
    const cat = category(functionName, url, root);
    const at = where(url, lineNumber, root);
    const key = `${fn} ${at}`;
    const self = node.selfSize ?? 0;
    total += self;
    if (self > 0) {
      const e = byFn.get(key) ?? { fn, at, cat, bytes: 0 };
      e.bytes += self;
      byFn.set(key, e);
      byCat.set(cat, (byCat.get(cat) ?? 0) + self);
    }
    const stack = cat === 'gw (our code, dist/)' && !ourStack.includes(key) ? [...ourStack, key] : ourStack;
    if (stack !== ourStack) ours.set(key, ours.get(key) ?? { fn, at, bytes: 0 });
    for (const k of stack) if (self > 0) ours.get(k).bytes += self;
    for (const child of node.children ?? []) walk(child, stack);
  };
  walk(profile.head, []);
  const mb = (b) => b / 2 ** 20;
  const pct = (b) => (total ? (100 * b) / total : 0);
  return {
    totalMB: mb(total),
    categories: [...byCat].map(([name, b]) => ({ name, mb: mb(b), pct: pct(b) })).sort((a, b) => b.mb - a.mb),
    topSelf: [...byFn.values()]
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, 25)
      .map((e) => ({ ...e, mb: mb(e.bytes), pct: pct(e.bytes) })),
    topOursInclusive: [...ours.values()]
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, 15)
      .map((e) => ({ ...e, mb: mb(e.bytes), pct: pct(e.bytes) })),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = process.argv[2];
  const s = summarizeHeapProfile(JSON.parse(readFileSync(file, 'utf8')), resolve(dirname(fileURLToPath(import.meta.url)), '..'));
  console.log(`live at exit (sampled): ${s.totalMB.toFixed(2)} MB`);
  for (const c of s.categories) console.log(`${c.mb.toFixed(2).padStart(8)} MB ${c.pct.toFixed(1).padStart(5)} %  ${c.name}`);
  for (const e of s.topSelf) console.log(`${e.mb.toFixed(2).padStart(8)} MB  ${e.fn}  ${e.at}`);
}
