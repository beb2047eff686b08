import { describe, expect, it } from 'vitest';
import { redactJsonBody, redactText } from '../../../src/redaction/index.js';
import { b62, base32, hex, jwt } from './fake.js';

const BUDGET = { budgetMs: 10_000 };

describe('redactText', () => {
  it('returns the same Buffer instance, and no findings, when nothing is found', () => {
    const input = Buffer.from('Refactor the token parser; the password field stays optional.');
    const result = redactText(input, BUDGET);
    expect(result.body).toBe(input);
    expect(result).toMatchObject({ findings: [], countsByRule: {}, budgetExhausted: false });
  });

  it('replaces each credential with [REDACTED: <rule_id>] and reports byte offsets in the input', () => {
    const ghp = `ghp_${b62(36)}`;
    const key = `AKIA${base32(16)}`;
    const before = 'Clé: ü → ';
    const input = Buffer.from(`${before}${ghp} and ${key}`);
    const result = redactText(input, BUDGET);
    const start = Buffer.byteLength(before);
    expect(result.findings).toEqual([
      { ruleId: 'github-pat', start, end: start + ghp.length },
      { ruleId: 'aws-access-key-id', start: start + ghp.length + 5, end: start + ghp.length + 5 + key.length },
    ]);
    expect(result.body.toString()).toBe(`${before}[REDACTED: github-pat] and [REDACTED: aws-access-key-id]`);
    expect(result.countsByRule).toEqual({ 'github-pat': 1, 'aws-access-key-id': 1 });
  });

  it('counts repeated findings per rule', () => {
    const text = Array.from({ length: 3 }, () => `npm_${b62(36)}`).join('\n');
    expect(redactText(Buffer.from(text), BUDGET).countsByRule).toEqual({ 'npm-access-token': 3 });
  });

  it('names an overlap after the most specific rule', () => {
    const token = jwt();
    const bearer = redactText(Buffer.from(`Authorization: Bearer ${token}`), BUDGET);
    expect(bearer.findings.map((f) => f.ruleId)).toEqual(['jwt']);
    const assigned = redactText(Buffer.from(`GITHUB_TOKEN="ghp_${b62(36)}"`), BUDGET);
    expect(assigned.findings.map((f) => f.ruleId)).toEqual(['github-pat']);
    const url = redactText(Buffer.from(`password = "postgres://app:${b62(16)}@db/app"`), BUDGET);
    expect(url.body.toString()).toBe('password = "postgres://app:[REDACTED: postgres-url-password]@db/app"');
  });

  it('carries rule ids and offsets only, never the secret', () => {
    const secret = `sk-ant-api03-${b62(93)}AA`;
    const result = redactText(Buffer.from(`key=${secret}`), BUDGET);
    expect(JSON.stringify(result.findings)).not.toContain(secret.slice(13, 40));
    for (const f of result.findings) expect(Object.keys(f).sort()).toEqual(['end', 'ruleId', 'start']);
  });

  it('reports an exhausted budget and changes nothing when the budget is zero', () => {
    const input = Buffer.from(`ghp_${b62(36)}`);
    const result = redactText(input, { budgetMs: 0 });
    expect(result.budgetExhausted).toBe(true);
    expect(result.body).toBe(input);
  });
});

describe('redactJsonBody', () => {
  it('scans a body that is not valid JSON as text', () => {
    const secret = `glpat-${b62(20)}`;
    const input = Buffer.from(`{"messages": [{"role": "user", "content": "use ${secret}"}`);
    const result = redactJsonBody(input, BUDGET);
    expect(result.body.toString()).toBe('{"messages": [{"role": "user", "content": "use [REDACTED: gitlab-pat]"}');
  });

  it('scans a body with an invalid escape sequence as text', () => {
    const secret = `glpat-${b62(20)}`;
    const input = Buffer.from(`{"messages":[{"role":"user","content":"bad \\x escape, ${secret}"}]}`);
    const result = redactJsonBody(input, BUDGET);
    expect(result.body.toString()).toBe('{"messages":[{"role":"user","content":"bad \\x escape, [REDACTED: gitlab-pat]"}]}');
  });

  it('scans system, message text, tool inputs at any depth and tool results', () => {
    const s = Array.from({ length: 5 }, () => `ghp_${b62(36)}`);
    const body = {
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      system: [{ type: 'text', text: `system ${s[0]}` }],
      messages: [
        { role: 'user', content: `plain ${s[1]}` },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'x', input: { a: { b: [{ c: `deep ${s[2]}` }] } } }],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: `result ${s[3]}` }] },
            { type: 'tool_result', tool_use_id: 'toolu_1', content: `result ${s[4]}` },
          ],
        },
      ],
    };
    const out = redactJsonBody(Buffer.from(JSON.stringify(body)), BUDGET);
    expect(out.countsByRule).toEqual({ 'github-pat': 5 });
    const text = out.body.toString();
    for (const secret of s) expect(text).not.toContain(secret);
    expect(JSON.parse(text).messages[1].content[0].input.a.b[0].c).toBe('deep [REDACTED: github-pat]');
  });

  it('reads a tool input member name as context for its value', () => {
    const password = `${b62(12)}!7`;
    const apiKey = hex(40);
    const body = JSON.stringify({
      messages: [
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 't', name: 'db', input: { password, env: { PAYMENTS_API_KEY: apiKey } } }],
        },
      ],
    });
    const out = JSON.parse(redactJsonBody(Buffer.from(body), BUDGET).body.toString());
    expect(out.messages[0].content[0].input).toEqual({
      password: '[REDACTED: generic-password]',
      env: { PAYMENTS_API_KEY: '[REDACTED: generic-api-key]' },
    });
  });
});
