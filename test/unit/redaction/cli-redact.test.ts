import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { EXIT_BUDGET_EXHAUSTED, runRedact } from '../../../src/cli/redact.js';
import { b62, b64 } from './fake.js';

async function run(argv: string[], stdin: string | Buffer) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (c: Buffer) => out.push(c));
  stderr.on('data', (c: Buffer) => err.push(c));
  const code = await runRedact(argv, { stdin: Readable.from([Buffer.from(stdin)]), stdout, stderr });
  return { code, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString() };
}

describe('gw redact', () => {
  const token = `ghp_${b62(36)}`;
  const body = JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 16, messages: [{ role: 'user', content: `use ${token}` }] });

  it('writes the request body with credentials replaced', async () => {
    const r = await run([], body);
    expect(r.code).toBe(0);
    expect(r.stdout.toString()).toBe(body.replace(token, '[REDACTED: github-pat]'));
    expect(r.stderr).toBe('');
  });

  it('treats the input as plain text with --text', async () => {
    const text = `"not": json ${token}\n`;
    const r = await run(['--text'], text);
    expect(r.code).toBe(0);
    expect(r.stdout.toString()).toBe('"not": json [REDACTED: github-pat]\n');
  });

  it('writes a JSON report of findings with byte offsets, and the output, with --json-report', async () => {
    const r = await run(['--json-report'], body);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout.toString());
    const start = Buffer.from(body).indexOf(token);
    expect(report).toEqual({
      input: 'request-body',
      bytes: Buffer.byteLength(body),
      findings: [{ ruleId: 'github-pat', start, end: start + token.length }],
      countsByRule: { 'github-pat': 1 },
      budgetExhausted: false,
      output: body.replace(token, '[REDACTED: github-pat]'),
    });
    expect(r.stdout.toString()).not.toContain(token);
  });

  it('passes clean input through unchanged', async () => {
    const r = await run([], '{"messages":[]}');
    expect(r.stdout.toString()).toBe('{"messages":[]}');
  });

  it('refuses unknown flags (as a usage error) and a budget that is not a positive number', async () => {
    await expect(run(['--frobnicate'], '')).rejects.toThrow('unknown flag --frobnicate');
    const badBudget = await run(['--budget-ms', 'soon'], '');
    expect(badBudget.code).toBe(2);
    expect(badBudget.stderr).toContain('--budget-ms needs a positive number of milliseconds');
    expect(badBudget.stderr).toContain('usage: gw redact [options]');
  });

  it('exits with the budget status and a warning when the time budget runs out', async () => {
    const slow = `${'-----BEGIN RSA PRIVATE KEY-----\n'}${b64(968)}\n`.repeat(2048);
    const r = await run(['--text', '--budget-ms', '1'], slow);
    expect(r.code).toBe(EXIT_BUDGET_EXHAUSTED);
    expect(r.stderr).toContain('time budget ran out');
  });
});
