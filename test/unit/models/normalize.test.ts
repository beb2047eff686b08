import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeModelId } from '../../../src/models/normalize.js';

describe('normalizeModelId', () => {
  it.each([
    ['claude-sonnet-4-5', 'claudesonnet45'],
    ['Claude-Sonnet-4.5', 'claudesonnet45'],
    ['CLAUDE.SONNET.4.5', 'claudesonnet45'],
    ['claude-sonnet-4-5-20250929', 'claudesonnet4520250929'],
    ['anthropic/claude-sonnet-4.5', 'anthropic/claudesonnet45'],
    ['provider_a', 'provider_a'],
    ['llama3:8b-Instruct', 'llama3:8binstruct'],
    ['', ''],
    ['-.-', ''],
  ])('%j → %j', (id, expected) => {
    expect(normalizeModelId(id)).toBe(expected);
  });

  it('leaves characters other than ASCII capitals, dashes and dots alone', () => {
    expect(normalizeModelId('Modèle_ÉTÉ/模型 x')).toBe('modèle_ÉtÉ/模型 x');
  });

  it('drops every dash and dot and lowers every ASCII capital, whether the id needed no change, one or many', () => {
    const reference = (id: string): string => id.replace(/[-.]/g, '').replace(/[A-Z]/g, (c) => c.toLowerCase());
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom('a', 'Z', '-', '.', '4', 'é', 'É', '_') }), (id) => normalizeModelId(id) === reference(id)));
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (id) => normalizeModelId(id) === reference(id)));
  });

  it('is idempotent and ignores capitals, dashes and dots wherever they are', () => {
    fc.assert(
      fc.property(fc.string(), (id) => {
        const once = normalizeModelId(id);
        return normalizeModelId(once) === once && normalizeModelId(id.toLowerCase()) === once && !/[A-Z.-]/.test(once);
      }),
    );
  });

  it('gives ids that differ only in capitals, dashes and dots the same form', () => {
    const noise = fc.constantFrom('-', '.', '');
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...'abcxyz0129/_:'), fc.boolean(), noise), { maxLength: 30 }), (parts) => {
        const plain = parts.map(([c]) => c).join('');
        const noisy = parts.map(([c, upper, sep]) => (upper ? c.toUpperCase() : c) + sep).join('');
        return normalizeModelId(noisy) === normalizeModelId(plain);
      }),
    );
  });

  it('answers a repeated id as it answered it first, across more distinct ids than it remembers', () => {
    // The rewrites are remembered (a bounded table that starts over when full): each answer must still be the id's own.
    const reference = (id: string): string => id.replace(/[-.]/g, '').replace(/[A-Z]/g, (c) => c.toLowerCase());
    const ids = Array.from({ length: 3000 }, (_, i) => `Claude-Model-${i}.${i % 7}`);
    for (let pass = 0; pass < 3; pass++) for (const id of ids) expect(normalizeModelId(id)).toBe(reference(id));
    const long = `A-${'x'.repeat(300)}`;
    expect(normalizeModelId(long)).toBe(reference(long));
    expect(normalizeModelId(long)).toBe(reference(long));
  });
});
