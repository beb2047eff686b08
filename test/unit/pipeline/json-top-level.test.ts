import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findTopLevelString } from '../../../src/pipeline/json-top-level.js';

function valueAt(text: string, key = 'model'): string | null {
  const body = Buffer.from(text, 'utf8');
  const span = findTopLevelString(body, key);
  return span === null ? null : body.toString('utf8', span[0], span[1]);
}

/** What the pipeline does with the span: replace the value token, nothing else. */
function splice(body: Buffer, span: [number, number], value: string): Buffer {
  return Buffer.concat([body.subarray(0, span[0]), Buffer.from(JSON.stringify(value)), body.subarray(span[1])]);
}

describe('findTopLevelString', () => {
  it('finds the value token of a top-level string member, quotes included', () => {
    expect(valueAt('{"model":"claude-sonnet-4-5"}')).toBe('"claude-sonnet-4-5"');
    expect(findTopLevelString(Buffer.from('{"model":"x"}'), 'model')).toEqual([9, 12]);
  });

  it('allows JSON white space everywhere', () => {
    expect(valueAt(' \r\n\t{ \n "max_tokens" \t: 10 ,\r\n  "model"\n:\t"m" \n}\n')).toBe('"m"');
  });

  it('skips members of every type before it', () => {
    expect(valueAt('{"a":1,"b":-2.5e3,"c":true,"d":null,"e":[1,[2,{"x":"]"}]],"f":{"g":{"h":"}"}},"model":"m"}')).toBe('"m"');
  });

  it('steps over escaped quotes and backslashes in keys and values', () => {
    expect(valueAt('{"a\\"model\\"":"v\\\\","b":"\\"model\\":\\"x\\"","model":"m"}')).toBe('"m"');
    expect(valueAt('{"model":"a\\"b\\\\"}')).toBe('"a\\"b\\\\"');
    expect(valueAt('{"system":"}{][\\u0022","model":"m"}')).toBe('"m"');
  });

  it('ignores model keys nested below the top level', () => {
    expect(valueAt('{"metadata":{"model":"n"},"messages":[{"role":"user","content":[{"model":"x"}]}],"model":"m"}')).toBe('"m"');
    expect(valueAt('{"metadata":{"model":"n"},"messages":[]}')).toBeNull();
  });

  it('does not take a key that merely starts or ends like the one asked for', () => {
    expect(valueAt('{"models":"a","model_id":"b","xmodel":"c","model":"m"}')).toBe('"m"');
    expect(valueAt('{"models":"a"}')).toBeNull();
  });

  it('finds a key written with JSON escapes, as JSON.parse reads it', () => {
    const text = '{"mo\\u0064el":"m","max_tokens":1}';
    expect((JSON.parse(text) as { model: string }).model).toBe('m');
    expect(valueAt(text)).toBe('"m"');
  });

  it('finds the last of duplicate keys, the one JSON.parse keeps', () => {
    const text = '{"model":"first","messages":[],"model":"second"}';
    expect((JSON.parse(text) as { model: string }).model).toBe('second');
    expect(valueAt(text)).toBe('"second"');
  });

  it.each([
    ['a number', '{"model":42}'],
    ['null', '{"model":null}'],
    ['an object', '{"model":{"id":"m"}}'],
    ['an array', '{"model":["m"]}'],
    ['a boolean', '{"model":true}'],
  ])('answers null when the model is %s', (_, text) => {
    expect(valueAt(text)).toBeNull();
  });

  it.each([
    ['missing', '{"max_tokens":1}'],
    ['an empty object', '{}'],
    ['an array body', '["model","m"]'],
    ['a string body', '"model"'],
    ['an empty body', ''],
    ['truncated', '{"model":"m'],
  ])('answers null when the body is %s', (_, text) => {
    expect(valueAt(text)).toBeNull();
  });

  it('locates exactly the value JSON.parse reads, so splicing changes that value and no other byte', () => {
    const key = fc.string({ unit: 'grapheme', maxLength: 8 }).filter((k) => k !== 'model');
    const other = fc.dictionary(key, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 6 });
    fc.assert(
      fc.property(other, other, fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), fc.constantFrom(undefined, 0, 1, 2, '\t', ' \r\n'), (before, after, model, replacement, indent) => {
        const object = { ...before, model, ...Object.fromEntries(Object.entries(after).filter(([k]) => !(k in before))) };
        const body = Buffer.from(JSON.stringify(object, null, indent as string | number | undefined), 'utf8');
        const span = findTopLevelString(body, 'model');
        expect(span).not.toBeNull();
        const [start, end] = span as [number, number];
        expect(JSON.parse(body.toString('utf8', start, end))).toBe(model);
        const spliced = splice(body, [start, end], replacement);
        expect(JSON.parse(spliced.toString('utf8'))).toEqual({ ...(JSON.parse(body.toString('utf8')) as object), model: replacement });
        expect(spliced.subarray(0, start).equals(body.subarray(0, start))).toBe(true);
        expect(spliced.subarray(spliced.length - (body.length - end)).equals(body.subarray(end))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
