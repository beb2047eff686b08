import { describe, expect, it } from 'vitest';
import { RULES, redactJsonBody, type Rule } from '../../../src/redaction/index.js';
import { maxMatchLength, PrecheckMemo } from '../../../src/redaction/prechecks.js';
import { Redactor } from '../../../src/redaction/redactor.js';
import { findRepeats } from '../../../src/redaction/repeats.js';
import type { Span } from '../../../src/redaction/splice.js';

// Bodies a caller can craft to make the scanner work hard (issue 29 point 4,
// docs/redaction.md "Hostile input: scan cost"). Their speed is measured by
// `make bench` (s8a, bench/redaction-adversarial.mjs); here the fixes are
// checked by what they count and what they find, never by the clock.

const body = (text: string): Buffer => Buffer.from(JSON.stringify({ model: 'm', messages: [{ role: 'user', content: text }] }));
const clock = (): number => 0;

function workPerByte(text: string): number {
  const redactor = new Redactor(RULES);
  const input = body(text);
  redactor.redactJsonBody(input, Number.POSITIVE_INFINITY, clock);
  return redactor.lastWork / input.length;
}

const rule = (id: string): Rule & { precheck: NonNullable<Rule['precheck']> } => {
  const r = RULES.find((x) => x.id === id);
  if (r?.precheck === undefined) throw new Error(`${id} has no precheck`);
  return r as Rule & { precheck: NonNullable<Rule['precheck']> };
};

describe('hostile input', () => {
  it('a name followed by `key key key …` does not overflow the stack', () => {
    for (const head of ['token', 'api key', 'secret key']) {
      const text = head + ' key'.repeat(200_000);
      expect(() => redactJsonBody(body(text))).not.toThrow();
      for (const id of ['generic-api-key', 'generic-password', 'generic-camel-key']) {
        expect(() => rule(id).precheck(text, 0)).not.toThrow();
      }
    }
  });

  it('the assignment precheck reads each character of a long value run once, with the same answers as without the memo', () => {
    const text = 'api_key:='.repeat(8000) + ' api_key = "a1B2c3D4e5F6g7H8" ' + 'password=-'.repeat(3000);
    for (const id of ['generic-api-key', 'generic-password']) {
      const { precheck, keywords } = rule(id);
      const memo = new PrecheckMemo();
      let calls = 0;
      for (let at = 0; at < text.length; at++) {
        if (!keywords.some((k) => text.startsWith(k, at))) continue;
        calls++;
        expect(precheck(text, at, memo)).toBe(precheck(text, at));
      }
      expect(calls).toBeGreaterThan(2_000);
      // Without the memo each hit would read up to 257 characters of the run.
      expect(memo.reads).toBeLessThan(2 * text.length);
    }
  });

  it('bounds the length of a match from the regex source', () => {
    expect(maxMatchLength('(?:fm1[ar]|fm2|fo1)_[A-Za-z0-9+/=_-]{40,4096}')).toBe(4 + 1 + 4096);
    expect(maxMatchLength('(?<![A-Z])(ab|c\\.d{2})e?(?=x)')).toBe(5);
    expect(maxMatchLength('a\\u0041[^\\]]{3}')).toBe(5);
    expect(maxMatchLength('a+')).toBe(Infinity);
    expect(maxMatchLength('a{2,}')).toBe(Infinity);
    expect(maxMatchLength('(a)\\1')).toBe(Infinity);
  });

  it('a prefixed token is not tried where the run of token characters is longer than any match', () => {
    // `fo1_=fo1_=…` is one run of [A-Za-z0-9_+/=-]: no Fly.io token can end
    // inside it, so no hit but those within 4,101 characters of its end can match.
    const text = 'fo1_='.repeat(20_000);
    const { precheck } = rule('flyio-token');
    const memo = new PrecheckMemo();
    const passed: number[] = [];
    for (let at = 0; at < text.length; at += 5) {
      const answer = precheck(text, at, memo);
      expect(answer).toBe(precheck(text, at));
      if (answer) passed.push(at);
    }
    expect(passed.length).toBeGreaterThan(0);
    expect(passed[0]).toBeGreaterThanOrEqual(text.length - 4101);
    expect(memo.reads).toBeLessThan(2 * text.length);
    expect(workPerByte(text)).toBeLessThan(40);
    // What the body holds is still removed (the last token, then its copies).
    expect(redactJsonBody(body(text)).body.toString()).not.toContain('fo1_=');
  });

  it('a contextual assignment is not tried where the run of value characters is longer than any match', () => {
    const text = 'awssessiontoken='.repeat(10_000);
    const { precheck } = rule('aws-session-token');
    const memo = new PrecheckMemo();
    const passed: number[] = [];
    for (let at = 0; at < text.length; at += 16) if (precheck(text, at, memo)) passed.push(at);
    expect(passed[0]).toBeGreaterThanOrEqual(text.length - 4400);
    expect(memo.reads).toBeLessThan(2 * text.length);
  });

  it('a rule does not try a keyword hit inside its own last match', () => {
    // Every `-password=` is a keyword hit whose match (the flag and 256
    // characters of value) covers the next 25 hits.
    expect(workPerByte('-password='.repeat(25_000))).toBeLessThan(20);
  });

  it('a found value repeated over itself is searched in linear time', () => {
    // One found value that is most of a periodic text: each self-overlapping
    // copy used to be compared in full, quadratic in the value's length.
    const value = Buffer.from('-password='.repeat(20_000));
    const input = Buffer.concat([value, Buffer.from(' '), value]);
    const out: Span[] = [];
    const work = findRepeats(input, [{ spellings: [value], rule: 0 }], false, out);
    expect(out.map((s) => s.start)).toEqual([0, value.length + 1]);
    expect(work).toBeLessThan(10 * input.length);
  });

  it('non-overlapping matches still redact every copy of a repeated assignment', () => {
    // Each value is `x9Kq2api_key=` between two quotes.
    const text = `${'api_key="x9Kq2'.repeat(2000)}api_key="`;
    const out = redactJsonBody(body(text)).body.toString();
    expect(out).not.toContain('x9Kq2');
  });
});
