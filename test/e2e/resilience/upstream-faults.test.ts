import { createHash } from 'node:crypto';
import { request } from 'node:http';
import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeGatewayConfig } from '../../support/gateway-config.js';
import { logsCaughtUp, type GatewayProcess } from '../../support/gateway-process.js';
import { DEFAULT_USAGE, streamEvents } from '../../support/mock-provider.js';
import { classify, collectStderr, CRASH_PATTERN, fromFetch, healthy, logsFor, recordOf, waitUntil, watchRss } from '../../support/resilience.js';
import { startScriptedProvider, writeAll, type ScriptedProvider } from '../../support/scripted-provider.js';
import { PLANES } from './planes.js';

/**
 * Providers that misbehave in ways a TCP reset does not cover (resets are in
 * bad-input.test.ts): they stall, trickle, end early, or send far more than
 * fits in memory. The gateway must neither hang nor buffer, must release the
 * lease (credentials here have maxConcurrency 1, so a leaked lease shows as
 * 503 no_capacity on the next request), and must record what it saw.
 */

const SECRET = 'sk-ant-api03-upstream-faults-secret-DDDDDDDDDDDDDDDD';
const IDLE_MS = 1000;
const MODEL = 'claude-haiku-4-5';

const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'request-id': 'req_scripted' };

function messagesBody(stream: boolean): string {
  return JSON.stringify({ model: MODEL, max_tokens: 16, stream, messages: [{ role: 'user', content: 'hi' }] });
}

/** A complete, ordinary JSON answer: used to prove the lease is free again. */
function answerJson(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_scripted' });
  res.end(
    JSON.stringify({
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
}

async function post(gateway: GatewayProcess, token: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${gateway.url}/v1/messages`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers }, body });
}

/** Stream a response body into a running SHA-256 and byte count, without keeping it. */
function drain(
  gateway: GatewayProcess,
  token: string,
  body: string,
  hashing = true,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; bytes: number; sha256: string; tail: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${gateway.url}/v1/messages`,
      { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        const hash = createHash('sha256');
        let bytes = 0;
        let previous: Buffer = Buffer.alloc(0);
        let last: Buffer = Buffer.alloc(0);
        res.on('data', (c: Buffer) => {
          bytes += c.length;
          if (hashing) hash.update(c);
          previous = last;
          last = c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes, sha256: hash.digest('hex'), tail: Buffer.concat([previous, last]).subarray(-512).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe.each(PLANES)('upstream faults through $name', (plane) => {
  let provider: ScriptedProvider;
  let gateway: GatewayProcess;
  let token: string;
  let stderr: string[];
  const stalled: ServerResponse[] = [];

  beforeAll(async () => {
    provider = await startScriptedProvider((_req, res) => answerJson(res));
    const config = writeGatewayConfig({ credentials: [{ name: 'only-key', provider: 'vendor', baseUrl: provider.url, secret: SECRET, maxConcurrency: 1 }] });
    token = config.tokens.alice as string;
    gateway = await plane.launch(config.file, { upstreamIdleMs: IDLE_MS });
    stderr = collectStderr(gateway);
  });

  afterEach(() => {
    for (const res of stalled.splice(0)) res.destroy();
    provider.script = (_req, res) => answerJson(res);
  });

  afterAll(async () => {
    await gateway?.stop();
    await provider?.close();
  });

  /** The single lease is free: an ordinary request is served (503 no_capacity if it leaked). */
  async function expectLeaseFree(): Promise<void> {
    provider.script = (_req, res) => answerJson(res);
    const res = await post(gateway, token, messagesBody(false));
    const text = await res.text();
    expect({ status: res.status, fault: res.headers.get('x-gw-fault') }).toEqual({ status: 200, fault: null });
    expect(JSON.parse(text)).toMatchObject({ id: 'msg_ok' });
  }

  it('cuts the stream of an upstream that sends its headers and then nothing, records it and frees the lease', async () => {
    provider.script = (_req, res) => {
      stalled.push(res);
      res.writeHead(200, SSE_HEADERS);
      res.flushHeaders();
    };
    // The gateway must not hang: the client's connection is closed once the idle limit passes,
    // after the relayed status line where the data plane sent it already.
    const outcome = await post(gateway, token, messagesBody(true), { 'x-gw-application': 'stall-body' }).then(
      async (res) => {
        expect(res.status).toBe(200);
        expect(res.headers.get('x-gw-source')).toBe('upstream');
        return res.text().then(
          () => 'ended',
          (e: unknown) => `cut after headers: ${String(e)}`,
        );
      },
      (e: unknown) => `cut before headers: ${String(e)}`,
    );
    expect(outcome).toMatch(/^cut /);
    const record = await waitUntil("the stalled request's record", async () => (await logsFor(gateway)).find((r) => r.application === 'stall-body'));
    // gw serve sees the upstream stall itself; behind Envoy the processor sees Envoy cancel the stream.
    expect(record).toMatchObject({ status: 200, stream: true, input_tokens: 0, output_tokens: 0, outcome: plane.seesUpstreamResets ? 'upstream_error' : 'client_disconnect' });
    await expectLeaseFree();
  });

  it('answers an upstream that never sends its headers with an error instead of hanging, and frees the lease', async () => {
    provider.script = (_req, res) => {
      stalled.push(res);
    };
    const res = await post(gateway, token, messagesBody(false), { 'x-gw-application': 'stall-headers' });
    const body = await res.text();
    const requestId = res.headers.get('x-gw-request-id');
    if (plane.parsesHttp) {
      // gw serve: a gateway error in the catalogue's shape.
      expect(classify(fromFetch(res, body))).toBe('upstream_unreachable');
      expect(res.status).toBe(502);
      expect(JSON.parse(body).error.message).toMatch(/^gw: the provider could not be reached/);
      const record = await recordOf(gateway, requestId as string);
      expect(record).toMatchObject({ status: 502, fault: 'upstream_unreachable', outcome: 'gateway_error', cost_usd: 0 });
    } else {
      // Envoy: the route's idle timeout answers "stream timeout" itself, 504 because the
      // request was fully received (Http::Utility::maybeRequestTimeoutCode); local_reply_config
      // puts it in our shape, and the processor, which sees it on its encode path, keeps it the
      // gateway's answer, gives it this request's id and records it.
      expect(res.status).toBe(504);
      expect(classify(fromFetch(res, body))).toBe('gateway_timeout');
      expect(JSON.parse(body)).toMatchObject({ request_id: requestId, error: { message: expect.stringMatching(/\(envoy: stream_idle_timeout\)$/) } });
      const record = await recordOf(gateway, requestId as string);
      expect(record).toMatchObject({ status: 504, fault: 'gateway_timeout', outcome: 'gateway_error', input_tokens: 0, output_tokens: 0 });
    }
    expect(provider.messageRequests().length).toBeGreaterThan(0);
    await expectLeaseFree();
  });

  it('relays an SSE answer written one byte at a time intact and meters it exactly', async () => {
    const wire = Buffer.from(streamEvents(MODEL, ['Trickle ', 'héllo ', 'wörld 🌍'], DEFAULT_USAGE, {}).join(''));
    provider.script = async (_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      for (let i = 0; i < wire.length; i++) {
        if (!(await writeAll(res, wire.subarray(i, i + 1)))) return;
        // Let each byte leave as its own segment.
        await new Promise((r) => setImmediate(r));
      }
      res.end();
    };
    const res = await post(gateway, token, messagesBody(true));
    const got = Buffer.from(await res.arrayBuffer());
    expect(res.status).toBe(200);
    expect(got.equals(wire)).toBe(true);
    const record = await recordOf(gateway, res.headers.get('x-gw-request-id') as string);
    expect(record).toMatchObject({
      status: 200,
      stream: true,
      outcome: 'complete',
      input_tokens: DEFAULT_USAGE.input_tokens,
      output_tokens: DEFAULT_USAGE.output_tokens,
      cache_creation_input_tokens: DEFAULT_USAGE.cache_creation_input_tokens,
      cache_read_input_tokens: DEFAULT_USAGE.cache_read_input_tokens,
    });
  });

  it('relays streams that close without message_stop (or message_delta) as they are, recording what was seen', async () => {
    const events = streamEvents(MODEL, ['cut ', 'short'], DEFAULT_USAGE, {});
    // Without message_stop: the final usage came in message_delta. Without both: only message_start's.
    const cases = [
      { wire: events.slice(0, -1).join(''), output: DEFAULT_USAGE.output_tokens },
      { wire: events.slice(0, -2).join(''), output: 1 },
    ];
    for (const c of cases) {
      provider.script = (_req, res) => {
        res.writeHead(200, SSE_HEADERS);
        res.end(c.wire);
      };
      const res = await post(gateway, token, messagesBody(true));
      expect(await res.text()).toBe(c.wire);
      const record = await recordOf(gateway, res.headers.get('x-gw-request-id') as string);
      expect(record).toMatchObject({
        status: 200,
        outcome: 'complete',
        input_tokens: DEFAULT_USAGE.input_tokens,
        output_tokens: c.output,
        cache_read_input_tokens: DEFAULT_USAGE.cache_read_input_tokens,
      });
    }
    await expectLeaseFree();
  });

  it('relays an SSE event whose data line is 128 MiB long with bounded memory, and still meters the stream', { timeout: 90_000 }, async () => {
    // One content delta whose single data line never ends for 32 MiB: the meter must not buffer it.
    const events = streamEvents(MODEL, ['x'], DEFAULT_USAGE, {});
    const head = Buffer.from(events.slice(0, 4).join('') + 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"');
    const tail = Buffer.from('"}}\n\n' + events.slice(5).join(''));
    const filler = Buffer.alloc(256 * 1024, 'y');
    const fillerCount = 512; // 128 MiB: buffered whole (as the meter once did), the line alone breaks the memory bound
    const expected = createHash('sha256');
    expected.update(head);
    for (let i = 0; i < fillerCount; i++) expected.update(filler);
    expected.update(tail);
    const total = head.length + filler.length * fillerCount + tail.length;
    provider.script = async (_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      if (!(await writeAll(res, head))) return;
      for (let i = 0; i < fillerCount; i++) if (!(await writeAll(res, filler))) return;
      res.end(tail);
    };
    const pid = gateway.child.pid as number;
    const rss = watchRss(pid);
    const got = await drain(gateway, token, messagesBody(true));
    const peak = rss.stop();
    console.info(`[resilience] ${plane.processLabel} peak RSS relaying a 128 MiB SSE line: ${peak.toFixed(1)} MiB`);
    expect(got.status).toBe(200);
    expect(got.bytes).toBe(total);
    expect(got.sha256).toBe(expected.digest('hex'));
    expect(peak).toBeLessThan(250);
    const record = await recordOf(gateway, got.headers['x-gw-request-id'] as string);
    expect(record).toMatchObject({ status: 200, outcome: 'complete', input_tokens: DEFAULT_USAGE.input_tokens, output_tokens: DEFAULT_USAGE.output_tokens });
  });

  it('is still up after all of it, printed no crash, and logged no token or secret', async () => {
    expect(await healthy(gateway)).toBe(true);
    expect(stderr.filter((l) => CRASH_PATTERN.test(l))).toEqual([]);
    await logsCaughtUp(gateway);
    const output = gateway.output.join('\n');
    expect(output.length).toBeGreaterThan(0);
    expect(output).not.toContain(token);
    expect(output).not.toContain(SECRET);
  });
});

describe('a 2 GiB answer through gw serve', () => {
  let provider: ScriptedProvider;
  let gateway: GatewayProcess;
  let token: string;

  const GiB2 = 2 * 1024 * 1024 * 1024;
  const usage = { input_tokens: 4321, output_tokens: 98765, cache_creation_input_tokens: 0, cache_read_input_tokens: 11 };
  const prefix = Buffer.from(`{"id":"msg_huge","type":"message","role":"assistant","model":"${MODEL}","content":[{"type":"text","text":"`);
  const suffix = Buffer.from(`"}],"stop_reason":"max_tokens","stop_sequence":null,"usage":${JSON.stringify(usage)}}`);

  beforeAll(async () => {
    // Generated on the fly: the mock never holds more than one 1 MiB block.
    provider = await startScriptedProvider(async (_req, res, body) => {
      if (!body.toString('utf8').includes('"huge"')) {
        answerJson(res);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(GiB2), 'request-id': 'req_huge' });
      if (!(await writeAll(res, prefix))) return;
      const block = Buffer.alloc(1024 * 1024, 'z');
      let left = GiB2 - prefix.length - suffix.length;
      while (left > 0) {
        const piece = left >= block.length ? block : block.subarray(0, left);
        if (!(await writeAll(res, piece))) return;
        left -= piece.length;
      }
      res.end(suffix);
    });
    const config = writeGatewayConfig({ credentials: [{ name: 'only-key', provider: 'vendor', baseUrl: provider.url, secret: SECRET, maxConcurrency: 1 }] });
    token = config.tokens.alice as string;
    gateway = await PLANES[0]!.launch(config.file, { upstreamIdleMs: 10_000 });
  });

  afterAll(async () => {
    await gateway?.stop();
    await provider?.close();
  });

  it('relays all 2 GiB with the gateway RSS bounded, and meters the usage at its end', { timeout: 180_000 }, async () => {
    const pid = gateway.child.pid as number;
    const rss = watchRss(pid, 100);
    const started = Date.now();
    const huge = JSON.stringify({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'huge' }] });
    const got = await drain(gateway, token, huge, false);
    const peak = rss.stop();
    console.info(`[resilience] gw serve relayed ${got.bytes} bytes in ${((Date.now() - started) / 1000).toFixed(1)} s, peak RSS ${peak.toFixed(1)} MiB`);
    expect(got.status).toBe(200);
    expect(got.headers['x-gw-source']).toBe('upstream');
    expect(got.bytes).toBe(GiB2);
    expect(got.tail.endsWith(suffix.toString('utf8'))).toBe(true);
    expect(peak).toBeLessThan(300);
    const record = await recordOf(gateway, got.headers['x-gw-request-id'] as string);
    expect(record).toMatchObject({ status: 200, outcome: 'complete', stream: false, ...usage });
    // The lease came back after a transfer this long.
    const again = await post(gateway, token, messagesBody(false));
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ id: 'msg_ok' });
  });
});
