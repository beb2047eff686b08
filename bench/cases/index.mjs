// The registry of bench cases: every other .mjs file in this folder is one case module, found by
// listing the folder (so a new case is a new file, with no shared list to edit). A case module's
// default export:
//
//   { id: 's11',                       // --only / --skip name
//     order: 80,                       // run order (lower first); the long-lived proxy cases are 10
//     selected?: () => boolean,        // default: runs(id)
//     usesPeers?: true,                // installs the peers (Portkey, LiteLLM) before the deadline starts
//     usesBaseline?: true,             // builds the baseline (bench/lib/baseline.mjs) likewise
//     run: async (ctx) => void,        // ctx: { mock, memFile, scanFile, results, peerVersions }; store
//                                      // results under ctx.results.scenarios[id] (or ctx.results.cases[id])
//     report?: ({ results, resultsDir, date }) =>
//              { sections: string[], budgets: Budget[], charts?: { file, title }[] } | null }
//
// Budget: { what, target, measured?, unit?, measuredText?, vsDirectText?, vsPortkeyText?, ok: true | false | null }.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export async function loadCases() {
  const dir = dirname(fileURLToPath(import.meta.url));
  const list = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.mjs') && f !== 'index.mjs')
    .sort()) {
    const mod = await import(join(dir, file));
    const c = mod.default;
    if (!c || typeof c.id !== 'string' || typeof c.run !== 'function') throw new Error(`bench/cases/${file}: the default export needs an id and a run(ctx)`);
    list.push({ ...c, file });
  }
  const ids = new Set();
  for (const c of list) {
    if (ids.has(c.id)) throw new Error(`bench/cases: two cases named ${c.id}`);
    ids.add(c.id);
  }
  return list.sort((a, b) => (a.order ?? 100) - (b.order ?? 100) || a.id.localeCompare(b.id));
}
