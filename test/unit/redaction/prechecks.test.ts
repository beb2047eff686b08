import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RULES, type Rule } from '../../../src/redaction/index.js';
import { isTokenPrecheck } from '../../../src/redaction/prechecks.js';
import { SAMPLE_FAMILIES } from './samples/index.js';

// A precheck may only say "no" where its rule's pattern cannot match: at
// every position of every text below, a sticky match of the pattern implies
// that the precheck said yes. The texts are the rules' own samples, the
// independent tuning set, variants of both (JSON-escaped, case changed,
// spacing changed, cut short) and random strings made of the pieces the
// patterns are built from.

const withPrecheck = RULES.filter((r): r is Rule & { precheck: NonNullable<Rule['precheck']> } => r.precheck !== undefined);
// Prefixed tokens share one precheck (their look-behind); they are checked
// on their own samples, the other prechecks on every text.
const handWritten = withPrecheck.filter((r) => !isTokenPrecheck(r.precheck));
const sticky = new Map(withPrecheck.map((r) => [r.id, new RegExp(r.pattern.source, `${r.pattern.flags.replace(/[gyd]/g, '')}y`)]));

/** Positions where the pattern matches but the precheck said no. */
function rejectedMatches(rule: (typeof withPrecheck)[number], text: string): number[] {
  const re = sticky.get(rule.id)!;
  const bad: number[] = [];
  for (let at = 0; at < text.length; at++) {
    re.lastIndex = at;
    if (re.test(text) && !rule.precheck(text, at)) bad.push(at);
  }
  return bad;
}

function matches(rule: (typeof withPrecheck)[number], text: string): number {
  const re = sticky.get(rule.id)!;
  let n = 0;
  for (let at = 0; at < text.length; at++) {
    re.lastIndex = at;
    if (re.test(text)) n++;
  }
  return n;
}

const sampleTexts: string[] = [];
const ownSamples = new Map<string, string[]>();
for (const table of Object.values(SAMPLE_FAMILIES)) {
  for (const [id, samples] of Object.entries(table)) {
    const texts = [...samples.tp.map((t) => `${t.before}${t.secret}${t.after}`), ...samples.fp];
    ownSamples.set(id, texts);
    sampleTexts.push(...texts);
  }
}
// The evaluation sets live in bench/ as plain JavaScript.
const setsModule = '../../../bench/redaction-sets/generate.mjs';
const { generateSet } = (await import(setsModule)) as { generateSet: (name: string) => { text: string }[] };
const tuningTexts = generateSet('tuning').map((c) => c.text);

const variants = (text: string): string[] => [
  text,
  JSON.stringify(text).slice(1, -1),
  JSON.stringify(JSON.stringify(text)).slice(1, -1),
  text.toUpperCase(),
  text.toLowerCase(),
  text.replace(/ /g, '\t'),
  text.replace(/ /g, '  '),
  text.replace(/([=:])/g, ' $1 '),
  text.replace(/"/g, "'"),
  text.slice(0, Math.floor(text.length * 0.8)),
];

describe('rule prechecks', () => {
  it('exist for the rules whose keywords hit most often in ordinary text', () => {
    const ids = new Set(withPrecheck.map((r) => r.id));
    for (const id of ['generic-api-key', 'generic-password', 'generic-camel-key', 'adonet-password', 'log-key-value', 'url-credentials', 'any-url-password', 'http-bearer-token']) {
      expect(ids.has(id), id).toBe(true);
    }
    // Every prefixed token rule reads its look-behind first.
    expect(withPrecheck.length).toBeGreaterThan(200);
  });

  it('never reject a position where the pattern matches, on the samples and their variants', () => {
    const all = sampleTexts.flatMap(variants);
    const failures: string[] = [];
    const matched = new Map<string, number>();
    for (const rule of withPrecheck) {
      const texts = handWritten.includes(rule) ? all : (ownSamples.get(rule.id) ?? []).flatMap(variants);
      for (const text of texts) {
        const bad = rejectedMatches(rule, text);
        if (bad.length > 0) failures.push(`${rule.id} at ${bad.join(',')} in ${JSON.stringify(text.slice(0, 120))}`);
        matched.set(rule.id, (matched.get(rule.id) ?? 0) + matches(rule, text));
      }
    }
    expect(failures).toEqual([]);
    // Not vacuous: the texts hold matches of every rule that has a precheck.
    const unmatched = withPrecheck.filter((r) => (matched.get(r.id) ?? 0) === 0).map((r) => r.id);
    expect(unmatched).toEqual([]);
  });

  it('never reject a position where the pattern matches, on the tuning set and its variants', () => {
    const texts = tuningTexts.flatMap((t) => variants(t).slice(0, 4));
    const failures: string[] = [];
    for (const rule of handWritten) {
      for (const text of texts) {
        const bad = rejectedMatches(rule, text);
        if (bad.length > 0) failures.push(`${rule.id} at ${bad.join(',')}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('never reject a position where the pattern matches, on random strings of pattern pieces', () => {
    const pieces = [
      'token',
      'secret',
      'api key',
      'API_KEY',
      '_key',
      'Key',
      'apiKey',
      'myKey',
      'password',
      'Pwd',
      'passwd',
      'key',
      'KEY',
      'authorization',
      'Authorization',
      'x-api-key',
      'Bearer',
      'bearer',
      'Server=db;',
      'Password',
      'User ID=sa;',
      'http',
      'https',
      'redis',
      'postgres',
      'kafka',
      '://',
      'user',
      '@',
      'host',
      '/',
      '?',
      '#',
      '=',
      ':',
      '=>',
      ':=',
      '::=',
      '?=',
      '.=',
      ' - ',
      ',',
      ']',
      '[',
      '>',
      '</',
      '<',
      '(',
      ')',
      '{',
      '}',
      ';',
      '&',
      '"',
      "'",
      '`',
      '\\',
      '\\"',
      '\\n',
      ' ',
      '  ',
      '\t',
      '\n',
      'string ',
      'str ',
      'char* ',
      '.',
      '-',
      '_',
      'x',
      'Ab3',
      'A1b2C3d4E5',
      'f0e1d2c3b4a59687',
      'Zq9-Wm7_Lp5.Kr3~',
      'ghp_',
      'sk_live_',
      'pat',
      'DI',
      '1/',
      '2/',
    ];
    const failures: string[] = [];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 16 }), (parts) => {
        const text = parts.join('');
        for (const rule of handWritten) {
          const bad = rejectedMatches(rule, text);
          if (bad.length > 0) failures.push(`${rule.id} at ${bad.join(',')} in ${JSON.stringify(text)}`);
        }
        return failures.length === 0;
      }),
      { numRuns: 3000, seed: 1414 },
    );
    expect(failures).toEqual([]);
  });

  it('say no to the ordinary uses of the words that the regex attempts used to be spent on', () => {
    const rule = (id: string) => withPrecheck.find((r) => r.id === id)!;
    const no = (id: string, text: string, at = 0) => expect(rule(id).precheck(text, at), `${id}: ${text}`).toBe(false);
    no('generic-api-key', 'token must be rotated before the session expires');
    no('generic-api-key', 'token: string)');
    no('generic-api-key', 'token", "err", err)');
    no('generic-api-key', 'secretRef: z.string().optional(),');
    no('generic-password', 'password: str | None = None');
    no('generic-api-key', 'API_KEY=${API_KEY}');
    no('adonet-password', 'password for the user');
    no('url-credentials', 'https://api.example.com/v2/users');
    no('any-url-password', 'https://api.example.com/v2/users', 5);
    no('http-bearer-token', 'Bearer ${token}');
    no('log-key-value', 'key: api-key');
  });
});
