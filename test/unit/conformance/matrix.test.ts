import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without type declarations
import * as gen from '../../../scripts/gen-conformance.mjs';

interface Statement {
  id: string;
  section: string;
  kind: string;
  statement: string;
  decision?: string;
  doc?: string;
}
interface TaggedTest {
  file: string;
  title: string;
  tags: string[];
  bothPlanes: boolean;
}
interface Row {
  statement: Statement;
  both: TaggedTest[];
  other: TaggedTest[];
  gaps: string[];
}
const generator = gen as {
  ROOT: string;
  OUT: string;
  KINDS: string[];
  loadStatements(): Statement[];
  scanTests(): TaggedTest[];
  buildRows(statements: Statement[], tests: TaggedTest[]): Row[];
  generate(resultsFile: string | null): string;
  withoutResults(markdown: string): string;
};

const statements = generator.loadStatements();
const tests = generator.scanTests();

describe('conformance matrix (docs/conformance.md)', () => {
  it('has one well-formed row per statement, ids unique', () => {
    const ids = statements.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const s of statements) {
      expect(s.id).toMatch(/^S\d+(\.\d+)?-[a-z0-9]+$/);
      expect(s.id.startsWith(`S${s.section}-`)).toBe(true);
      expect(generator.KINDS).toContain(s.kind);
      expect(s.statement.length).toBeGreaterThan(10);
    }
  });

  it('covers every statement with no gaps: plane rows tested on both data planes, control rows tested, the rest decided and documented', () => {
    const gaps = generator.buildRows(statements, tests).filter((r) => r.gaps.length > 0);
    expect(gaps.map((r) => `${r.statement.id}: ${r.gaps.join(', ')}`)).toEqual([]);
  });

  it('names only statements that exist in test titles', () => {
    const known = new Set(statements.map((s) => s.id));
    const unknown = tests.flatMap((t) => t.tags.filter((tag) => !known.has(tag)).map((tag) => `${t.file}: ${tag}`));
    expect(unknown).toEqual([]);
  });

  it('points every decision at a document and heading that exist', () => {
    for (const s of statements.filter((x) => x.doc !== undefined)) {
      const [file, anchor] = (s.doc as string).split('#');
      const path = join(generator.ROOT, file as string);
      expect(existsSync(path), s.doc).toBe(true);
      if (anchor !== undefined) {
        const anchors = readFileSync(path, 'utf8')
          .split('\n')
          .filter((l) => /^#{1,6} /.test(l))
          .map((l) =>
            l
              .replace(/^#+ /, '')
              .toLowerCase()
              .replace(/[^a-z0-9 -]/g, '')
              .replace(/ /g, '-'),
          );
        expect(anchors, s.doc).toContain(anchor);
      }
    }
  });

  it('is up to date with the statements and the test titles (results are checked by `make test`)', () => {
    const committed = readFileSync(generator.OUT, 'utf8');
    expect(generator.withoutResults(committed)).toBe(generator.withoutResults(generator.generate(null)));
  });
});
