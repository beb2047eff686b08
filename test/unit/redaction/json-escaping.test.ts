import { describe, expect, it } from 'vitest';
import { redactJsonBody } from '../../../src/redaction/index.js';
import { b62, pem } from './fake.js';

const BUDGET = { budgetMs: 10_000 };

/** A request body whose one user text block is `raw`, spliced in verbatim (already JSON-escaped). */
const bodyWithRawText = (raw: string): Buffer => Buffer.from(`{"model":"claude-sonnet-4-5","max_tokens":64,"messages":[{"role":"user","content":[{"type":"text","text":"${raw}"}]}]}`);

const textOf = (out: Buffer): string => JSON.parse(out.toString()).messages[0].content[0].text as string;

describe('JSON string decoding and escaping', () => {
  it('redacts a PEM key whose line breaks are \\n escapes, and the output stays valid JSON', () => {
    const key = pem('RSA PRIVATE KEY');
    const input = Buffer.from(JSON.stringify({ messages: [{ role: 'user', content: `my key:\n${key}\nthanks` }] }));
    const out = redactJsonBody(input, BUDGET);
    expect(out.findings.map((f) => f.ruleId)).toEqual(['private-key']);
    expect(JSON.parse(out.body.toString()).messages[0].content).toBe('my key:\n[REDACTED: private-key]\nthanks');
    // The raw span covers the escaped form, from BEGIN to END.
    const f = out.findings[0]!;
    expect(input.subarray(f.start, f.end).toString()).toBe(JSON.stringify(key).slice(1, -1));
  });

  it('redacts a PEM key escaped twice (a service-account JSON pasted into a prompt)', () => {
    const serviceAccount = JSON.stringify({ type: 'service_account', private_key: `${pem('PRIVATE KEY')}\n` });
    const input = Buffer.from(JSON.stringify({ messages: [{ role: 'user', content: serviceAccount }] }));
    const out = redactJsonBody(input, BUDGET);
    expect(out.countsByRule).toEqual({ 'private-key': 1 });
    const decoded = JSON.parse(JSON.parse(out.body.toString()).messages[0].content);
    expect(decoded.private_key).toBe('[REDACTED: private-key]\n');
  });

  it('finds a value between escaped quotes and keeps the quotes', () => {
    const secret = `${b62(14)}!2`;
    const out = redactJsonBody(bodyWithRawText(`db.connect(password=\\"${secret}\\")`), BUDGET);
    expect(textOf(out.body)).toBe('db.connect(password="[REDACTED: generic-password]")');
  });

  it('finds a secret written with \\u escapes and replaces the escapes too', () => {
    const token = `ghp_${b62(36)}`;
    const escaped = [...token].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    const input = bodyWithRawText(`token ${escaped} end`);
    const out = redactJsonBody(input, BUDGET);
    expect(textOf(out.body)).toBe('token [REDACTED: github-pat] end');
    expect(input.subarray(out.findings[0]!.start, out.findings[0]!.end).toString()).toBe(escaped);
  });

  it('finds a secret split by an escape such as \\u0041', () => {
    const tail = b62(35);
    const input = bodyWithRawText(`export GH=ghp_\\u0041${tail}\\nnext line`);
    const out = redactJsonBody(input, BUDGET);
    expect(textOf(out.body)).toBe('export GH=[REDACTED: github-pat]\nnext line');
    expect(input.subarray(out.findings[0]!.start, out.findings[0]!.end).toString()).toBe(`ghp_\\u0041${tail}`);
  });

  it('decodes \\/ so that a URL password is found', () => {
    const out = redactJsonBody(bodyWithRawText(`postgres:\\/\\/app:${b62(16)}@db:5432\\/app`), BUDGET);
    expect(textOf(out.body)).toBe('postgres://app:[REDACTED: postgres-url-password]@db:5432/app');
  });

  it('keeps offsets right after multi-byte characters, raw and escaped', () => {
    const token = `npm_${b62(36)}`;
    const input = bodyWithRawText(`日本語 \\u00e9\\ud83d\\ude00 ${token} ✓`);
    const out = redactJsonBody(input, BUDGET);
    expect(input.subarray(out.findings[0]!.start, out.findings[0]!.end).toString()).toBe(token);
    expect(textOf(out.body)).toBe('日本語 é😀 [REDACTED: npm-access-token] ✓');
  });

  it('reads an escaped member name as the context of its value', () => {
    const value = `${b62(12)}#9`;
    const input = Buffer.from(`{"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"n","input":{"pass\\u0077ord":"${value}"}}]}]}`);
    const out = redactJsonBody(input, BUDGET);
    expect(out.countsByRule).toEqual({ 'generic-password': 1 });
    expect(JSON.parse(out.body.toString()).messages[0].content[0].input.password).toBe('[REDACTED: generic-password]');
  });

  it('redacts inside JSON held in a string (escaped twice)', () => {
    const secret = `sk_live_${b62(40)}`;
    const inner = JSON.stringify({ env: { STRIPE_KEY: secret }, note: 'line1\nline2' });
    const input = Buffer.from(JSON.stringify({ messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: inner }] }] }));
    const out = redactJsonBody(input, BUDGET);
    const content = JSON.parse(JSON.parse(out.body.toString()).messages[0].content[0].content);
    expect(content).toEqual({ env: { STRIPE_KEY: '[REDACTED: stripe-secret-key]' }, note: 'line1\nline2' });
  });
});
