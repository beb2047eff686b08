import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactJsonBody, type RedactionResult } from '../../../src/redaction/index.js';
import { b62, jwt, pem } from './fake.js';

const BUDGET = { budgetMs: 60_000 };

/** The input with each reported span replaced by its placeholder: what the output must be, byte for byte. */
function expectedOutput(input: Buffer, result: RedactionResult): Buffer {
  const parts: Buffer[] = [];
  let from = 0;
  for (const f of result.findings) {
    expect(f.start).toBeGreaterThanOrEqual(from);
    parts.push(input.subarray(from, f.start), Buffer.from(`[REDACTED: ${f.ruleId}]`));
    from = f.end;
  }
  parts.push(input.subarray(from));
  return Buffer.concat(parts);
}

const secrets = [
  () => `ghp_${b62(36)}`,
  () => `sk-ant-api03-${b62(93)}AA`,
  () => `xoxb-${'1234567890'}-${'9876543210'}-${b62(24)}`,
  () => `password="${b62(12)}!4"`,
  () => `postgres://app:${b62(16)}@db.internal:5432/app`,
  () => jwt(),
  () => pem('EC PRIVATE KEY', 4),
  () => `gwct_${b62(46)}`,
];

// Text that looks like what agents send: code, quotes, escapes, non-ASCII.
const filler = fc.string({
  unit: fc.constantFrom('a', 'Z', '0', ' ', '\n', '\t', '"', '\\', '/', ':', '=', '{', '}', 'é', '日', '😀', 'token', 'key ', 'Bearer '),
  maxLength: 60,
});

describe('bytes outside the replaced spans stay identical', () => {
  it('holds for random bodies with planted credentials, and the output stays valid JSON', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(filler, fc.nat(secrets.length - 1), filler), { minLength: 1, maxLength: 12 }), fc.boolean(), (parts, pretty) => {
        const planted = parts.map(([, k]) => secrets[k]!());
        // A token only counts as one when it is not glued to other word characters.
        const texts = parts.map(([a, , b], i) => `${a} ${planted[i]}\n${b}`);
        const doc = {
          model: 'claude-sonnet-4-5',
          max_tokens: 1.0e3,
          temperature: 0.5,
          messages: texts.map((t, i) =>
            i % 3 === 0
              ? { role: 'user', content: t }
              : i % 3 === 1
                ? { role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: 'w', input: { nested: [{ v: t }] } }] }
                : { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i - 1}`, content: [{ type: 'text', text: t }] }] },
          ),
        };
        const input = Buffer.from(pretty ? JSON.stringify(doc, null, 2) : JSON.stringify(doc));
        const result = redactJsonBody(input, BUDGET);
        expect(result.body.equals(expectedOutput(input, result))).toBe(true);
        const out = result.body.toString();
        expect(() => JSON.parse(out)).not.toThrow();
        for (const s of planted) expect(out).not.toContain(s);
      }),
      { numRuns: 150 },
    );
  });

  it('holds on a multi-megabyte body, including number spellings JSON.parse would change', () => {
    const chunk = `const cfg = { retries: 3, note: "naïve café", url: "https://example.com/a?b=c" };\n`.repeat(400);
    const secretsIn: string[] = [];
    const messages = Array.from({ length: 64 }, (_, i) => {
      const s = `ghp_${b62(36)}`;
      secretsIn.push(s);
      return { role: i % 2 === 0 ? 'user' : 'assistant', content: `${chunk}token=${s}\n${chunk}` };
    });
    const json = JSON.stringify({ model: 'm', max_tokens: 8192, messages });
    // Spellings a JSON round trip would not keep.
    const input = Buffer.from(json.replace('"max_tokens":8192', '"max_tokens":8192.0,"seed":12345678901234567890,"t":1e3'));
    expect(input.length).toBeGreaterThan(4 * 1024 * 1024);
    const result = redactJsonBody(input, BUDGET);
    expect(result.countsByRule).toEqual({ 'github-pat': 64 });
    expect(result.body.equals(expectedOutput(input, result))).toBe(true);
    expect(result.body.toString()).toContain('"max_tokens":8192.0,"seed":12345678901234567890,"t":1e3');
  });
});
