import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: bench code is plain ESM JavaScript without types.
import { BUDGETS, budget, meets, targetText } from '../../../bench/budgets.mjs';

/**
 * The budgets of `make bench` are declared once (bench/budgets.mjs); the
 * report and the cases only name them. Every declared budget is judged
 * somewhere, every judged one is declared, and the verdict and the target text
 * both come from the same limit.
 */

type Budgets = Record<string, { what: string; atMost?: number | number[]; atLeast?: number | number[]; below?: number; target?: string; unit?: string }>;
const TABLE = BUDGETS as Budgets;
const BENCH = resolve(import.meta.dirname, '..', '..', '..', 'bench');

function benchSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.isDirectory()) return e.name === 'results' || e.name === 'peers' || e.name === 'node_modules' ? [] : benchSources(join(dir, e.name));
    return e.name.endsWith('.mjs') && e.name !== 'budgets.mjs' ? [join(dir, e.name)] : [];
  });
}

describe('bench budgets', () => {
  const named = benchSources(BENCH).flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/\bbudget\(\s*'([^']+)'/g)].map((m) => m[1] as string));

  it('every declared budget is judged by the report or a case, and every judged one is declared', () => {
    expect([...new Set(named)].sort()).toEqual(Object.keys(TABLE).sort());
  });

  it('no budget is pushed as a literal object beside the table (its limit would be written twice)', () => {
    const literal = benchSources(BENCH).filter((file) => /budgets\.push\(\{|budgets: \[\{|\btarget: '[≤≥<]/.test(readFileSync(file, 'utf8')));
    expect(literal).toEqual([]);
  });

  it('declares each budget with one kind of limit, or a text target judged by its case', () => {
    for (const [key, b] of Object.entries(TABLE)) {
      const kinds = [b.atMost, b.atLeast, b.below, b.target].filter((v) => v !== undefined);
      expect(kinds, key).toHaveLength(1);
      expect(b.what.length, key).toBeGreaterThan(0);
      if (b.target === undefined) expect(b.unit, key).toBeTruthy();
    }
  });

  it('derives the target text and the verdict from the same limit', () => {
    expect(targetText('s1-p50')).toBe('≤ 0.3 ms');
    expect(targetText('vs-portkey')).toBe('≥ 3×');
    expect(targetText('usage-export')).toBe('≥ 20,000 records/s');
    expect(targetText('redaction')).toBe('≥ 50 / ≥ 20 MB/s');
    expect(targetText('redaction-stall')).toBe('< 50 ms');
    expect(meets('s1-p50', 0.3)).toBe(true);
    expect(meets('s1-p50', 0.31)).toBe(false);
    expect(meets('vs-portkey', 2.99)).toBe(false);
    expect(meets('redaction', [50, 19.9])).toBe(false);
    expect(meets('redaction', [50, 20])).toBe(true);
    expect(meets('redaction-stall', 50)).toBe(false);
    expect(meets('s1-p50', null)).toBeNull();
    expect(() => meets('revocation', 1)).toThrow(/judged by its case/);
    expect(() => budget('no-such-budget', 1)).toThrow(/not declared/);
  });

  it('leaves a quick run unjudged, fails a failed case, and lets an extra condition fail a met limit', () => {
    expect(budget('rss-streams', 120, { judged: false }).ok).toBeNull();
    expect(budget('rss-streams', 120, { also: false }).ok).toBe(false);
    expect(budget('rss-streams', 120).ok).toBe(true);
    expect(budget('usage-export', null, { failed: true }).ok).toBe(false);
    expect(budget('revocation', null, { ok: null }).ok).toBeNull();
  });
});
