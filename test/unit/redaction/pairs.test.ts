import { describe, expect, it } from 'vitest';
import { redactJsonBody, redactText } from '../../../src/redaction/index.js';
import { b62, base32, hex } from './fake.js';

const BUDGET = { budgetMs: 10_000 };
const redact = (s: string): string => redactText(Buffer.from(s), BUDGET).body.toString();

describe('two-part credentials', () => {
  it('removes the quoted value next to a found one, after it or before it, under the same rule id', () => {
    const id = b62(20);
    const secret = hex(40);
    expect(redact(`github = '${id}', '${secret}'`)).toBe("github = '[REDACTED: service-named-credential]', '[REDACTED: service-named-credential]'");
    const key = `AKIA${base32(16)}`;
    expect(redact(`export AWS_API_KEY='${key}''${secret}'`)).toBe("export AWS_API_KEY='[REDACTED: aws-access-key-id]''[REDACTED: aws-access-key-id]'");
    expect(redact(`creds = ("${secret}", "${key}")`)).toBe('creds = ("[REDACTED: aws-access-key-id]", "[REDACTED: aws-access-key-id]")');
  });

  it('does so inside a JSON body, where the quotes are escaped', () => {
    const id = b62(20);
    const secret = hex(40);
    const body = Buffer.from(JSON.stringify({ messages: [{ role: 'user', content: `github = "${id}", "${secret}"` }] }));
    const out = redactJsonBody(body, BUDGET).body.toString();
    expect(out).not.toContain(id);
    expect(out).not.toContain(secret);
    expect(JSON.parse(out).messages[0].content).toBe('github = "[REDACTED: service-named-credential]", "[REDACTED: service-named-credential]"');
  });

  it('leaves a neighbour that is a word, a path or a placeholder, and values that are not quoted', () => {
    const key = `AKIA${base32(16)}`;
    expect(redact(`client('${key}', 'us-east-1-production')`)).toBe("client('[REDACTED: aws-access-key-id]', 'us-east-1-production')");
    expect(redact(`pair('${key}', '\${AWS_SECRET_ACCESS_KEY}')`)).toBe("pair('[REDACTED: aws-access-key-id]', '${AWS_SECRET_ACCESS_KEY}')");
    const other = hex(40);
    expect(redact(`key=${key} sha=${other}`)).toBe(`key=[REDACTED: aws-access-key-id] sha=${other}`);
  });
});
