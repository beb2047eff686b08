import { request, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeGatewayConfig } from '../../support/gateway-config.js';
import type { GatewayProcess } from '../../support/gateway-process.js';
import { DEFAULT_USAGE, streamEvents } from '../../support/mock-provider.js';
import { classify, collectStderr, CRASH_PATTERN, fromRaw, healthy, logsFor, rawExchange, waitUntil, type RawResponse } from '../../support/resilience.js';
import { startScriptedProvider, type ScriptedProvider } from '../../support/scripted-provider.js';
import { PLANES } from './planes.js';

/**
 * Every connection to gw serve is bounded (issue 20, points 3 and 4), with
 * the limits set short here: a head that never completes, an upload below
 * the rate floor or past the request timeout, a caller that never reads a
 * streamed answer, an Expect the gateway does not support, and too many
 * connections from one address. Every answer the gateway makes is in its
 * error shape. Behind Envoy these are Envoy's listener settings, and gw
 * extproc never sees the connection, so this runs on gw serve only.
 */

const SECRET = 'sk-ant-api03-slow-clients-secret-LLLLLLLLLLLLLLLLLLLLL';
const MODEL = 'claude-haiku-4-5';
const LIMITS = {
  GW_HEADERS_TIMEOUT_MS: '600',
  GW_REQUEST_TIMEOUT_MS: '2500',
  GW_BODY_MIN_BYTES_PER_SECOND: '1000',
  GW_BODY_RATE_WINDOW_MS: '500',
  GW_WRITE_IDLE_TIMEOUT_MS: '700',
  GW_MAX_CONNECTIONS_PER_ADDRESS: '12',
  // Far shorter than the uploads below: the slot must outlive its TTL by renewal, not by luck.
  GW_SLOT_TTL_MS: '300',
  GW_LEASE_TTL_MS: '300',
};

function json(body: unknown): string {
  return JSON.stringify(body);
}

/** A raw connection whose whole answer is collected until the gateway closes it. */
function rawConnection(url: string): { socket: Socket; answer: Promise<RawResponse> } {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  const chunks: Buffer[] = [];
  const answer = new Promise<RawResponse>((resolve) => {
    const done = (): void => {
      const raw = Buffer.concat(chunks);
      const end = raw.indexOf('\r\n\r\n');
      if (end < 0) return resolve({ status: 0, headers: {}, body: Buffer.alloc(0), raw });
      const lines = raw.subarray(0, end).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const body = raw.subarray(end + 4, end + 4 + Number(headers['content-length'] ?? raw.length));
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(lines[0] ?? '')?.[1] ?? 0), headers, body, raw });
    };
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('close', done);
    socket.on('error', () => undefined);
  });
  return { socket, answer };
}

describe('bounded connections to gw serve', () => {
  let provider: ScriptedProvider;
  let gateway: GatewayProcess;
  let token: string;
  let stderr: string[];
  let refusedReachedProvider = 0;

  beforeAll(async () => {
    const events = streamEvents(MODEL, [], DEFAULT_USAGE, {});
    const delta = `event: content_block_delta\ndata: ${json({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'f'.repeat(16 * 1024) } })}\n\n`;
    provider = await startScriptedProvider(async (_req, res, body) => {
      const text = body.toString('utf8');
      if (text.includes('"refused-connection"')) refusedReachedProvider++;
      if (!text.includes('"firehose"')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          json({
            id: 'msg_ok',
            type: 'message',
            role: 'assistant',
            model: MODEL,
            content: [{ type: 'text', text: 'ok' }],
            stop_reason: 'end_turn',
            stop_sequence: null,
            usage: { input_tokens: 3, output_tokens: 2 },
          }),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
      res.write(events.slice(0, 4).join(''));
      // Until the gateway stops taking it: only a cut connection ends this.
      while (!res.destroyed) {
        if (!res.write(delta))
          await new Promise<void>((resolve) => {
            res.once('drain', resolve);
            res.once('close', resolve);
          });
      }
    });
    const config = writeGatewayConfig({
      settings: { callerConcurrency: { default: 1, queueWaitSeconds: 0.3 } },
      credentials: [{ name: 'only-key', provider: 'vendor', baseUrl: provider.url, secret: SECRET, maxConcurrency: 1 }],
    });
    token = config.tokens.alice as string;
    gateway = await PLANES[0]!.launch(config.file, { env: LIMITS });
    stderr = collectStderr(gateway);
  });

  afterAll(async () => {
    await gateway?.stop();
    await provider?.close();
  });

  const head = (contentLength: number, extra: string[] = []): string =>
    [`POST /v1/messages HTTP/1.1`, `Host: ${new URL(gateway.url).host}`, `Authorization: Bearer ${token}`, 'Content-Type: application/json', `Content-Length: ${contentLength}`, ...extra, '', ''].join(
      '\r\n',
    );

  /** The one caller of this token, served at once: nothing above leaked its slot or the lease. */
  async function ordinary(): Promise<{ status: number; fault: string | null }> {
    const res = await fetch(`${gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', connection: 'close' },
      body: json({ model: MODEL, max_tokens: 5, messages: [{ role: 'user', content: 'ok' }] }),
    });
    await res.text();
    return { status: res.status, fault: res.headers.get('x-gw-fault') };
  }

  /**
   * ordinary(), once the connections a test closed are no longer counted: the gateway learns of those
   * closes asynchronously (each socket's 'close' comes a loop turn after its end), so a connection opened
   * at once can still be counted past the limit. Any other answer is returned at once.
   */
  async function ordinaryOnceClosed(): Promise<{ status: number; fault: string | null }> {
    let after = await ordinary();
    for (let tries = 0; after.fault === 'too_many_connections' && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      after = await ordinary();
    }
    return after;
  }

  it('answers a head that never completes with 408 request_timeout in our shape', async () => {
    const res = await rawExchange(gateway.url, `POST /v1/messages HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n`);
    expect(classify(fromRaw(res))).toBe('request_timeout');
    expect(res.status).toBe(408);
    expect(JSON.parse(res.body.toString('utf8')).error.message).toMatch(/^gw: the request head did not arrive within 0\.6s/);
  });

  it('cuts an upload below the rate floor with 408, records it, and gives the caller slot back at once', async () => {
    const body = json({ model: MODEL, max_tokens: 5, messages: [{ role: 'user', content: 'x'.repeat(5000) }] });
    const { socket, answer } = rawConnection(gateway.url);
    socket.write(head(Buffer.byteLength(body)) + body.slice(0, 10));
    const res = await answer;
    expect(classify(fromRaw(res))).toBe('request_timeout');
    expect(JSON.parse(res.body.toString('utf8')).error.message).toMatch(/slower than 1000 bytes\/s/);
    const record = await waitUntil('its record', async () => (await logsFor(gateway)).find((r) => r.request_id === res.headers['x-gw-request-id']));
    expect(record).toMatchObject({ status: 408, fault: 'request_timeout' });
    expect(await ordinary()).toEqual({ status: 200, fault: null });
  });

  it('keeps the caller slot for exactly as long as a slow upload lasts, past the slot TTL, then cuts it at the request timeout with 408', { timeout: 30_000 }, async () => {
    // 3,000 bytes/s is above the floor; 12,000 bytes take 4 s, past the 2.5 s request timeout.
    const body = json({ model: MODEL, max_tokens: 5, messages: [{ role: 'user', content: 'y'.repeat(12_000) }] });
    const { socket, answer } = rawConnection(gateway.url);
    socket.write(head(Buffer.byteLength(body)));
    let sent = 0;
    const trickle = setInterval(() => {
      if (sent >= body.length || socket.destroyed) return clearInterval(trickle);
      socket.write(body.slice(sent, sent + 300));
      sent += 300;
    }, 100);
    try {
      // Well past the 300 ms slot TTL, the slot is still held: the same token's next request finds the cap full.
      await new Promise((r) => setTimeout(r, 1200));
      expect(socket.destroyed).toBe(false);
      expect(await ordinary()).toEqual({ status: 429, fault: 'user_cap' });
      const res = await answer;
      expect(classify(fromRaw(res))).toBe('request_timeout');
      expect(JSON.parse(res.body.toString('utf8')).error.message).toMatch(/^gw: the request did not arrive within 2\.5s/);
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
    // The request ended: its slot is back at once.
    expect(await ordinary()).toEqual({ status: 200, fault: null });
  });

  it('cuts a caller that never reads a streamed answer after the write-idle timeout, releasing its lease', { timeout: 30_000 }, async () => {
    const body = json({ model: MODEL, max_tokens: 5, stream: true, messages: [{ role: 'user', content: 'firehose' }] });
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = request(
        `${gateway.url}/v1/messages`,
        { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-gw-application': 'never-reads' } },
        resolve,
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(response.statusCode).toBe(200);
    // Never read a byte: the gateway's writes back up and it gives up on us (a paused socket never
    // sees the close itself, so the gateway's record is the evidence).
    response.pause();
    try {
      const record = await waitUntil("the cut stream's record", async () => (await logsFor(gateway)).find((r) => r.application === 'never-reads'), 400, 50);
      expect(record).toMatchObject({ status: 200, stream: true, outcome: 'client_disconnect' });
      // The only lease (maxConcurrency 1) and the only slot are back while this caller still holds its socket.
      expect(response.socket.destroyed).toBe(false);
      expect(await ordinary()).toEqual({ status: 200, fault: null });
    } finally {
      response.destroy();
    }
  });

  it('answers an Expect other than 100-continue with 417 expectation_failed in our shape, and still honours 100-continue', async () => {
    const body = json({ model: MODEL, max_tokens: 5, messages: [{ role: 'user', content: 'ok' }] });
    const refused = await rawExchange(gateway.url, head(Buffer.byteLength(body), ['Expect: something-else', 'Connection: close']) + body);
    expect(classify(fromRaw(refused))).toBe('expectation_failed');
    expect(refused.status).toBe(417);
    const { socket, answer } = rawConnection(gateway.url);
    socket.write(head(Buffer.byteLength(body), ['Expect: 100-continue', 'Connection: close']));
    await new Promise<void>((resolve) => socket.once('data', () => resolve()));
    socket.write(body);
    const served = await answer;
    expect(served.raw.toString('latin1')).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /);
  });

  it('answers connections past the per-address limit with 429 too_many_connections in our shape, and serves again once they close', async () => {
    const open = Array.from({ length: 20 }, () => rawConnection(gateway.url));
    try {
      // The limit is 12; the rest are answered at once (the others wait for their head timeout: 408).
      const answers = await Promise.all(open.map((c) => c.answer));
      const refused = answers.filter((a) => a.status === 429);
      expect(refused.length).toBeGreaterThanOrEqual(8);
      for (const a of refused) expect(classify(fromRaw(a))).toBe('too_many_connections');
      for (const a of answers.filter((x) => x.status !== 429)) expect(classify(fromRaw(a))).toBe('request_timeout');
    } finally {
      for (const c of open) c.socket.destroy();
    }
    expect(await ordinaryOnceClosed()).toEqual({ status: 200, fault: null });
  });

  it('never serves a request sent on a connection it refused for being past the limit', async () => {
    const open = Array.from({ length: 12 }, () => rawConnection(gateway.url));
    try {
      await Promise.all(open.map(({ socket }) => new Promise((resolve) => (socket.connecting ? socket.once('connect', resolve) : resolve(null)))));
      // The whole request arrives with the connection: Node's parser reads it after our 429 went out,
      // and serving it would spend the caller's slot, a lease and provider tokens on an answer nobody gets.
      const body = json({ model: MODEL, max_tokens: 5, messages: [{ role: 'user', content: 'refused-connection' }] });
      const refused = await rawExchange(gateway.url, head(Buffer.byteLength(body)) + body);
      expect(classify(fromRaw(refused))).toBe('too_many_connections');
      // Node answers 100-continue by itself unless told otherwise: on a refused connection that must not be a second answer.
      const waiting = await rawExchange(gateway.url, head(Buffer.byteLength(body), ['Expect: 100-continue']) + body);
      expect(classify(fromRaw(waiting))).toBe('too_many_connections');
      expect(waiting.raw.toString('latin1')).not.toMatch(/100 Continue/);
    } finally {
      for (const c of open) c.socket.destroy();
    }
    expect(await ordinaryOnceClosed()).toEqual({ status: 200, fault: null });
    expect(refusedReachedProvider).toBe(0);
  });

  it('is still up and printed no crash', async () => {
    expect(await healthy(gateway)).toBe(true);
    expect(stderr.filter((l) => CRASH_PATTERN.test(l))).toEqual([]);
  });
});
