import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToken } from '../../src/auth/token.js';
import { writeGatewayConfig } from '../support/gateway-config.js';
import { logsCaughtUp, waitForLogs, type GatewayProcess } from '../support/gateway-process.js';
import { DEFAULT_DELTAS, startMockProvider, type MockProvider } from '../support/mock-provider.js';
import { DATA_PLANES } from './data-planes.js';

// Look-alikes built at run time so no credential-shaped literal sits in the source.
const AWS_KEY = 'AKIA' + 'QYLPMN5HZ2W7XK4D';
const GH_TOKEN = 'ghp_' + 'x7Kq2Lm9Rt4Vw8Yz1Bc3Df5Gh6Jk0Np2Qs4U';
const CALLER_TOKEN = generateToken();

function requestBody(): string {
  return JSON.stringify({
    model: 'claude-haiku-4-5',
    max_tokens: 20,
    system: 'You are a careful assistant.',
    messages: [
      { role: 'user', content: [{ type: 'text', text: `deploy with AWS_ACCESS_KEY_ID=${AWS_KEY} please\nand "quoted"` }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: `git clone https://${GH_TOKEN}@github.com/acme/w.git` } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: `cloned; token ${CALLER_TOKEN} noted` }] },
    ],
  });
}

describe.each(DATA_PLANES)('secret scanning through $name', (plane) => {
  let vendor: MockProvider;
  let on: GatewayProcess;
  let off: GatewayProcess;
  let onToken: string;
  let offToken: string;

  beforeAll(async () => {
    vendor = await startMockProvider();
    const credentials = [{ name: 'k', provider: 'vendor' as const, baseUrl: vendor.url, secret: 'sk-ant-api03-redaction-secret-0000000' }];
    const withScanning = writeGatewayConfig({ settings: { secretScanning: true }, credentials });
    const without = writeGatewayConfig({ settings: { secretScanning: false }, credentials });
    onToken = withScanning.tokens.alice as string;
    offToken = without.tokens.alice as string;
    on = await plane.start(withScanning.file);
    off = await plane.start(without.file);
  });
  afterAll(async () => {
    await on?.stop();
    await off?.stop();
    await vendor?.close();
  });

  async function send(gateway: GatewayProcess, token: string): Promise<{ res: Response; sent: string }> {
    const before = vendor.messageRequests().length;
    const res = await fetch(`${gateway.url}/v1/messages`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: requestBody() });
    return { res, sent: vendor.messageRequests()[before]?.body.toString('utf8') ?? '' };
  }

  it('[S1-f] [S2.3-c] [S4.3-a] [S4.3-b] [S4.3-c] replaces each credential with [REDACTED: <rule_id>] and forwards the request; the client gets the normal answer', async () => {
    const { res, sent } = await send(on, onToken);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { content: Array<{ text: string }> }).content[0]?.text).toBe(DEFAULT_DELTAS.join(''));
    expect(sent).not.toContain(AWS_KEY);
    expect(sent).not.toContain(GH_TOKEN);
    expect(sent).not.toContain(CALLER_TOKEN);
    expect(sent.match(/\[REDACTED: [a-z0-9-]+\]/g)?.length).toBeGreaterThanOrEqual(3);
    // Still the same JSON, only the secrets changed.
    const parsed = JSON.parse(sent) as { system: string; messages: Array<{ content: Array<{ text?: string }> }> };
    expect(parsed.system).toBe('You are a careful assistant.');
    expect(parsed.messages[0]?.content[0]?.text).toMatch(/^deploy with AWS_ACCESS_KEY_ID=\[REDACTED: [a-z0-9-]+\] please\nand "quoted"$/);
    const [record] = await waitForLogs(on, 1);
    expect(Object.values((record?.redactions ?? {}) as Record<string, number>).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(3);
    await logsCaughtUp(on);
    expect(on.output.join('\n')).not.toContain(AWS_KEY);
  });

  it('scans every byte of a 3.5 MiB body (worker thread) and still answers other requests meanwhile', async () => {
    // Under 4 MiB: the Envoy harness's gRPC client keeps grpc-js's default 4 MiB receive limit for processor answers.
    const filler = 'log line: request served in 12 ms from cache, nothing to see here\n'.repeat(55_000);
    const tail = `GITHUB_TOKEN=${GH_TOKEN}`;
    const big = JSON.stringify({
      model: 'claude-haiku-4-5',
      max_tokens: 20,
      messages: [{ role: 'user', content: `${filler}${tail}` }],
    });
    expect(big.length).toBeGreaterThan(3.5 * 1024 * 1024);
    const before = vendor.messageRequests().length;
    const bigRequest = fetch(`${on.url}/v1/messages`, { method: 'POST', headers: { authorization: `Bearer ${onToken}`, 'content-type': 'application/json' }, body: big });
    const small = await send(on, onToken);
    expect(small.res.status).toBe(200);
    expect(small.sent).not.toContain(GH_TOKEN);
    const res = await bigRequest;
    expect(res.status).toBe(200);
    const sentBig = vendor
      .messageRequests()
      .slice(before)
      .map((r) => r.body.toString('utf8'))
      .find((b) => b.length > 3.5 * 1024 * 1024);
    expect(sentBig).toBeDefined();
    expect(sentBig).not.toContain(GH_TOKEN);
    expect(sentBig!.endsWith('GITHUB_TOKEN=[REDACTED: github-pat]"}]}')).toBe(true);
  });

  it('[S2.3-c] forwards the body untouched when the setting is off', async () => {
    const { res, sent } = await send(off, offToken);
    expect(res.status).toBe(200);
    expect(sent).toBe(requestBody());
  });
});
