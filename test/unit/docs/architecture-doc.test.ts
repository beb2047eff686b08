import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md is a map of the tree: every path it names must exist,
 * and every bare file name it names must be a file somewhere in the tree.
 * A rename or a removal fails here until the map follows.
 */
const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const DOC = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    if (e.name === 'node_modules' || e.name === 'results' || e.name.startsWith('.')) return [];
    const path = `${dir}/${e.name}`;
    return e.isDirectory() ? filesUnder(path) : [path];
  });
}

const TREE = ['src', 'test', 'scripts', 'bench', 'charts', 'crds', 'proto', 'examples', 'docs'].flatMap(filesUnder);
const NAMES = new Set(TREE.map((p) => p.slice(p.lastIndexOf('/') + 1)));

/** Every `code span` of the doc that looks like a path or a file name. */
function namedPaths(markdown: string): { paths: string[]; names: string[] } {
  const spans = [...markdown.matchAll(/`([^`\s]+)`/g)].map((m) => (m[1] as string).replace(/[),.:;]+$/, ''));
  const paths = spans.filter((s) => /^(src|test|scripts|bench|docs|crds|charts|proto|examples)\//.test(s) && !/[*<>{}]/.test(s)).map((s) => s.replace(/\/$/, '').replace(/:\d+$/, ''));
  const names = spans.filter((s) => !s.includes('/') && /^[\w.-]+\.(ts|mjs|sh|go|yaml|json)$/.test(s));
  return { paths: [...new Set(paths)], names: [...new Set(names)] };
}

describe('docs/architecture.md', () => {
  const { paths, names } = namedPaths(DOC);

  it('names paths, and file names (the check has something to check)', () => {
    expect(paths.length).toBeGreaterThan(30);
    expect(names.length).toBeGreaterThan(10);
  });

  it('names only paths that exist', () => {
    expect(paths.filter((p) => !existsSync(join(ROOT, p)))).toEqual([]);
  });

  it('names only file names that exist in the tree', () => {
    expect(names.filter((n) => !NAMES.has(n))).toEqual([]);
  });

  it('does not send the reader to documents outside the repository', () => {
    expect(DOC).not.toMatch(/DESIGN(\.md)?\b/);
  });

  it('finds a path that does not exist (the check itself can fail)', () => {
    const planted = namedPaths('see `src/pipeline/no-such-step.ts` and `no-such-file.ts`');
    expect(planted.paths.filter((p) => !existsSync(join(ROOT, p)))).toEqual(['src/pipeline/no-such-step.ts']);
    expect(planted.names.filter((n) => !NAMES.has(n))).toEqual(['no-such-file.ts']);
  });
});
