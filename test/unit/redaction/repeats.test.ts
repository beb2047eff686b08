import { describe, expect, it } from 'vitest';
import { redactJsonBody, redactText } from '../../../src/redaction/index.js';
import { b62 } from './fake.js';

function body(messages: unknown[]): Buffer {
  return Buffer.from(JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 16, messages }));
}

describe('every copy of a found secret is redacted', () => {
  it('removes a second copy that has no keyword or name next to it', () => {
    const password = `Qz7${b62(9)}!k`;
    const input = body([
      { role: 'user', content: `db.yaml:\n  password: "${password}"\n` },
      { role: 'assistant', content: 'Noted.' },
      { role: 'user', content: `and then I ran psql with ${password} typed at the prompt` },
    ]);
    const result = redactJsonBody(input);
    const out = result.body.toString('utf8');
    expect(out).not.toContain(password);
    expect(out.match(/\[REDACTED: generic-password\]/g)).toHaveLength(2);
    expect(() => JSON.parse(out)).not.toThrow();
  });

  it('finds copies in their JSON-escaped spellings: in a JSON-in-a-string tool result and with an escaped slash', () => {
    const secret = `wJa1rX${b62(20)}/K7MDENG+bPx${b62(8)}`;
    const echoed = JSON.stringify({ stdout: `secret=${secret}`, exit: 0 }).replace(/\//g, '\\/');
    const input = body([
      { role: 'user', content: `aws_secret_access_key = ${secret}` },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: echoed }] },
      { role: 'user', content: JSON.stringify({ nested: echoed }) },
    ]);
    const out = redactJsonBody(input).body.toString('utf8');
    const decodedAll = JSON.stringify(JSON.parse(out));
    expect(decodedAll).not.toContain(secret);
    expect(out).not.toContain(secret.replace(/\//g, '\\/'));
    expect(out).not.toContain(JSON.stringify(secret.replace(/\//g, '\\/')).slice(1, -1));
  });

  it('does not cut a JSON escape in two when a copy starts right after a backslash', () => {
    const token = `n${b62(11)}7Xq`;
    const input = body([
      { role: 'user', content: `password = ${token}` },
      // Raw bytes `\n` + rest of the token: the `n` belongs to the escape, the rest is not a copy.
      { role: 'user', content: `line\n${token.slice(1)}` },
    ]);
    const out = JSON.parse(redactJsonBody(input).body.toString('utf8')) as { messages: { content: string }[] };
    expect(out.messages[0]!.content).toBe('password = [REDACTED: generic-password]');
    expect(out.messages[1]!.content).toBe(`line\n${token.slice(1)}`);
  });

  it('works on plain text too', () => {
    const token = `ghp_${b62(36)}`;
    const pat = token.slice(4);
    const input = Buffer.from(`GITHUB_TOKEN=${token}\nlater the body of it again: ${pat}\n`);
    const out = redactText(input).body.toString('utf8');
    expect(out).not.toContain(token);
    // The bare body is a different value (no prefix), so it is not a copy of what was found.
    expect(out).toContain(pat);
  });
});
