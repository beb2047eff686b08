import { connect } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeGatewayConfig } from '../support/gateway-config.js';
import { logsCaughtUp, waitForLogs, type GatewayProcess } from '../support/gateway-process.js';
import { DEFAULT_DELTAS, startMockProvider, type MockProvider } from '../support/mock-provider.js';
import { DATA_PLANES } from './data-planes.js';

const VENDOR_SECRET = 'sk-ant-api03-bad-input-secret-CCCCCCCCCCCCCCCCCCCCCC';

/** Send raw bytes over a socket and return what came back (for requests no HTTP client will send). */
function rawRequest(url: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let out = '';
    socket.on('data', (c) => (out += c.toString('latin1')));
    socket.on('end', () => resolve(out));
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
    socket.write(bytes, 'latin1');
  });
}

describe.each(DATA_PLANES)('bad input and bad endings through $name', (plane) => {
  let vendor: MockProvider;
  let gateway: GatewayProcess;
  let token: string;

  beforeAll(async () => {
    vendor = await startMockProvider();
    // Settings left at their defaults: repository attribution and end-user recording off.
    const config = writeGatewayConfig({ credentials: [{ name: 'vendor-key', provider: 'vendor', baseUrl: vendor.url, secret: VENDOR_SECRET, maxConcurrency: 20 }] });
    token = config.tokens.alice as string;
    gateway = await plane.start(config.file);
  });

  afterAll(async () => {
    await gateway?.stop();
    await vendor?.close();
  });

  const anthropic = (): Anthropic => new Anthropic({ baseURL: gateway.url, authToken: token, apiKey: null, maxRetries: 0 });

  it('[S2.2-d] [S2.2-f] [S2.3-a] [S2.3-b] drops x-gw-end-user and x-gw-repo silently when the settings are off', async () => {
    const before = vendor.messageRequests().length;
    const res = await fetch(`${gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-gw-end-user': 'customer-7', 'x-gw-repo': 'github.com/acme/widgets', 'x-gw-application': 'app-1' },
      body: JSON.stringify({ model: 'claude-haiku-4-5', max_tokens: 5, messages: [] }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-gw-warning')).toBeNull();
    const seen = vendor.messageRequests()[before];
    expect(Object.keys(seen?.headers ?? {}).filter((h) => h.startsWith('x-gw-'))).toEqual([]);
    const [record] = await waitForLogs(gateway, 1);
    expect(record?.application).toBe('app-1');
    expect(record).not.toHaveProperty('end_user');
    expect(record).not.toHaveProperty('repo');
  });

  it('[S4.1-r3] [S4.1-r4] records one usage entry with the tokens seen when the client disconnects mid-stream', async () => {
    vendor.behaviour = { kind: 'slow-stream', delayMs: 40 };
    try {
      const controller = new AbortController();
      const res = await fetch(`${gateway.url}/v1/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-gw-application': 'disconnector' },
        body: JSON.stringify({ model: 'claude-haiku-4-5', max_tokens: 50, stream: true, messages: [] }),
        signal: controller.signal,
      });
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      let text = '';
      // Once the next event has arrived, message_start is complete on the gateway's side too.
      while (!text.includes('content_block_start')) text += new TextDecoder().decode((await reader.read()).value);
      controller.abort();
      const records = await waitForLogs(gateway, 1);
      const mine = async (): Promise<Array<Record<string, unknown>>> => (await waitForLogs(gateway, 1)).filter((r) => r.application === 'disconnector');
      let found = await mine();
      for (let i = 0; i < 100 && found.length === 0; i++) {
        await new Promise((r) => setTimeout(r, 50));
        found = await mine();
      }
      expect(records.length).toBeGreaterThan(0);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ outcome: 'client_disconnect', input_tokens: 1200, stream: true });
    } finally {
      vendor.behaviour = { kind: 'normal' };
    }
  });

  it('cuts the client connection when the provider resets mid-stream, records it, and stays up', async () => {
    vendor.behaviour = { kind: 'reset-mid-stream', afterEvents: 3 };
    try {
      const stream = anthropic().messages.stream({ model: 'claude-haiku-4-5', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] });
      const error = await stream.finalMessage().then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(Error);
    } finally {
      vendor.behaviour = { kind: 'normal' };
    }
    const records = await waitForLogs(gateway, 1);
    const cut = records.filter((r) => r.outcome !== 'complete');
    expect(cut.length).toBeGreaterThan(0);
    if (plane.seesUpstreamResets) expect(cut.some((r) => r.outcome === 'upstream_error')).toBe(true);
    const ok = await anthropic().messages.create({ model: 'claude-haiku-4-5', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] });
    expect(ok.content[0]).toEqual({ type: 'text', text: DEFAULT_DELTAS.join('') });
  });

  it('relays malformed SSE byte for byte and keeps metering what it can', async () => {
    vendor.behaviour = { kind: 'malformed-sse' };
    try {
      const res = await fetch(`${gateway.url}/v1/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-gw-application': 'malformed' },
        body: JSON.stringify({ model: 'claude-haiku-4-5', max_tokens: 5, stream: true, messages: [] }),
      });
      const text = await res.text();
      expect(res.status).toBe(200);
      expect(text).toContain('data: {not json at all');
      expect(text).toContain('garbage line without colon');
      expect(text).toContain('event: message_stop');
    } finally {
      vendor.behaviour = { kind: 'normal' };
    }
    let record: Record<string, unknown> | undefined;
    for (let i = 0; i < 100 && !record; i++) {
      record = (await waitForLogs(gateway, 1)).find((r) => r.application === 'malformed');
      if (!record) await new Promise((r) => setTimeout(r, 50));
    }
    expect(record).toMatchObject({ input_tokens: 1200, output_tokens: 37 });
  });

  it('answers a header with invalid bytes with a clear 400 and stays up', async () => {
    const { port } = new URL(gateway.url);
    const reply = await rawRequest(gateway.url, `POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\nX-Bad: a\u0001b\r\nContent-Length: 2\r\n\r\n{}`);
    expect(reply).toMatch(/^HTTP\/1\.1 400/);
    if (plane.parsesHttp) expect(reply).toContain('"fault":"invalid_request"');
    const ok = await anthropic().messages.create({ model: 'claude-haiku-4-5', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] });
    expect(ok.type).toBe('message');
  });

  // A repeat hidden by how the HTTP layer folds headers (Node keeps the first Authorization, joins x-gw-*):
  // the gateway must see it on the wire and refuse, and let repeats of ordinary headers through.
  it('refuses a repeated Authorization or x-gw-* header whatever its case, and passes a repeated ordinary header', async () => {
    const { port } = new URL(gateway.url);
    const body = JSON.stringify({ model: 'claude-haiku-4-5', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] });
    const head = (extra: string): string =>
      `POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\n${extra}Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`;
    const before = vendor.messageRequests().length;
    for (const [extra, name] of [
      [`authorization: Bearer ${token}\r\n`, 'authorization'],
      ['X-GW-Repo: github.com/acme/a\r\nx-gw-repo: github.com/acme/b\r\n', 'x-gw-repo'],
    ] as const) {
      const reply = await rawRequest(gateway.url, head(extra));
      expect(reply).toMatch(/^HTTP\/1\.1 400/);
      expect(reply).toContain(`the ${name} header appears more than once`);
    }
    expect(vendor.messageRequests().length).toBe(before);
    const passed = await rawRequest(gateway.url, head('Accept: application/json\r\naccept: */*\r\n'));
    expect(passed).toMatch(/^HTTP\/1\.1 200/);
    expect(vendor.messageRequests().length).toBe(before + 1);
  });

  it('writes no caller token or provider secret to its output', async () => {
    await logsCaughtUp(gateway);
    const all = gateway.output.join('\n');
    expect(all.length).toBeGreaterThan(0);
    expect(all).not.toContain(token);
    expect(all).not.toContain(VENDOR_SECRET);
  });
});
