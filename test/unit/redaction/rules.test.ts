import { describe, expect, it } from 'vitest';
import { RULES, redactText, type Rule } from '../../../src/redaction/index.js';
import { lintPattern } from '../../../src/redaction/pattern-lint.js';
import { Redactor } from '../../../src/redaction/redactor.js';
import { distinctivePrefix } from '../../../src/redaction/rule.js';
import { SAMPLE_FAMILIES } from './samples/index.js';
import type { RuleSamples } from './samples/types.js';

// Budgets are generous: these tests are about what rules find, and the
// machine running them may be busy.
const BUDGET = 10_000;
const clock = (): number => performance.now();

const samplesById = new Map<string, RuleSamples>();
for (const table of Object.values(SAMPLE_FAMILIES)) {
  for (const [id, samples] of Object.entries(table)) samplesById.set(id, samples);
}
const ruleById = new Map<string, Rule>(RULES.map((r) => [r.id, r]));
const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

describe('the rule set', () => {
  it('has at least 100 rules with unique, well-formed ids', () => {
    expect(RULES.length).toBeGreaterThanOrEqual(100);
    expect(ruleById.size).toBe(RULES.length);
    for (const r of RULES) expect(r.id).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
  });

  it("covers the gateway's own caller tokens: gwct_ and exactly 46 base62 characters", () => {
    const rule = ruleById.get('gw-caller-token');
    expect(rule).toBeDefined();
    const only = new Redactor([rule!]);
    const token = `gwct_${'aB3'.repeat(15)}x`;
    expect(token).toHaveLength(51);
    expect(only.redactText(Buffer.from(`Bearer ${token}`), BUDGET, clock).findings).toEqual([{ ruleId: 'gw-caller-token', start: 7, end: 58 }]);
    expect(only.redactText(Buffer.from(`Bearer ${token}y`), BUDGET, clock).findings).toEqual([]);
  });

  it('gives every rule at least one true-positive and one false-positive sample', () => {
    const missing = RULES.filter((r) => {
      const s = samplesById.get(r.id);
      return s === undefined || s.tp.length === 0 || s.fp.length === 0;
    }).map((r) => r.id);
    expect(missing).toEqual([]);
  });

  it('has no samples for rules that do not exist', () => {
    expect([...samplesById.keys()].filter((id) => !ruleById.has(id))).toEqual([]);
  });

  it('gives every rule keywords, a capture group and no engine flags', () => {
    for (const r of RULES) {
      expect(r.keywords.length, r.id).toBeGreaterThan(0);
      expect(r.pattern.flags.replace('i', ''), r.id).toBe('');
      expect(new RegExp(`${r.pattern.source}|`).exec('')!.length, r.id).toBeGreaterThan(1);
    }
  });

  it('uses bounded quantifiers only, so no rule nests unbounded ones', () => {
    const problems = RULES.flatMap((r) => lintPattern(r.pattern.source).map((p) => `${r.id}: ${p.detail}`));
    expect(problems).toEqual([]);
  });

  // Issue 29, decision 1 as revised (docs/redaction.md): a distinctive vendor
  // prefix lifts the entropy floor, not the test for stand-ins.
  it('takes a distinctive vendor prefix as evidence against low entropy, never for a stand-in', () => {
    for (const k of ['AKIA', 'ASIA', 'ghp_', 'github_pat_', 'glpat-', 'xoxb-', 'sk-ant-api03-', 'AIza', 'sk_live_', 'npm_', 'AKCp']) {
      expect(distinctivePrefix(k), k).toBe(true);
    }
    for (const k of ['SK', 'hf_', 'EAA', 'EAAA', 'live_', 'sk-', 'sk_', 'secret-', 'pat.', 'API-', 'AAAAAAAAAAAAAAAAAAAAA', '1//0', 'v1.0-']) {
      expect(distinctivePrefix(k), k).toBe(false);
    }
    const found = (text: string): string[] => redactText(Buffer.from(text), { budgetMs: BUDGET }).findings.map((f) => f.ruleId);
    // Stand-ins stay with or without a prefix.
    expect(found(`GITHUB_TOKEN=ghp_${'x'.repeat(36)}`)).toEqual([]);
    expect(found(`aws_access_key_id = AKIA${'Z'.repeat(16)}`)).toEqual([]);
    expect(found(`api_key = "${'x'.repeat(36)}"`)).toEqual([]);
    // A body that only draws little entropy (two symbols, no run, no word) is a key after a distinctive prefix...
    const lowEntropy = 'abbaabab'.repeat(5).slice(0, 36);
    expect(found(`GITHUB_TOKEN=ghp_${lowEntropy}`)).toEqual(['github-pat']);
  });

  it('does not use \\s, which also matches bytes of UTF-8 sequences read as latin1', () => {
    const offenders = RULES.filter((r) => /(?<!\\)(?:\\\\)*\\s/.test(r.pattern.source)).map((r) => r.id);
    expect(offenders).toEqual([]);
  });
});

for (const [family, table] of Object.entries(SAMPLE_FAMILIES)) {
  describe(`${family} rules`, () => {
    for (const [id, samples] of Object.entries(table)) {
      const rule = ruleById.get(id);
      it(`${id}: finds each true positive exactly and no false positive`, () => {
        expect(rule, `rule ${id}`).toBeDefined();
        const only = new Redactor([rule!]);
        for (const { before, secret, after } of samples.tp) {
          const text = before + secret + after;
          const start = bytes(before);
          expect(only.redactText(Buffer.from(text), BUDGET, clock).findings, text).toEqual([{ ruleId: id, start, end: start + bytes(secret) }]);
          // With every rule in play the secret is still gone, whichever rule names it.
          expect(redactText(Buffer.from(text), { budgetMs: BUDGET }).body.toString()).not.toContain(secret);
        }
        for (const text of samples.fp) {
          expect(only.redactText(Buffer.from(text), BUDGET, clock).findings, text).toEqual([]);
        }
      });
    }
  });
}
