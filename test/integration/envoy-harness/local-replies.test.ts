/**
 * Envoy's own answers and bounds, through the harness configured from the
 * generated bootstrap (local_reply_config, request_headers_timeout, header
 * limits, stream_idle_timeout, the routes' response_headers_to_remove):
 * every answer Envoy makes itself is in our error shape, a provider's answer
 * and the processor's immediate_response pass untouched, and slow or
 * never-reading callers are cut.
 *
 * The timeouts are the generated config's fields, shortened here (the
 * generated 30 s and 900 s are checked in test/unit/envoy/downstream-bounds.test.ts);
 * the header limits and local_reply_config are used as generated.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { FAULTS } from '../../../src/errors/catalogue.js';
import { PROCESSOR_REPLY_KEY, PROCESSOR_REPLY_NAMESPACE, PROCESSOR_REPLY_ORIGIN } from '../../../src/envoy/local-reply.js';
import { MAX_HEADERS_COUNT, MAX_REQUEST_HEADERS_KB } from '../../../src/envoy/downstream-limits.js';
import type { ProcessingResponse } from '../../../src/extproc/proto.js';
import { DYNAMIC_CLUSTERS, ROUTE_HEADER, UPSTREAM_HOST_HEADER } from '../../../src/envoy/cluster-name.js';
import { generatedConfigHarnessOptions } from '../../support/envoy-harness/generated-config.js';
import { startEnvoyHarness, type EnvoyHarness, type EnvoyHarnessOptions } from '../../support/envoy-harness/index.js';
import { deadAddress, pass, raw, send, startScriptedProcessor, startUpstream, type ClientResponse, type MockUpstream, type Script, type ScriptedProcessor, type UpstreamHandler } from './fixtures.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function harnessFor(processor: string, overrides: Partial<EnvoyHarnessOptions> = {}): Promise<EnvoyHarness> {
  const h = await startEnvoyHarness({ processor, ...generatedConfigHarnessOptions(), messageTimeoutMs: 5_000, ...overrides });
  closers.push(() => h.close());
  return h;
}

async function processorWith(script: Script): Promise<ScriptedProcessor> {
  const p = await startScriptedProcessor(script);
  closers.push(() => p.close());
  return p;
}

async function upstreamWith(handler: UpstreamHandler): Promise<MockUpstream> {
  const u = await startUpstream('provider', handler);
  closers.push(() => u.close());
  return u;
}

/** A processor that routes every request to `host` over the plain-HTTP dynamic cluster and changes nothing else. */
function routeTo(host: string): Script {
  const routing: ProcessingResponse['request_body'] = {
    response: { header_mutation: { set_headers: [raw(ROUTE_HEADER, DYNAMIC_CLUSTERS.http), raw(UPSTREAM_HOST_HEADER, host)] }, clear_route_cache: true },
  };
  return (message, call) => {
    if (message.request === 'request_headers' && message.request_headers?.end_of_stream) call.send({ request_headers: routing });
    else if (message.request === 'request_body') call.send({ request_body: routing });
    else call.send(pass(message));
  };
}

/** Our error shape, with the headers carrying the same fault and id as the body. */
function expectOurShape(res: { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }, fault: keyof typeof FAULTS): void {
  expect(res.headers['content-type']).toBe('application/json');
  expect(res.headers['x-gw-source']).toBe('gateway');
  expect(res.headers['x-gw-fault']).toBe(fault);
  const id = res.headers['x-gw-request-id'];
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  const body = JSON.parse(res.body.toString('utf8')) as Record<string, unknown>;
  expect(body).toEqual({
    type: 'error',
    error: { type: FAULTS[fault].type, message: expect.stringMatching(/^gw: /) },
    source: 'gateway',
    fault,
    request_id: id,
  });
}

/** A raw HTTP/1.1 exchange: write `head` (and more via the callback), collect everything until the server closes. */
function rawExchange(url: string, head: string, after?: (socket: Socket) => void): Promise<{ text: string; status: number; headers: Record<string, string>; body: Buffer }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const parts: Buffer[] = [];
    socket.on('data', (d: Buffer) => parts.push(d));
    socket.on('error', reject);
    socket.on('close', () => {
      const all = Buffer.concat(parts);
      const split = all.indexOf('\r\n\r\n');
      const headLines = all.subarray(0, split).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of headLines.slice(1)) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ text: all.toString('latin1'), status: Number(headLines[0]?.split(' ')[1] ?? 0), headers, body: all.subarray(split + 4) });
    });
    socket.write(head);
    after?.(socket);
  });
}

describe('the header bounds of the generated bootstrap, through the harness', () => {
  it('answers a head that does not arrive within request_headers_timeout with 408 in our shape, before any processor call', async () => {
    const processor = await processorWith((m, call) => call.send(pass(m)));
    const h = await harnessFor(processor.address, { requestHeadersTimeoutMs: 300 });
    // A slowloris head: the request line and one header, then nothing.
    const res = await rawExchange(h.url, 'POST /v1/messages HTTP/1.1\r\nhost: gw\r\nx-slow: 1\r\n');
    expect(res.status).toBe(408);
    expect(res.headers.connection).toBe('close');
    expectOurShape(res, 'request_timeout');
    expect(JSON.parse(res.body.toString()).error.message).toMatch(/\(envoy: request_header_timeout\)$/);
    expect(processor.calls).toHaveLength(0);
  });

  it(`answers more than ${MAX_HEADERS_COUNT} header fields with 431 in our shape, before any processor call`, async () => {
    const processor = await processorWith((m, call) => call.send(pass(m)));
    const h = await harnessFor(processor.address);
    const headers: Record<string, string> = {};
    for (let i = 0; i < MAX_HEADERS_COUNT; i++) headers[`x-extra-${i}`] = 'v';
    const res = await send(h.url, { headers, body: '{}' });
    expect(res.status).toBe(431);
    expectOurShape(res, 'headers_too_large');
    expect(JSON.parse(res.body.toString()).error.message).toMatch(/\(envoy: http1\.too_many_headers\)$/);
    expect(processor.calls).toHaveLength(0);
  });

  it(`answers a head over ${MAX_REQUEST_HEADERS_KB} KiB with 431 in our shape, before any processor call`, async () => {
    const processor = await processorWith((m, call) => call.send(pass(m)));
    const h = await harnessFor(processor.address);
    const big = 'a'.repeat(MAX_REQUEST_HEADERS_KB * 1024);
    const res = await rawExchange(h.url, `POST /v1/messages HTTP/1.1\r\nhost: gw\r\nx-big: ${big}\r\ncontent-length: 0\r\n\r\n`);
    expect(res.status).toBe(431);
    expectOurShape(res, 'headers_too_large');
    expect(processor.calls).toHaveLength(0);
  });
});

describe('stream_idle_timeout of the generated bootstrap, through the harness', () => {
  it('cuts a stalled upload with 408 in our shape and closes the connection', async () => {
    const processor = await processorWith((m, call) => call.send(pass(m)));
    const h = await harnessFor(processor.address, { streamIdleTimeoutMs: 300 });
    // Headers and ten of the hundred announced body bytes, then nothing more.
    const res = await rawExchange(h.url, 'POST /v1/messages HTTP/1.1\r\nhost: gw\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"model":"');
    expect(res.status).toBe(408);
    expect(res.headers.connection).toBe('close');
    expectOurShape(res, 'request_timeout');
    expect(JSON.parse(res.body.toString()).error.message).toMatch(/\(envoy: stream_idle_timeout\)$/);
    await h.idle();
    expect(h.accessLog.at(-1)).toMatchObject({ status: 408, responseCodeDetails: 'stream_idle_timeout' });
  });

  it('cuts a caller that never reads a streamed answer: the stream is reset and the provider request abandoned', async () => {
    // A provider that writes as fast as the harness takes it, for as long as it is allowed to.
    const provider = await upstreamWith(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      while (!res.destroyed && !res.writableEnded) {
        if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve).once('close', resolve));
      }
    });
    const processor = await processorWith(routeTo(new URL(provider.url).host));
    const h = await harnessFor(processor.address, { streamIdleTimeoutMs: 300, flowControl: true });
    const { hostname, port } = new URL(h.url);
    const socket = connect(Number(port), hostname);
    closers.push(async () => {
      socket.destroy();
    });
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.pause(); // never read a byte of the answer
    socket.write('POST /v1/messages HTTP/1.1\r\nhost: gw\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}');
    await h.idle();
    for (let i = 0; i < 200 && h.accessLog.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    await h.idle();
    expect(h.accessLog).toHaveLength(1);
    expect(h.accessLog[0]).toMatchObject({ status: 200, reset: true, responseCodeDetails: 'stream_idle_timeout' });
    for (let i = 0; i < 100 && provider.abandoned === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(provider.abandoned).toBe(1);
  });
});

describe('local_reply_config of the generated bootstrap, through the harness', () => {
  it("leaves a provider's own 4xx and 5xx untouched, and drops x-gw-source/x-gw-fault a provider sent", async () => {
    const answers = [
      [429, '{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}'],
      [500, '{"type":"error","error":{"type":"api_error","message":"boom"}}'],
      [503, 'upstream text, not JSON'],
      [404, ''],
    ] as const;
    let next = 0;
    const provider = await upstreamWith((_req, res) => {
      const [status, body] = answers[next++ % answers.length] as (typeof answers)[number];
      res.writeHead(status, { 'content-type': 'application/x-provider', 'x-gw-source': 'gateway', 'x-gw-fault': 'no_capacity', 'request-id': `prov-${status}` });
      res.end(body);
    });
    const processor = await processorWith(routeTo(new URL(provider.url).host));
    const h = await harnessFor(processor.address);
    for (const [status, body] of answers) {
      const res: ClientResponse = await send(h.url, { headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(res.status).toBe(status);
      expect(res.body.toString()).toBe(body);
      expect(res.headers['content-type']).toBe('application/x-provider');
      expect(res.headers['request-id']).toBe(`prov-${status}`);
      expect(res.headers['x-gw-source']).toBeUndefined();
      expect(res.headers['x-gw-fault']).toBeUndefined();
    }
    await h.idle();
    expect(h.accessLog.map((e) => e.responseCodeDetails)).toEqual(['via_upstream', 'via_upstream', 'via_upstream', 'via_upstream']);
  });

  it("leaves the processor's marked immediate_response byte for byte, and rewrites one without the mark", async () => {
    const ours = '{"type":"error","error":{"type":"authentication_error","message":"gw: no token"},"source":"gateway","fault":"no_session","request_id":"req_1"}';
    let marked = true;
    const processor = await processorWith((m, call) => {
      if (m.request !== 'request_headers') return call.send(pass(m));
      call.send({
        ...(marked ? { dynamic_metadata: { fields: { [PROCESSOR_REPLY_NAMESPACE]: { structValue: { fields: { [PROCESSOR_REPLY_KEY]: { stringValue: PROCESSOR_REPLY_ORIGIN } } } } } } } : {}),
        immediate_response: {
          status: { code: 'Unauthorized' },
          headers: { set_headers: [raw('content-type', 'application/json'), raw('x-gw-source', 'gateway'), raw('x-gw-fault', 'no_session'), raw('x-gw-request-id', 'req_1')] },
          body: Buffer.from(ours),
          details: 'gw_no_session',
        },
      });
    });
    const h = await harnessFor(processor.address);
    const first = await send(h.url, { method: 'GET', path: '/v1/models' });
    expect(first.status).toBe(401);
    expect(first.body.toString()).toBe(ours);
    expect(first.headers['content-type']).toBe('application/json');
    expect(first.headers['x-gw-request-id']).toBe('req_1');

    // Envoy rewrites every local reply, an immediate_response included; only the mark spares it.
    marked = false;
    const second = await send(h.url, { method: 'GET', path: '/v1/models' });
    expect(second.status).toBe(401);
    expect(second.body.toString()).not.toBe(ours);
    expect(JSON.parse(second.body.toString())).toMatchObject({ fault: 'invalid_request', source: 'gateway' });
  });

  it('puts the fail-closed catch-all (a processor that lets a request pass undecided) in our shape: 500 internal_error', async () => {
    const processor = await processorWith((_m, call) => call.finish());
    const h = await harnessFor(processor.address);
    const res = await send(h.url, { headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(500);
    expectOurShape(res, 'internal_error');
    expect(JSON.parse(res.body.toString()).error.message).toMatch(/\(envoy: direct_response\)$/);
  });

  it("answers a provider that cannot be reached with 502 upstream_unreachable in our shape, which the processor leaves as the gateway's", async () => {
    const dead = await deadAddress();
    const processor = await processorWith(routeTo(dead));
    const h = await harnessFor(processor.address);
    const res = await send(h.url, { headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(502);
    expectOurShape(res, 'upstream_unreachable');
    // The processor was shown Envoy's reply (its response_headers), already rewritten.
    const shown = processor.calls[0]?.received.find((m) => m.request === 'response_headers');
    const shownHeaders = (shown?.response_headers?.headers?.headers ?? []).map((x) => [x.key, x.raw_value?.toString()]);
    expect(shownHeaders).toContainEqual(['x-gw-source', 'gateway']);
    expect(shownHeaders).toContainEqual([':status', '502']);
  });

  it('answers a processor that cannot be reached with 500 internal_error, and one that does not answer in time with 504 gateway_timeout', async () => {
    const unreachable = await harnessFor(await deadAddress());
    const a = await send(unreachable.url, { headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(a.status).toBe(500);
    expectOurShape(a, 'internal_error');
    expect(JSON.parse(a.body.toString()).error.message).toMatch(/\(envoy: ext_proc_error_gRPC_error_14/);

    const silent = await processorWith(() => undefined);
    const slow = await harnessFor(silent.address, { messageTimeoutMs: 200 });
    const b = await send(slow.url, { headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(b.status).toBe(504);
    expectOurShape(b, 'gateway_timeout');
    expect(JSON.parse(b.body.toString()).error.message).toMatch(/\(envoy: ext_proc_error_per-message_timeout_exceeded\)$/);
  });
});
