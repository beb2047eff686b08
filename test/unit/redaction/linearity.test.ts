import { describe, expect, it } from 'vitest';
import { RULES } from '../../../src/redaction/index.js';
import { Redactor } from '../../../src/redaction/redactor.js';
import { b62, b64 } from './fake.js';

// No body's scan may grow worse than linearly with its size. Time is for the
// bench; here the redactor counts its work (characters the keyword pass, the
// rule windows, the anchored attempts and the repeat search go over) and the
// work of a body four times as large must be about four times as much.
const redactor = new Redactor(RULES);
const clock = (): number => 0;

function work(text: string, json: boolean): number {
  const input = Buffer.from(json ? JSON.stringify({ messages: [{ role: 'user', content: text }] }) : text);
  if (json) redactor.redactJsonBody(input, Number.POSITIVE_INFINITY, clock);
  else redactor.redactText(input, Number.POSITIVE_INFINITY, clock);
  return redactor.lastWork;
}

const SHAPES: Record<string, (n: number) => string> = {
  'private-key headers with no END marker': (n) => `-----BEGIN RSA PRIVATE KEY-----\n${b64(200)}\n`.repeat(Math.ceil(n / 233)),
  'keywords everywhere (token, secret, password)': (n) => 'token secret password api_key = '.repeat(Math.ceil(n / 32)),
  'one long base64 run': (n) => `secret: ${b64(n)}`,
  'a hundred different secrets per 64 KiB': (n) => Array.from({ length: Math.ceil(n / 655) }, () => `GITHUB_TOKEN=ghp_${b62(36)} and password = "Pw${b62(10)}!"\n${'x'.repeat(560)}\n`).join(''),
  'the same secret repeated': (n) => {
    const t = `ghp_${b62(36)}`;
    return `token ${t} `.repeat(Math.ceil(n / 48));
  },
  'URLs with credentials': (n) => `https://user:${b62(12)}@host.example.com/x `.repeat(Math.ceil(n / 44)),
};

describe('scan work grows linearly with the body', () => {
  for (const [name, make] of Object.entries(SHAPES)) {
    for (const json of [false, true]) {
      it(`${name} (${json ? 'JSON body' : 'text'})`, () => {
        const small = work(make(64 * 1024), json);
        const large = work(make(256 * 1024), json);
        expect(small).toBeGreaterThan(0);
        const ratio = large / small;
        expect(ratio).toBeGreaterThan(3.5);
        expect(ratio).toBeLessThan(4.6);
      });
    }
  }
});
