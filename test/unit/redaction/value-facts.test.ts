import { describe, expect, it } from 'vitest';
import { looksLikeIdentifier } from '../../../src/redaction/filters.js';
import { charFacts, PLAUSIBLE_GATES } from '../../../src/redaction/rules/generic.js';

// plausibleValue skips a regex test when the value lacks every character
// the test's gate names; a gate that named too few would let a value
// through that the test rejects. Each gate is checked against its test on
// values built to match the tests (URLs, paths, dates, versions, e-mail
// addresses, CamelCase names, templates) and on random ones.

const SHAPES = [
  'https://example.org/x',
  'git+ssh://h/x',
  '/etc/passwd',
  './config.yaml',
  '~/x',
  'key.pem',
  'a/b/c#edit',
  '/en/enterprise-server@3.0/auth',
  '2024-11-01',
  'v1.2.3',
  '10.0.0.1',
  'someone@example.org',
  'AgencyIdentificationCodeContentType',
  'key-${i}',
  '{{ .Values.x }}',
  '#{x}',
  '%(x)s',
];
const ALPHABET = 'aZ9/.:@-_{(#$%~+=!?|*<>[]\'" \tÄ';

function values(): string[] {
  let seed = 11;
  const rand = (n: number): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
  const out = [...SHAPES];
  for (let k = 0; k < 20_000; k++) {
    let v = rand(3) === 0 ? SHAPES[rand(SHAPES.length)]! : '';
    for (let j = rand(24); j > 0; j--) v += ALPHABET[rand(ALPHABET.length)];
    if (rand(2) === 0) v = v.slice(rand(4)) + SHAPES[rand(SHAPES.length)]!.slice(rand(6));
    out.push(v);
    // Anchored shapes (an e-mail address, a URL) with random parts inside.
    const at = SHAPES[rand(SHAPES.length)]!;
    const cut = rand(at.length + 1);
    out.push(at.slice(0, cut) + ALPHABET[rand(ALPHABET.length)]! + at.slice(cut));
  }
  return out;
}

describe('value facts', () => {
  it('never skips a plausibility test that would reject the value', () => {
    const tested = PLAUSIBLE_GATES.map(() => 0);
    for (const v of values()) {
      const facts = charFacts(v);
      PLAUSIBLE_GATES.forEach((gate, g) => {
        const matches = typeof gate.test === 'function' ? gate.test(v) : gate.test.test(v);
        if (!matches) return;
        tested[g]!++;
        expect((facts & gate.needs) !== 0, `${String(gate.test)} on ${JSON.stringify(v)}`).toBe(true);
      });
    }
    // Every gate was checked on values its test matches.
    tested.forEach((n, g) => expect(n, String(PLAUSIBLE_GATES[g]!.test)).toBeGreaterThan(20));
  });

  it('reads three digits as no identifier, as the regex does', () => {
    for (const v of values()) {
      if ((v.match(/[0-9]/g) ?? []).length >= 3) expect(looksLikeIdentifier(v)).toBe(false);
    }
    expect(looksLikeIdentifier('OAuth2Client')).toBe(true);
    expect(looksLikeIdentifier('OAuth2Client3x4')).toBe(false);
  });
});
