import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collectTextSegments } from '../../../src/redaction/json-strings.js';

const segmentsOf = (json: string) => collectTextSegments(Buffer.from(json));
const valueText = (json: string) =>
  segmentsOf(json)!
    .map((s) => JSON.parse(`"${Buffer.from(json).subarray(s.value.start, s.value.end).toString()}"`) as string)
    .sort();

describe('collectTextSegments', () => {
  it('accepts exactly what JSON.parse accepts, escape sequences aside', () => {
    fc.assert(
      fc.property(fc.json(), fc.nat(40), fc.constantFrom('', ',', ']', '}', '"', ':', 'x', ' '), (json, at, junk) => {
        expect(segmentsOf(json)).not.toBeNull();
        // Escapes are checked where strings are decoded (see the redactor test).
        fc.pre(json[at - 1] !== '\\');
        const broken = json.slice(0, at) + junk + json.slice(at);
        let valid = true;
        try {
          JSON.parse(broken);
        } catch {
          valid = false;
        }
        expect(segmentsOf(broken) !== null).toBe(valid);
      }),
      { numRuns: 500 },
    );
  });

  it('returns every string value, with its member name', () => {
    const json = JSON.stringify({ a: 'x', b: ['y', { c: 'z\n"q"' }], n: 1, t: true, e: null });
    expect(valueText(json)).toEqual(['x', 'y', 'z\n"q"']);
    const keyed = segmentsOf(json)!.filter((s) => s.key !== null).length;
    expect(keyed).toBe(2);
  });

  it('skips data of base64 and redacted_thinking objects and signatures of thinking blocks', () => {
    const json = JSON.stringify([
      { type: 'base64', media_type: 'image/png', data: 'AAAA' },
      { data: 'BBBB', type: 'redacted_thinking' },
      { type: 'thinking', thinking: 'hmm', signature: 'CCCC' },
      { type: 'text', data: 'kept' },
    ]);
    expect(valueText(json)).toEqual(['base64', 'hmm', 'image/png', 'kept', 'redacted_thinking', 'text', 'thinking']);
  });

  it('rejects raw garbage, a byte-order mark and trailing content', () => {
    expect(segmentsOf('hello')).toBeNull();
    expect(segmentsOf('\ufeff{}')).toBeNull();
    expect(segmentsOf('{} {}')).toBeNull();
    expect(segmentsOf('[1,]')).toBeNull();
  });
});
