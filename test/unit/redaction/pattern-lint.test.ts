import { describe, expect, it } from 'vitest';
import { lintPattern } from '../../../src/redaction/pattern-lint.js';

const kinds = (source: string) => lintPattern(source).map((p) => p.kind);

describe('lintPattern', () => {
  it('flags unbounded quantifiers nested in repeated groups', () => {
    expect(kinds('(a+)+')).toContain('nested-unbounded');
    expect(kinds('(?:\\w+\\s?)*')).toContain('nested-unbounded');
    expect(kinds('(?:x|(?:y{2,})){1,9}')).toContain('nested-unbounded');
    expect(kinds('(a*){2}')).toContain('nested-unbounded');
  });

  it('flags any unbounded quantifier', () => {
    expect(kinds('a+')).toEqual(['unbounded']);
    expect(kinds('a*?b')).toEqual(['unbounded']);
    expect(kinds('a{3,}')).toEqual(['unbounded']);
  });

  it('accepts bounded and nested bounded quantifiers, and quantifier characters that are literal', () => {
    expect(kinds('(?:[A-Z]{1,4}-){0,3}[0-9]{2}')).toEqual([]);
    expect(kinds('[+*]{1,3}\\+\\*a{,5}')).toEqual([]);
    expect(kinds('(?<![a-z])x?(?=y)')).toEqual([]);
  });
});
