import { afterAll, describe, expect, it } from 'vitest';
import { RedactionPool } from '../../../src/runtime/redaction-pool.js';
import { b62 } from '../redaction/fake.js';

// The worker runs the compiled scanner (dist/): `npm run build` first, as for every test run.
function bigBody(bytes: number, secrets: string[]): Buffer {
  const filler = 'The quick brown fox reads config files and logs all day long. '.repeat(Math.ceil(bytes / 64));
  return Buffer.from(
    JSON.stringify({
      model: 'claude-sonnet-4-5',
      max_tokens: 16,
      messages: [
        { role: 'user', content: `GITHUB_TOKEN=${secrets[0]}\n${filler}` },
        { role: 'user', content: `${filler}\nfinally: npm token ${secrets[1]}` },
      ],
    }),
  );
}

describe('the redaction pool', () => {
  const pool = new RedactionPool({ workers: 2 });
  afterAll(() => pool.close());

  it('scans every byte of a large body in a worker, to the end, and the event loop keeps turning meanwhile', async () => {
    const secrets = [`ghp_${b62(36)}`, `npm_${b62(36)}`];
    const input = bigBody(12 * 1024 * 1024, secrets);
    expect(input.length).toBeGreaterThan(pool.inlineMaxBytes);
    let turns = 0;
    let done = false;
    const spin = (): void => {
      turns++;
      if (!done) setImmediate(spin);
    };
    setImmediate(spin);
    const result = await pool.redact(input).finally(() => {
      done = true;
    });
    const out = result.body.toString('utf8');
    for (const s of secrets) expect(out).not.toContain(s);
    expect(result.countsByRule).toEqual({ 'github-pat': 1, 'npm-access-token': 1 });
    expect(() => JSON.parse(out)).not.toThrow();
    // A synchronous 12 MiB scan would have let the loop turn at most once.
    expect(turns).toBeGreaterThan(10);
  });

  it('starts no worker thread until a body too large to scan inline arrives', async () => {
    const lazy = new RedactionPool({ workers: 2 });
    try {
      expect(lazy.workersStarted).toBe(0);
      await lazy.redact(Buffer.from(JSON.stringify({ messages: [{ role: 'user', content: 'small' }] })));
      expect(lazy.workersStarted).toBe(0);
      const secrets = [`ghp_${b62(36)}`, `npm_${b62(36)}`];
      const result = await lazy.redact(bigBody(200 * 1024, secrets));
      expect(lazy.workersStarted).toBe(2);
      for (const s of secrets) expect(result.body.toString()).not.toContain(s);
    } finally {
      await lazy.close();
    }
  });

  it('scans small bodies inline with the same result', async () => {
    const token = `ghp_${b62(36)}`;
    const input = Buffer.from(JSON.stringify({ messages: [{ role: 'user', content: `token ${token}` }] }));
    const result = await pool.redact(input);
    expect(result.body.toString()).not.toContain(token);
    expect(result.countsByRule).toEqual({ 'github-pat': 1 });
  });

  it('runs many large bodies at once, each answered with its own result', async () => {
    const cases = Array.from({ length: 6 }, () => [`ghp_${b62(36)}`, `npm_${b62(36)}`]);
    const results = await Promise.all(cases.map((s) => pool.redact(bigBody(300 * 1024, s))));
    results.forEach((r, i) => {
      const out = r.body.toString();
      for (const s of cases[i]!) expect(out).not.toContain(s);
    });
  });

  it('fails the body (never hands it back unscanned) when its worker dies, and replaces the worker', async () => {
    const dying = new RedactionPool({ workers: 1, inlineMaxBytes: 16, workerUrl: new URL('data:text/javascript,process.exit(3)') });
    try {
      await expect(dying.redact(Buffer.from(JSON.stringify({ content: 'x'.repeat(64) })))).rejects.toThrow(/worker/);
    } finally {
      await dying.close();
    }
  });
});
