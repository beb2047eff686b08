import { describe, expect, it } from 'vitest';
import { redactJsonBody } from '../../../src/redaction/index.js';
import { b62, b64 } from './fake.js';

const BUDGET = { budgetMs: 10_000 };

describe('opaque payloads are not scanned', () => {
  it('leaves base64 image data alone, even when it spells a token', () => {
    const lookalike = `ghp_${b62(36)}`;
    const data = `${b64(400)}${lookalike}${b64(400)}`;
    const input = Buffer.from(
      JSON.stringify({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data } },
              { type: 'text', text: 'What is in this picture?' },
            ],
          },
        ],
      }),
    );
    const out = redactJsonBody(input, BUDGET);
    expect(out.findings).toEqual([]);
    expect(out.body).toBe(input);
  });

  it('leaves base64 document data alone wherever "type" sits in the source object', () => {
    const lookalike = `glpat-${b62(20)}`;
    const input = Buffer.from(`{"messages":[{"role":"user","content":[{"type":"document","source":{"data":"${lookalike}","media_type":"application/pdf","type":"base64"}}]}]}`);
    expect(redactJsonBody(input, BUDGET).body).toBe(input);
  });

  it('still scans a plain-text document source and the text next to an image', () => {
    const a = `glpat-${b62(20)}`;
    const b = `npm_${b62(36)}`;
    const input = Buffer.from(
      JSON.stringify({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'document', source: { type: 'text', media_type: 'text/plain', data: `config: ${a}` } },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: b64(64) } },
              { type: 'text', text: `and ${b}` },
            ],
          },
        ],
      }),
    );
    expect(redactJsonBody(input, BUDGET).countsByRule).toEqual({ 'gitlab-pat': 1, 'npm-access-token': 1 });
  });

  it('skips thinking signatures and redacted thinking, but scans the thinking text', () => {
    const a = `ghp_${b62(36)}`;
    const input = Buffer.from(
      JSON.stringify({
        messages: [
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: `the user pasted ${a}`, signature: `ghp_${b62(36)}` },
              { type: 'redacted_thinking', data: `ghp_${b62(36)}` },
            ],
          },
        ],
      }),
    );
    const out = redactJsonBody(input, BUDGET);
    expect(out.countsByRule).toEqual({ 'github-pat': 1 });
    expect(JSON.parse(out.body.toString()).messages[0].content[0].thinking).toBe('the user pasted [REDACTED: github-pat]');
  });
});
