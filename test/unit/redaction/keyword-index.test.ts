import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KeywordIndex } from '../../../src/redaction/keyword-index.js';

function naive(keywords: readonly string[], text: string): string[] {
  const lower = text.toLowerCase();
  const hits: string[] = [];
  keywords.forEach((k, id) => {
    for (let at = lower.indexOf(k); at >= 0; at = lower.indexOf(k, at + 1)) hits.push(`${id}@${at}`);
  });
  return hits.sort();
}

function scan(index: KeywordIndex, text: string, chunk = text.length): string[] {
  const hits: string[] = [];
  const bytes = Buffer.from(text, 'latin1');
  let state = 0;
  for (let from = 0; from < text.length; from += chunk) {
    state = index.scan(bytes, from, Math.min(text.length, from + chunk), (k, at) => hits.push(`${k}@${at}`), state);
  }
  return hits.sort();
}

describe('KeywordIndex', () => {
  it('finds every occurrence of every keyword, case-insensitively and overlapping', () => {
    const index = new KeywordIndex(['he', 'she', 'his', 'hers', 'ghp_', 'Bearer ']);
    expect(scan(index, 'uSHErs say BEARER ghp_ghp_')).toEqual(naive(index.keywords, 'uSHErs say BEARER ghp_ghp_'));
  });

  it('agrees with a naive search on random keywords and texts, also when scanned in chunks', () => {
    const char = fc.constantFrom('a', 'b', 'A', 'B', '_', '-', '.', 'é');
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ unit: fc.constantFrom('a', 'b', '_', '-', '.'), minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 8 }),
        fc.string({ unit: char, maxLength: 200 }),
        fc.integer({ min: 1, max: 17 }),
        (keywords, text, chunk) => {
          const index = new KeywordIndex(keywords);
          expect(scan(index, text, chunk)).toEqual(naive(index.keywords, text));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('rejects keywords it cannot match byte for byte', () => {
    expect(() => new KeywordIndex(['ok', ''])).toThrow();
    expect(() => new KeywordIndex(['clé'])).toThrow();
  });
});
