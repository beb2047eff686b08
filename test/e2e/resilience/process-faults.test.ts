import { describe, expect, it } from 'vitest';
import { writeGatewayConfig } from '../../support/gateway-config.js';
import type { GatewayProcess } from '../../support/gateway-process.js';
import { DEFAULT_USAGE, startMockProvider, streamEvents } from '../../support/mock-provider.js';
import { useRedisFixture } from '../../support/redis-fixture.js';
import { classify, collectStderr, CRASH_PATTERN, fromFetch, healthy, logsFor, sleep, waitUntil } from '../../support/resilience.js';
import { startScriptedProvider } from '../../support/scripted-provider.js';
import { PLANES } from './planes.js';

/**
 * Processes dying hard: Redis SIGKILLed and restarted under load, and a data
 * plane process SIGKILLed mid-stream next to a survivor on the same Redis.
 * (The SIGTERM outage and the single-lease TTL case are in governance.test.ts.)
 */

const SECRET = 'sk-ant-api03-process-faults-secret-FFFFFFFFFFFFFFFF';
const MODEL = 'claude-haiku-4-5';

function body(stream: boolean, text = 'hi'): string {
  return JSON.stringify({ model: MODEL, max_tokens: 10, stream, messages: [{ role: 'user', content: text }] });
}

async function call(gateway: GatewayProcess, token: string, init: { body?: string; headers?: Record<string, string> } = {}): Promise<Response> {
  return fetch(`${gateway.url}/v1/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(init.headers ?? {}) },
    body: init.body ?? body(false),
  });
}

interface Outcome {
  readonly status: number;
  readonly fault: string | null;
  readonly requestId: string | null;
  /** The whole body was read (for a 200: the request completed). */
  readonly complete: boolean;
  readonly phase: 'before' | 'down' | 'after';
  readonly error?: string;
}

describe.each(PLANES)('process faults through $name backed by Redis', (plane) => {
  const { redis, flush, gateway, track } = useRedisFixture((file, options) => plane.launch(file, options));

  it('answers 503 unavailable while Redis is SIGKILLed under load, recovers without a restart, and records every completed request', { timeout: 90_000 }, async () => {
    await flush();
    const up = await startMockProvider();
    track(up);
    // A local runtime that streams slowly: its answers are in flight across the kill and end while Redis is down.
    const slow = await startScriptedProvider(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const event of streamEvents('slow-model', ['slow ', 'but ', 'sure'], DEFAULT_USAGE, {})) {
        if (res.destroyed) return;
        res.write(event);
        await sleep(150);
      }
      res.end();
    });
    track(slow);
    const config = writeGatewayConfig({
      settings: { callerConcurrency: { default: 50, queueWaitSeconds: 1 } },
      credentials: [
        { name: 'k1', provider: 'vendor', baseUrl: up.url, secret: SECRET, maxConcurrency: 50 },
        { name: 'local', provider: 'provider_d', baseUrl: slow.url, secret: 'local-runtime-key-process-faults', maxConcurrency: 5 },
      ],
    });
    // Short TTLs: a release that fails while Redis is down frees itself soon after.
    const g = await gateway(config, { GW_LEASE_TTL_MS: '3000', GW_SLOT_TTL_MS: '3000' });
    const stderr = collectStderr(g);
    const pid = g.child.pid;
    const token = config.tokens.alice as string;

    const outcomes: Outcome[] = [];
    let phase: Outcome['phase'] = 'before';
    let running = true;
    const worker = async (n: number): Promise<void> => {
      for (let i = 0; running; i++) {
        const at = phase;
        try {
          const res = await call(g, token, { body: body((n + i) % 2 === 0, `worker ${n} call ${i}`) });
          const text = await res.text();
          // Every answer is a relayed one or a well-formed gateway error.
          classify(fromFetch(res, text));
          outcomes.push({ status: res.status, fault: res.headers.get('x-gw-fault'), requestId: res.headers.get('x-gw-request-id'), complete: true, phase: at });
        } catch (error) {
          outcomes.push({ status: 0, fault: null, requestId: null, complete: false, phase: at, error: String(error) });
        }
        if (phase === 'down') await sleep(20);
      }
    };
    const workers = Array.from({ length: 6 }, (_, n) => worker(n));
    const count = (p: Outcome['phase'], status: number, fault: string | null = null): number => outcomes.filter((o) => o.phase === p && o.status === status && o.fault === fault).length;

    await waitUntil('load before the outage', () => (count('before', 200) >= 30 ? true : undefined));
    const across = await Promise.all(
      [0, 1].map(async () => {
        const res = await call(g, token, { body: JSON.stringify({ model: 'provider_d:slow-model', max_tokens: 10, stream: true, messages: [] }) });
        expect(res.status).toBe(200);
        return { requestId: res.headers.get('x-gw-request-id') as string, text: res.text() };
      }),
    );
    await redis().kill();
    phase = 'down';
    await waitUntil('503 unavailable during the outage', () => (count('down', 503, 'unavailable') >= 10 ? true : undefined));
    // The slow streams end while Redis is still down: their usage can only be kept in the process.
    for (const a of across) expect(await a.text).toContain('message_stop');
    await redis().start();
    phase = 'after';
    await waitUntil('recovery after the restart', () => (count('after', 200) >= 30 ? true : undefined), 400);
    running = false;
    await Promise.all(workers);

    // The same process throughout: recovery needed no restart.
    expect(g.child.pid).toBe(pid);
    expect(await healthy(g)).toBe(true);
    const unexpected = outcomes.filter((o) => !(o.status === 200 && o.fault === null) && !(o.status === 503 && o.fault === 'unavailable'));
    expect(unexpected).toEqual([]);
    expect(outcomes.filter((o) => o.phase === 'down' && o.fault === 'unavailable').length).toBeGreaterThan(0);

    // No usage record lost for a request that completed, including those that ended while Redis was down.
    const completed = [...outcomes.filter((o) => o.status === 200 && o.complete).map((o) => o.requestId as string), ...across.map((a) => a.requestId)];
    const recorded = await waitUntil(
      'every completed request to be recorded',
      async () => {
        const ids = new Set((await logsFor(g)).map((r) => r.request_id as string));
        return completed.every((id) => ids.has(id)) ? ids : undefined;
      },
      200,
      100,
    );
    expect(completed.filter((id) => !recorded.has(id))).toEqual([]);
    const acrossRecords = (await logsFor(g)).filter((r) => across.some((a) => a.requestId === r.request_id));
    expect(acrossRecords).toHaveLength(2);
    for (const r of acrossRecords) expect(r).toMatchObject({ outcome: 'complete', provider: 'provider_d', input_tokens: DEFAULT_USAGE.input_tokens, output_tokens: DEFAULT_USAGE.output_tokens });
    console.info(
      `[resilience] ${plane.processLabel}: Redis SIGKILL under load: ${outcomes.length} requests, ${completed.length} completed and recorded, ${outcomes.filter((o) => o.fault === 'unavailable').length} answered 503 unavailable`,
    );
    expect(stderr.filter((l) => CRASH_PATTERN.test(l))).toEqual([]);
  });

  it(`frees leases and caller slots after their TTL when a ${plane.processLabel} is SIGKILLed mid-stream; only its in-flight usage is lost`, { timeout: 60_000 }, async () => {
    await flush();
    const up = await startMockProvider();
    track(up);
    const config = writeGatewayConfig({
      settings: { callerConcurrency: { default: 1, queueWaitSeconds: 0 } },
      tokens: ['alice', 'bob', 'carol', 'dave'],
      credentials: [{ name: 'k1', provider: 'vendor', baseUrl: up.url, secret: SECRET, maxConcurrency: 3 }],
    });
    // Short, but long enough that the checks right after the kill still find them held on a loaded machine.
    const env = { GW_LEASE_TTL_MS: '3000', GW_SLOT_TTL_MS: '3000' };
    const victim = await gateway(config, env);
    const survivor = await gateway(config, env);
    const t = config.tokens as Record<'alice' | 'bob' | 'carol' | 'dave', string>;

    // Finished before the kill: these must all be recorded.
    const finished: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await call(victim, i % 2 === 0 ? t.alice : t.bob, { body: body(i % 3 === 0) });
      await res.text();
      expect(res.status).toBe(200);
      finished.push(res.headers.get('x-gw-request-id') as string);
    }
    await waitUntil('the finished requests to be recorded', async () => {
      const ids = new Set((await logsFor(survivor)).map((r) => r.request_id as string));
      return finished.every((id) => ids.has(id)) ? true : undefined;
    });

    // Three streams in flight, each holding its caller's only slot and one of three leases.
    up.behaviour = { kind: 'slow-stream', delayMs: 150 };
    const inFlight: Array<{ id: string; done: Promise<string> }> = [];
    for (const who of [t.alice, t.bob, t.carol]) {
      const res = await call(victim, who, { body: body(true) });
      expect(res.status).toBe(200);
      const done = res.text();
      done.catch(() => undefined);
      inFlight.push({ id: res.headers.get('x-gw-request-id') as string, done });
    }
    await victim.stop('SIGKILL');
    for (const f of inFlight) await f.done.catch(() => '');
    up.behaviour = { kind: 'normal' };

    // Right after the kill the dead process still holds them: alice's slot (429), and all three leases (503 for dave).
    const slotHeld = await call(survivor, t.alice);
    await slotHeld.text();
    const leasesHeld = await call(survivor, t.dave);
    await leasesHeld.text();
    expect({ status: slotHeld.status, fault: slotHeld.headers.get('x-gw-fault') }).toEqual({ status: 429, fault: 'user_cap' });
    expect({ status: leasesHeld.status, fault: leasesHeld.headers.get('x-gw-fault') }).toEqual({ status: 503, fault: 'no_capacity' });

    // After the TTL another process on the same Redis serves them again.
    for (const who of [t.alice, t.dave]) {
      const status = await waitUntil(
        'the TTL to free the slot and lease',
        async () => {
          const res = await call(survivor, who);
          await res.text();
          return res.status === 200 ? 200 : undefined;
        },
        100,
        100,
      );
      expect(status).toBe(200);
    }

    const ids = new Set((await logsFor(survivor)).map((r) => r.request_id as string));
    expect(finished.filter((id) => !ids.has(id))).toEqual([]);
    // The documented bound: what was lost is exactly the killed process's requests in flight.
    const lost = inFlight.filter((f) => !ids.has(f.id));
    expect(lost.map((f) => f.id)).toEqual(inFlight.map((f) => f.id));
  });
});
