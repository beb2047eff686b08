import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Packages a process must load only when it is asked for what needs them (by
 * a dynamic `import()`), because loading them costs memory every gw serve and
 * gw extproc would carry for nothing: @kubernetes/client-node alone adds about
 * 70 MB of RSS, more than a fresh gw serve without it.
 */
const HEAVY = ['@kubernetes/client-node'];

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
/** What `gw serve` and `gw extproc` load: the command line, then the command's own module (loaded by import() when it runs). */
const ENTRIES = [join(ROOT, 'src', 'cli', 'main.ts'), join(ROOT, 'src', 'serve', 'run-serve.ts'), join(ROOT, 'src', 'extproc', 'run-extproc.ts')];

/** The modules a file loads when it is loaded: static imports and re-exports that survive compilation (not `import type`, not `import()`). */
export function loadedBy(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: string[] = [];
  for (const node of source.statements) {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      if (clause?.isTypeOnly) continue;
      const bindings = clause?.namedBindings;
      const onlyTypes =
        clause !== undefined && clause.name === undefined && bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
      if (!onlyTypes) out.push((node.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier !== undefined && !node.isTypeOnly) {
      out.push((node.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  return out;
}

/** Every heavy package reachable from `entry` by loading alone, each with the chain of files that reaches it. */
function heavyChains(entry: string): string[] {
  const seen = new Map<string, string[]>([[entry, [entry]]]);
  const queue = [entry];
  const found: string[] = [];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    const chain = seen.get(file) as string[];
    for (const specifier of loadedBy(file, readFileSync(file, 'utf8'))) {
      if (specifier.startsWith('.')) {
        const target = resolve(dirname(file), specifier).replace(/\.js$/, '.ts');
        if (!seen.has(target)) {
          seen.set(target, [...chain, target]);
          queue.push(target);
        }
      } else if (HEAVY.includes(specifier)) {
        found.push(`${[...chain].map((f) => relative(ROOT, f)).join(' → ')} → ${specifier}`);
      }
    }
  }
  return found;
}

describe('heavy packages are loaded on demand', () => {
  it.each(ENTRIES.map((e) => [relative(ROOT, e), e]))('%s loads no heavy package until asked', (_, entry) => {
    expect(heavyChains(entry)).toEqual([]);
  });

  it('the reader counts value imports and re-exports, not type-only imports', () => {
    const text = [
      "import { A, type B } from './a.js';",
      "import type { C } from './c.js';",
      "import { type D } from './d.js';",
      "import './e.js';",
      "export { F } from './f.js';",
      "export type { G } from './g.js';",
      "const h = await import('./h.js');",
    ].join('\n');
    expect(loadedBy('x.ts', text)).toEqual(['./a.js', './e.js', './f.js']);
  });
});
