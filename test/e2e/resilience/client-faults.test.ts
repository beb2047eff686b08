import { execFileSync } from 'node:child_process';
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeGatewayConfig } from '../../support/gateway-config.js';
import type { GatewayProcess } from '../../support/gateway-process.js';
import { DEFAULT_USAGE, streamEvents } from '../../support/mock-provider.js';
import { collectStderr, CRASH_PATTERN, healthy, logsFor, nofileLimit, rssMiB, sleep, waitUntil } from '../../support/resilience.js';
import { startScriptedProvider, type ScriptedProvider } from '../../support/scripted-provider.js';
import { PLANES } from './planes.js';

/**
 * Callers that misbehave: one that stops reading a fast stream (TCP
 * backpressure must reach the provider instead of filling the gateway's
 * memory), and thousands that connect and say nothing. Client disconnects
 * mid-stream are covered in bad-input.test.ts.
 */

const SECRET = 'sk-ant-api03-client-faults-secret-EEEEEEEEEEEEEEEEEE';
const MODEL = 'claude-haiku-4-5';
const MiB = 1024 * 1024;

function answerJson(res: import('node:http').ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
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

async function ordinaryRequest(gateway: GatewayProcess, token: string): Promise<{ status: number; fault: string | null }> {
  const res = await fetch(`${gateway.url}/v1/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: MODEL, max_tokens: 5, messages: [{ role: 'user', content: 'ok' }] }),
  });
  await res.text();
  return { status: res.status, fault: res.headers.get('x-gw-fault') };
}

/** The provider's side of a fast stream: how far it got and whether its writes are blocked. */
interface Firehose {
  written: number;
  blockedWrites: number;
  /** A write returned false and 'drain' has not come yet. */
  waitingForDrain: boolean;
  finished: boolean;
}

describe.each(PLANES)('a caller that stops reading, through $name', (plane) => {
  let provider: ScriptedProvider;
  let gateway: GatewayProcess;
  let token: string;
  let stderr: string[];
  const TOTAL = 1024 * MiB;
  const hose: Firehose = { written: 0, blockedWrites: 0, waitingForDrain: false, finished: false };

  beforeAll(async () => {
    const events = streamEvents(MODEL, [], DEFAULT_USAGE, {});
    const head = events.slice(0, 4).join('');
    const delta = `event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'f'.repeat(16 * 1024) } })}\n\n`;
    provider = await startScriptedProvider(async (_req, res, body) => {
      if (!body.toString('utf8').includes('"firehose"')) {
        answerJson(res);
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
      res.write(head);
      hose.written = head.length;
      // As fast as the socket takes it: only TCP backpressure can hold this loop back.
      while (hose.written < TOTAL && !res.destroyed) {
        hose.written += delta.length;
        if (!res.write(delta)) {
          hose.blockedWrites++;
          hose.waitingForDrain = true;
          await new Promise<void>((resolve) => {
            const done = (): void => {
              res.off('drain', done);
              res.off('close', done);
              resolve();
            };
            res.on('drain', done);
            res.on('close', done);
          });
          hose.waitingForDrain = false;
        }
      }
      hose.finished = true;
      if (!res.destroyed) res.end(events.slice(-2).join(''));
    });
    const config = writeGatewayConfig({ credentials: [{ name: 'only-key', provider: 'vendor', baseUrl: provider.url, secret: SECRET, maxConcurrency: 1 }] });
    token = config.tokens.alice as string;
    gateway = await plane.launch(config.file, { flowControl: true });
    stderr = collectStderr(gateway);
  });

  afterAll(async () => {
    await gateway?.stop();
    await provider?.close();
  });

  it('holds the provider back by TCP backpressure while the caller is paused; the gateway RSS stays bounded', { timeout: 60_000 }, async () => {
    const body = JSON.stringify({ model: MODEL, max_tokens: 5, stream: true, messages: [{ role: 'user', content: 'firehose' }] });
    let req: ClientRequest | undefined;
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      req = request(
        `${gateway.url}/v1/messages`,
        { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-gw-application': 'paused-reader' } },
        resolve,
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(response.statusCode).toBe(200);
    // Read one chunk, then stop reading altogether.
    await new Promise<void>((resolve) => response.once('data', () => resolve()));
    response.pause();

    // Wait (not a timing assertion) until the provider's writes are blocked and its count stays put.
    let stableFor = 0;
    let last = -1;
    await waitUntil(
      'the provider to be held by backpressure',
      () => {
        stableFor = hose.waitingForDrain && hose.written === last ? stableFor + 1 : 0;
        last = hose.written;
        return stableFor >= 10 ? true : undefined;
      },
      600,
      100,
    );
    const samples: number[] = [];
    for (let i = 0; i < 5; i++) {
      samples.push(rssMiB(gateway.child.pid as number));
      await sleep(100);
    }
    const peak = Math.max(...samples);
    console.info(
      `[resilience] ${plane.processLabel}: paused reader, provider blocked after ${(hose.written / MiB).toFixed(1)} MiB of ${TOTAL / MiB} MiB (${hose.blockedWrites} blocked writes), gateway RSS ${peak.toFixed(1)} MiB`,
    );
    expect(hose.blockedWrites).toBeGreaterThan(0);
    expect(hose.finished).toBe(false);
    // Kernel socket buffers on each hop hold a few MiB; the rest stays at the provider.
    expect(hose.written).toBeLessThan(128 * MiB);
    expect(peak).toBeLessThan(250);

    // The caller gives up: the lease comes back and what was seen is recorded.
    req?.destroy();
    const record = await waitUntil("the paused request's record", async () => (await logsFor(gateway)).find((r) => r.application === 'paused-reader'));
    expect(record).toMatchObject({ status: 200, stream: true, outcome: 'client_disconnect', input_tokens: DEFAULT_USAGE.input_tokens });
    expect(await ordinaryRequest(gateway, token)).toEqual({ status: 200, fault: null });
    expect(await healthy(gateway)).toBe(true);
    expect(stderr.filter((l) => CRASH_PATTERN.test(l))).toEqual([]);
  });
});

/**
 * Idle connections are a concern of whatever accepts TCP: gw serve here. Behind
 * Envoy, Envoy's listener holds them and gw extproc never sees them (the
 * harness that stands in for Envoy is test code), so this runs on gw serve only.
 */
describe('5,000 idle TCP connections to gw serve', () => {
  let provider: ScriptedProvider;
  let gateway: GatewayProcess;
  let token: string;
  const sockets: Socket[] = [];
  const COUNT = 5000;

  /** Each idle socket costs one descriptor here and one in the gateway; raise soft limits up to the hard ones if needed. */
  function ensureNofile(pid: number, needed: number, who: string): void {
    const { soft, hard } = nofileLimit(pid);
    if (soft >= needed) return;
    if (hard < needed) throw new Error(`${who}: the hard open-files limit ${hard} is below ${needed}; raise it (ulimit -Hn) to run this test`);
    execFileSync('prlimit', ['--pid', String(pid), `--nofile=${needed}:${hard}`]);
    console.info(`[resilience] raised ${who}'s open-files soft limit from ${soft} to ${needed} with prlimit`);
  }

  beforeAll(async () => {
    provider = await startScriptedProvider((_req, res) => answerJson(res));
    const config = writeGatewayConfig({ credentials: [{ name: 'only-key', provider: 'vendor', baseUrl: provider.url, secret: SECRET }] });
    token = config.tokens.alice as string;
    // All 5,000 come from 127.0.0.1: the per-address limit is raised above them (its own test is in slow-clients.test.ts).
    gateway = await PLANES[0]!.launch(config.file, { env: { GW_MAX_CONNECTIONS_PER_ADDRESS: String(COUNT + 100) } });
    ensureNofile(gateway.child.pid as number, COUNT + 1000, 'gw serve');
    ensureNofile(process.pid, COUNT + 1000, 'the test process');
  });

  afterAll(async () => {
    for (const s of sockets.splice(0)) s.destroy();
    await gateway?.stop();
    await provider?.close();
  });

  async function openFds(): Promise<number> {
    const text = await (await fetch(`${gateway.adminUrl}/metrics`)).text();
    return Number(/^process_open_fds (\d+)/m.exec(text)?.[1] ?? NaN);
  }

  it('keeps answering real requests with its RSS bounded, and lets them all go when they close', { timeout: 120_000 }, async () => {
    const { port } = new URL(gateway.url);
    const before = await openFds();
    const baseline = rssMiB(gateway.child.pid as number);
    for (let batch = 0; batch < COUNT / 500; batch++) {
      await Promise.all(
        Array.from(
          { length: 500 },
          () =>
            new Promise<void>((resolve, reject) => {
              const s = connect(Number(port), '127.0.0.1');
              s.once('connect', () => resolve());
              s.once('error', reject);
              sockets.push(s);
            }),
        ),
      );
    }
    expect(sockets.filter((s) => !s.destroyed && s.readyState === 'open')).toHaveLength(COUNT);
    // The gateway has accepted them all (each is an open descriptor there).
    const held = await waitUntil('the gateway to accept every connection', async () => {
      const n = await openFds();
      return n >= before + COUNT ? n : undefined;
    });
    const rss = rssMiB(gateway.child.pid as number);
    console.info(`[resilience] gw serve with ${COUNT} idle connections: ${held} open fds, RSS ${rss.toFixed(1)} MiB (baseline ${baseline.toFixed(1)} MiB)`);
    expect(await ordinaryRequest(gateway, token)).toEqual({ status: 200, fault: null });
    expect(rss).toBeLessThan(250);
    for (const s of sockets.splice(0)) s.destroy();
    const after = await waitUntil('the gateway to close them', async () => {
      const n = await openFds();
      return n < before + 100 ? n : undefined;
    });
    expect(after).toBeLessThan(before + 100);
    expect(await ordinaryRequest(gateway, token)).toEqual({ status: 200, fault: null });
  });
});
