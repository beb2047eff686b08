import { describe, expect, it } from 'vitest';
import { redactJsonBody } from '../../../src/redaction/index.js';
import { Redactor } from '../../../src/redaction/redactor.js';
import { RULES } from '../../../src/redaction/index.js';
import { b62, b64 } from './fake.js';

// Thousands of private-key headers with no END marker: every header sends
// the key rule through up to 64 KiB of text, so a full scan would take
// seconds. The budget must cut it short and still hand back valid JSON.
function pathologicalBody(): Buffer {
  const header = '-----BEGIN RSA PRIVATE KEY-----\n';
  const block = `${header}${b64(968)}\n`;
  const text = block.repeat(2048);
  return Buffer.from(JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 16, messages: [{ role: 'user', content: text }] }));
}

describe('the per-request time budget', () => {
  it('stops a pathological scan, says so, and still returns valid JSON', () => {
    const input = pathologicalBody();
    const result = redactJsonBody(input, { budgetMs: 5 });
    expect(result.budgetExhausted).toBe(true);
    const parsed = JSON.parse(result.body.toString()) as { messages: { content: string }[] };
    expect(parsed.messages[0]!.content.length).toBeGreaterThan(0);
  });

  it('forwards what was found before the budget ran out, redacted', () => {
    // A clock that advances one millisecond per reading makes the cut-off
    // independent of the machine's speed.
    let now = 0;
    const clock = (): number => now++;
    const redactor = new Redactor(RULES);
    const secrets = Array.from({ length: 400 }, () => `ghp_${b62(36)}`);
    const input = Buffer.from(JSON.stringify({ messages: secrets.map((s) => ({ role: 'user', content: `key ${s}` })) }));
    const result = redactor.redactJsonBody(input, 20, clock);
    expect(result.budgetExhausted).toBe(true);
    const found = result.countsByRule['github-pat'] ?? 0;
    expect(found).toBeGreaterThan(0);
    expect(found).toBeLessThan(secrets.length);
    const out = JSON.parse(result.body.toString()) as { messages: { content: string }[] };
    // Messages are scanned in order: the first ones are redacted, the rest forwarded as they were.
    expect(out.messages.slice(0, found).every((m) => m.content === 'key [REDACTED: github-pat]')).toBe(true);
    expect(out.messages.slice(found).every((m, i) => m.content === `key ${secrets[found + i]}`)).toBe(true);
  });

  it('scans a small body to the end within a generous budget', () => {
    const input = Buffer.from(JSON.stringify({ messages: [{ role: 'user', content: `deploy with ghp_${b62(36)}` }] }));
    const result = redactJsonBody(input, { budgetMs: 10_000 });
    expect(result.budgetExhausted).toBe(false);
    expect(result.countsByRule).toEqual({ 'github-pat': 1 });
  });
});
