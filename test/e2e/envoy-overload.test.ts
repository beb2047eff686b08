/**
 * Envoy's overload manager, end to end: the harness reads the
 * overload_manager section of the bootstrap `gw envoy-config` writes for a
 * 64 MiB container and behaves as Envoy does as its heap fills. Heap here is
 * the harness's model: the bodies it holds for requests in flight plus a
 * baseline the test sets (a real Envoy's tcmalloc heap cannot be driven from
 * a test). Below the thresholds requests pass; past disable_http_keepalive
 * responses close the connection; past stop_accepting_requests new requests
 * get Envoy's own 503 (in our shape, fault overloaded) without reaching the processor, and
 * streams already in flight finish.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { harnessOptionsFromBootstrap } from '../support/envoy-harness/generated-config.js';
import { OVERLOAD_ACTIONS, startEnvoyHarness, type EnvoyHarness } from '../support/envoy-harness/index.js';
import { writeGatewayConfig } from '../support/gateway-config.js';
import { GW_BIN, spawnGw, type GatewayProcess } from '../support/gateway-process.js';

const MIB = 1024 * 1024;
const MEMORY_LIMIT_MB = 64;

/** A provider whose answers can be held back, so a request stays in flight with its body buffered. */
async function startHeldProvider(): Promise<{ url: string; hits: number; hold(): void; release(): void; close(): Promise<void> }> {
  let holding = false;
  let waiting: Array<() => void> = [];
  const state = { hits: 0 };
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      state.hits += 1;
      const answer = (): void => {
        res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_held_${state.hits}` });
        res.end(
          JSON.stringify({
            id: `msg_held_${state.hits}`,
            type: 'message',
            role: 'assistant',
            model: 'claude-haiku-4-5',
            content: [{ type: 'text', text: 'ok' }],
            stop_reason: 'end_turn',
            stop_sequence: null,
            usage: { input_tokens: 5, output_tokens: 1 },
          }),
        );
      };
      if (holding) waiting.push(answer);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get hits() {
      return state.hits;
    },
    hold: () => {
      holding = true;
    },
    release: () => {
      holding = false;
      const all = waiting;
      waiting = [];
      for (const answer of all) answer();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A raw HTTP/1.1 request, to see the connection header and Envoy's plain-text body. */
function rawPost(url: string, token: string, body: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}/v1/messages`, {
      method: 'POST',
      agent: false,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), connection: 'keep-alive' },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Envoy's overload 503 as our local_reply_config renders it: our error shape, fault `overloaded`. */
function expectOverloadedShape(reply: { headers: Record<string, string | string[] | undefined>; text: string }): void {
  expect(reply.headers['content-type']).toBe('application/json');
  expect(reply.headers['x-gw-source']).toBe('gateway');
  expect(reply.headers['x-gw-fault']).toBe('overloaded');
  expect(reply.headers['x-should-retry']).toBe('true');
  const body = JSON.parse(reply.text) as { type: string; error: { type: string; message: string }; fault: string };
  expect(body).toMatchObject({ type: 'error', error: { type: 'overloaded_error' }, source: 'gateway', fault: 'overloaded' });
  expect(body.error.message).toContain('overload');
}

async function until(what: string, condition: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !condition(); i++) await new Promise((r) => setTimeout(r, 25));
  if (!condition()) throw new Error(`timed out waiting for ${what}`);
}

describe('Envoy overload manager through the harness, from `gw envoy-config` for a 64 MiB container', () => {
  let dir: string;
  let bootstrap: Record<string, unknown>;
  let provider: Awaited<ReturnType<typeof startHeldProvider>>;
  let processor: GatewayProcess;
  let harness: EnvoyHarness;
  let token: string;
  let maxHeap: number;

  const body = (text = 'hi'): string => JSON.stringify({ model: 'claude-haiku-4-5', max_tokens: 4, messages: [{ role: 'user', content: text }] });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gw-overload-'));
    const values = join(dir, 'values.yaml');
    writeFileSync(values, stringify({ processorSocket: '/var/run/gw/extproc.sock', memoryLimitMb: MEMORY_LIMIT_MB, bufferLimitMb: 16, maxBodyMb: 8 }));
    const { stdout } = await promisify(execFile)(process.execPath, [GW_BIN, 'envoy-config', '--values', values]);
    bootstrap = parse(stdout) as Record<string, unknown>;

    provider = await startHeldProvider();
    const config = writeGatewayConfig({ credentials: [{ name: 'vendor-key', provider: 'vendor', baseUrl: provider.url, secret: 'sk-ant-api03-overload-0000000000000000' }] });
    token = config.tokens.alice as string;
    processor = await spawnGw('extproc', config.file);
    const port = processor.output.map((l) => /listening on [^:]+:(\d+)/.exec(l)?.[1]).find(Boolean) as string;
    harness = await startEnvoyHarness({ ...harnessOptionsFromBootstrap(bootstrap), processor: `127.0.0.1:${port}`, messageTimeoutMs: 10_000 });
    maxHeap = harness.overload?.config.maxHeapBytes as number;
  });

  afterAll(async () => {
    await harness?.close();
    await processor?.stop();
    await provider?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Sets the modelled heap (besides held bodies) to this share of the ceiling and waits for the manager to see it. */
  async function heapAt(share: number): Promise<void> {
    const overload = harness.overload;
    if (!overload) throw new Error('the generated bootstrap has no overload manager');
    overload.setBaselineHeap(Math.floor(maxHeap * share));
    const target = (Math.floor(maxHeap * share) + overload.heldBytes) / maxHeap;
    await until(`heap pressure ${target}`, () => Math.abs(overload.stats.heap_pressure - target) < 1e-9);
  }

  it('reads the monitor and thresholds the generator wrote for the container limit', () => {
    const overload = harness.overload;
    expect(overload).toBeDefined();
    expect(maxHeap).toBe(Math.floor(MEMORY_LIMIT_MB * MIB * 0.8));
    expect(Object.fromEntries(overload?.config.thresholds ?? [])).toEqual({
      [OVERLOAD_ACTIONS.shrinkHeap]: 0.9,
      [OVERLOAD_ACTIONS.disableHttpKeepalive]: 0.92,
      [OVERLOAD_ACTIONS.stopAcceptingRequests]: 0.95,
    });
    expect(overload?.config.refreshIntervalMs).toBe(250);
  });

  it('below the thresholds requests pass and connections stay open', async () => {
    await heapAt(0.5);
    const client = new Anthropic({ baseURL: harness.url, authToken: token, apiKey: null, maxRetries: 0 });
    const message = await client.messages.create({ model: 'claude-haiku-4-5', max_tokens: 4, messages: [{ role: 'user', content: 'hi' }] });
    expect(message.content[0]).toMatchObject({ type: 'text', text: 'ok' });
    const raw = await rawPost(harness.url, token, body());
    expect(raw.status).toBe(200);
    expect(raw.headers.connection).not.toBe('close');
  });

  it('past disable_http_keepalive a request still passes, but its connection closes after the response', async () => {
    await heapAt(0.93);
    const before = harness.overload?.stats.downstream_cx_overload_disable_keepalive ?? 0;
    const raw = await rawPost(harness.url, token, body());
    expect(raw.status).toBe(200);
    expect(raw.headers.connection).toBe('close');
    expect(harness.overload?.stats.downstream_cx_overload_disable_keepalive).toBeGreaterThan(before);
    expect(harness.overload?.isSaturated(OVERLOAD_ACTIONS.stopAcceptingRequests)).toBe(false);
  });

  it("past stop_accepting_requests a new request gets Envoy's 503 (details overload, flag OM), rewritten into our shape as fault overloaded; neither the processor nor the provider sees it", async () => {
    await heapAt(0.96);
    const streams = harness.stats.streams_started;
    const hits = provider.hits;
    const raw = await rawPost(harness.url, token, body());
    expect(raw.status).toBe(503);
    // Envoy's "envoy overloaded" local reply goes through local_reply_config like every
    // local reply of the connection manager (source/common/http/filter_manager.cc,
    // DownstreamFilterManager::sendLocalReply -> local_reply_.rewrite).
    expectOverloadedShape(raw);
    // The SDK sees a 503 it may retry.
    const client = new Anthropic({ baseURL: harness.url, authToken: token, apiKey: null, maxRetries: 0 });
    const err = await client.messages.create({ model: 'claude-haiku-4-5', max_tokens: 4, messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.InternalServerError);
    expect((err as InstanceType<typeof Anthropic.APIError>).status).toBe(503);
    expect(harness.stats.streams_started).toBe(streams);
    expect(provider.hits).toBe(hits);
    expect(harness.overload?.stats.downstream_rq_overload_close).toBeGreaterThanOrEqual(2);
    await harness.idle();
    expect(JSON.parse(harness.accessLogLines.at(-1) as string)).toMatchObject({ status: 503, response_flags: 'OM', response_code_details: 'overload', upstream_cluster: null });
    // Pressure falls: requests pass again.
    await heapAt(0.5);
    expect((await rawPost(harness.url, token, body())).status).toBe(200);
  });

  it('bodies held for requests in flight count: one large buffered request pushes the heap past the threshold, the next is shed, and the held one finishes', async () => {
    const large = body('x'.repeat(4 * MIB));
    const size = Buffer.byteLength(large);
    // Just below stop_accepting_requests without the large body, past it with the body held.
    const share = 0.95 - size / 2 / maxHeap;
    await heapAt(share);
    expect(harness.overload?.isSaturated(OVERLOAD_ACTIONS.stopAcceptingRequests)).toBe(false);
    provider.hold();
    const hits = provider.hits;
    const inFlight = rawPost(harness.url, token, large);
    await until('the large request to reach the provider', () => provider.hits === hits + 1);
    await until('the manager to see the held body', () => harness.overload?.isSaturated(OVERLOAD_ACTIONS.stopAcceptingRequests) === true);
    const shed = await rawPost(harness.url, token, body());
    expect(shed.status).toBe(503);
    expectOverloadedShape(shed);
    provider.release();
    const held = await inFlight;
    expect(held.status).toBe(200);
    // Its body released, the heap is back under the threshold.
    await until('the held body to be released', () => harness.overload?.isSaturated(OVERLOAD_ACTIONS.stopAcceptingRequests) === false);
    expect((await rawPost(harness.url, token, body())).status).toBe(200);
  });
});
