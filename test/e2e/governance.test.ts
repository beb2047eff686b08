import { describe, expect, it } from 'vitest';
import { writeGatewayConfig } from '../support/gateway-config.js';
import { adminGet, waitForLogs, type GatewayProcess } from '../support/gateway-process.js';
import { useRedisFixture } from '../support/redis-fixture.js';
import { DATA_PLANES } from './data-planes.js';

function body(model = 'claude-haiku-4-5', stream = true, maxTokens = 10): string {
  return JSON.stringify({ model, max_tokens: maxTokens, stream, messages: [{ role: 'user', content: 'hi' }] });
}

async function call(gateway: GatewayProcess, token: string, init: { body?: string; headers?: Record<string, string> } = {}): Promise<Response> {
  return fetch(`${gateway.url}/v1/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(init.headers ?? {}) },
    body: init.body ?? body(),
  });
}

/** Start a request and wait until its response head arrived (the lease and slot are held until the body ends). */
async function open(gateway: GatewayProcess, token: string, init: { body?: string; headers?: Record<string, string> } = {}): Promise<{ res: Response; done: Promise<string> }> {
  const res = await call(gateway, token, init);
  const done = res.text();
  // A test may cut this stream on purpose (SIGKILL); it awaits `done` itself when it cares.
  done.catch(() => undefined);
  return { res, done };
}

describe.each(DATA_PLANES)('governance through $name backed by Redis', (plane) => {
  const { redis, flush, gateway, mock } = useRedisFixture((file, options) => plane.start(file, options));

  it('[S4.1-r3] [S7-j] serves two concurrent streams on two credentials of maxConcurrency 1, and the third gets 503 no_capacity (busy)', async () => {
    await flush();
    const a = await mock();
    const b = await mock();
    a.behaviour = { kind: 'slow-stream', delayMs: 60 };
    b.behaviour = { kind: 'slow-stream', delayMs: 60 };
    const config = writeGatewayConfig({
      credentials: [
        { name: 'k1', provider: 'vendor', baseUrl: a.url, secret: 'sk-k1-secret-value-000000000000', maxConcurrency: 1 },
        { name: 'k2', provider: 'vendor', baseUrl: b.url, secret: 'sk-k2-secret-value-000000000000', maxConcurrency: 1 },
      ],
    });
    const g = await gateway(config);
    const token = config.tokens.alice as string;
    const first = await open(g, token);
    const second = await open(g, token);
    expect([first.res.status, second.res.status]).toEqual([200, 200]);
    const third = await call(g, token);
    expect(third.status).toBe(503);
    expect(third.headers.get('x-gw-fault')).toBe('no_capacity');
    expect(third.headers.get('retry-after')).toBeNull();
    expect(((await third.json()) as { error: { message: string } }).error.message).toMatch(/busy right now; a retry soon succeeds/);
    await Promise.all([first.done, second.done]);
    expect(a.messageRequests()).toHaveLength(1);
    expect(b.messageRequests()).toHaveLength(1);
    // Released on the normal end: the next request is served.
    const after = await call(g, token);
    expect(after.status).toBe(200);
    await after.text();
  });

  it('[S8-d] [S7-j] skips a seat whose window the upstream reported exhausted, until that reset, while an API key keeps serving', async () => {
    await flush();
    const seatUpstream = await mock();
    const keyUpstream = await mock();
    const config = writeGatewayConfig({
      credentials: [
        { name: 'seat', provider: 'vendor', kind: 'subscriptionSeat', baseUrl: seatUpstream.url, secret: 'sk-ant-oat01-seat-token-0000000000', priority: 10 },
        { name: 'key', provider: 'vendor', baseUrl: keyUpstream.url, secret: 'sk-ant-api03-key-0000000000000000' },
      ],
    });
    const g = await gateway(config);
    const token = config.tokens.alice as string;
    // A plain 429 from the seat is the provider's own answer: relayed, and it marks nothing.
    seatUpstream.behaviour = { kind: 'status', status: 429, errorType: 'rate_limit_error', message: 'slow down' };
    const plain = await call(g, token, { body: body('claude-haiku-4-5', false) });
    expect(plain.status).toBe(429);
    expect(plain.headers.get('x-gw-source')).toBe('upstream');
    const seen = seatUpstream.messageRequests()[0];
    expect(seen?.headers.authorization).toBe('Bearer sk-ant-oat01-seat-token-0000000000');
    expect(String(seen?.headers['anthropic-beta'])).toContain('oauth-2025-04-20');
    seatUpstream.behaviour = { kind: 'normal' };
    expect((await call(g, token, { body: body('claude-haiku-4-5', false) })).status).toBe(200);
    expect(seatUpstream.messageRequests()).toHaveLength(2);

    // Far enough ahead that a loaded machine still checks the seat inside its window.
    const resetSeconds = Math.ceil(Date.now() / 1000) + 8;
    seatUpstream.behaviour = {
      kind: 'status',
      status: 429,
      errorType: 'rate_limit_error',
      message: 'window used up',
      headers: {
        'anthropic-ratelimit-unified-status': 'rejected',
        'anthropic-ratelimit-unified-5h-status': 'rejected',
        'anthropic-ratelimit-unified-5h-reset': String(resetSeconds),
        'anthropic-ratelimit-unified-5h-utilization': '1.0',
      },
    };
    const exhausted = await call(g, token, { body: body('claude-haiku-4-5', false) });
    expect(exhausted.status).toBe(429);
    await exhausted.text();
    seatUpstream.behaviour = { kind: 'normal' };
    for (let i = 0; i < 3; i++) {
      const res = await call(g, token, { body: body('claude-haiku-4-5', false) });
      expect(res.status).toBe(200);
      await res.text();
    }
    expect(seatUpstream.messageRequests()).toHaveLength(3);
    expect(keyUpstream.messageRequests()).toHaveLength(3);
    // Without the API key, the message names the reset the upstream gave.
    const seatOnly = writeGatewayConfig({ credentials: [{ name: 'seat', provider: 'vendor', kind: 'subscriptionSeat', baseUrl: seatUpstream.url, secret: 'sk-ant-oat01-seat-token-0000000000' }] });
    const g2 = await gateway(seatOnly);
    const none = await call(g2, seatOnly.tokens.alice as string, { body: body('claude-haiku-4-5', false) });
    // A new file for the same company replaced the records; the seat's window state is kept.
    expect(none.status).toBe(503);
    expect(((await none.json()) as { error: { message: string } }).error.message).toContain(new Date(resetSeconds * 1000).toISOString());
    await new Promise((r) => setTimeout(r, resetSeconds * 1000 - Date.now() + 100));
    const back = await call(g2, seatOnly.tokens.alice as string, { body: body('claude-haiku-4-5', false) });
    expect(back.status).toBe(200);
  });

  it('[S7-i] [S8-b] gives the third concurrent request of a cap-2 caller 429 user_cap after the queue time', async () => {
    await flush();
    const up = await mock();
    up.behaviour = { kind: 'slow-stream', delayMs: 80 };
    const config = writeGatewayConfig({
      settings: { callerConcurrency: { default: 2, queueWaitSeconds: 0.3 } },
      credentials: [{ name: 'k1', provider: 'vendor', baseUrl: up.url, secret: 'sk-cap-secret-00000000000000000', maxConcurrency: 10 }],
    });
    const g = await gateway(config);
    const token = config.tokens.alice as string;
    const one = await open(g, token);
    const two = await open(g, token);
    const three = await call(g, token);
    expect(three.status).toBe(429);
    expect(three.headers.get('x-gw-fault')).toBe('user_cap');
    expect(((await three.json()) as { error: { message: string } }).error.message).toMatch(/^gw: your concurrency cap of 2/);
    await Promise.all([one.done, two.done]);
    const four = await call(g, token);
    expect(four.status).toBe(200);
    await four.text();
  });

  it('[S2.3-f] [S7-h] [S8-c] stops a request over the spend limit with 402 and retry-after at the real reset', async () => {
    await flush();
    const up = await mock();
    const config = writeGatewayConfig({
      settings: { spendLimits: { timeZone: 'UTC', perToken: [{ window: 'daily', usd: 0.01 }] } },
      credentials: [{ name: 'k1', provider: 'vendor', baseUrl: up.url, secret: 'sk-spend-secret-000000000000000' }],
    });
    const g = await gateway(config);
    const token = config.tokens.alice as string;
    // Haiku 4.5 output is $5 per million: 1,000 tokens reserve $0.005 (+ input), 10,000 tokens cannot fit $0.01.
    const ok = await call(g, token, { body: body('claude-haiku-4-5', false, 1000) });
    expect(ok.status).toBe(200);
    await ok.text();
    const refused = await call(g, token, { body: body('claude-haiku-4-5', false, 10_000) });
    expect(refused.status).toBe(402);
    expect(refused.headers.get('x-gw-fault')).toBe('over_budget');
    const midnight = new Date();
    midnight.setUTCHours(24, 0, 0, 0);
    const expected = Math.ceil((midnight.getTime() - Date.now()) / 1000);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(Math.abs(retryAfter - expected)).toBeLessThanOrEqual(5);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain(midnight.toISOString());
    expect(up.messageRequests()).toHaveLength(1);
  });

  // Six gw processes started one after another: 20–28 s on a busy 2-core machine, too near the 30 s default.
  it('shares caps, leases and spend between two gw serve processes on one Redis', { timeout: 90_000 }, async () => {
    await flush();
    const up = await mock();
    up.behaviour = { kind: 'slow-stream', delayMs: 80 };
    const config = writeGatewayConfig({
      settings: { callerConcurrency: { default: 10, queueWaitSeconds: 0 } },
      tokens: ['alice', 'bob'],
      credentials: [{ name: 'k1', provider: 'vendor', baseUrl: up.url, secret: 'sk-shared-secret-0000000000000', maxConcurrency: 2 }],
    });
    const g1 = await gateway(config);
    const g2 = await gateway(config);
    const a = await open(g1, config.tokens.alice as string);
    const b = await open(g2, config.tokens.bob as string);
    // Two leases are taken across both processes: a third anywhere finds the pool busy.
    const c = await call(g1, config.tokens.bob as string);
    expect(c.status).toBe(503);
    const d = await call(g2, config.tokens.alice as string);
    expect(d.status).toBe(503);
    await Promise.all([a.done, b.done]);
    const logs1 = await waitForLogs(g1, 4);
    const logs2 = await waitForLogs(g2, 4);
    expect(logs1.map((r) => r.request_id).sort()).toEqual(logs2.map((r) => r.request_id).sort());

    // Caps are shared too: a cap of 1 per token, held in one process, stops the other.
    await flush();
    const capped = writeGatewayConfig({
      settings: { callerConcurrency: { default: 1, queueWaitSeconds: 0 } },
      credentials: [{ name: 'k1', provider: 'vendor', baseUrl: up.url, secret: 'sk-shared-secret-0000000000000', maxConcurrency: 5 }],
    });
    const g3 = await gateway(capped);
    const g4 = await gateway(capped);
    const held = await open(g3, capped.tokens.alice as string);
    const blocked = await call(g4, capped.tokens.alice as string);
    expect(blocked.status).toBe(429);
    await held.done;

    // Spend: one process's settled spend counts against the other's admission.
    await flush();
    up.behaviour = { kind: 'normal' };
    const spend = writeGatewayConfig({
      settings: { spendLimits: { perToken: [{ window: 'monthly', usd: 0.005 }] } },
      credentials: [{ name: 'k1', provider: 'vendor', baseUrl: up.url, secret: 'sk-shared-secret-0000000000000' }],
    });
    const g5 = await gateway(spend);
    const g6 = await gateway(spend);
    const token = spend.tokens.alice as string;
    // Each call settles at $0.002335 (the mock's usage at Haiku 4.5 prices) after reserving ~$0.0005:
    // calls 0 (g5) and 1 (g6) fit $0.005, call 2 (g5) only fits if g5 ignored g6's spend.
    let refusedAt = -1;
    const settled: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await call(i % 2 === 0 ? g5 : g6, token, { body: body('claude-haiku-4-5', false, 100) });
      await res.text();
      if (res.status === 402) {
        refusedAt = i;
        break;
      }
      // The settlement rides on the usage record, written just after the response ends: wait for this call's own
      // record (a count could be met by a late record of the cap phase's processes, written after the flush).
      settled.push(res.headers.get('x-gw-request-id') as string);
      for (let tries = 0; tries < 200; tries++) {
        const { body: logs } = await adminGet(g5, '/admin/v1/logs?limit=1000');
        const seen = new Set((logs as { data: Array<{ request_id: string }> }).data.map((r) => r.request_id));
        if (settled.every((id) => seen.has(id))) break;
        await new Promise((r) => setTimeout(r, 25));
      }
    }
    expect(refusedAt).toBe(2);
  });

  it('marks a credential unhealthy once its own key check confirms an upstream 401, and leases the healthy one from then on', async () => {
    await flush();
    const BAD = 'sk-ant-api03-bad-0000000000000000';
    // The provider rejects this key on every route, its own key check included.
    const bad = await mock({ keys: { reject: [BAD] } });
    const good = await mock();
    const config = writeGatewayConfig({
      credentials: [
        { name: 'revoked-upstream', provider: 'vendor', baseUrl: bad.url, secret: BAD, priority: 5 },
        { name: 'fine', provider: 'vendor', baseUrl: good.url, secret: 'sk-ant-api03-good-000000000000000' },
      ],
    });
    const g = await gateway(config);
    const token = config.tokens.alice as string;
    const first = await call(g, token, { body: body('claude-haiku-4-5', false) });
    expect(first.status).toBe(401);
    expect(first.headers.get('x-gw-source')).toBe('upstream');
    expect(((await first.json()) as { error: { message: string } }).error.message).toBe('invalid x-api-key');
    // The confirmation is the gateway's own request; wait for its verdict (not for time).
    let metrics = '';
    for (let i = 0; i < 200 && !/gw_credential_unhealthy_total\{company="acme",credential="revoked-upstream"\} 1/.test(metrics); i++) {
      await new Promise((r) => setTimeout(r, 50));
      metrics = await (await fetch(`${g.adminUrl}/metrics`)).text();
    }
    expect(metrics).toMatch(/gw_credential_unhealthy_total\{company="acme",credential="revoked-upstream"\} 1/);
    expect(bad.seen.filter((r) => r.path === '/v1/models?limit=1')).not.toHaveLength(0);
    for (let i = 0; i < 3; i++) {
      const res = await call(g, token, { body: body('claude-haiku-4-5', false) });
      expect(res.status).toBe(200);
      await res.text();
    }
    expect(bad.messageRequests()).toHaveLength(1);
    expect(good.messageRequests()).toHaveLength(3);
  });

  it('admits unpriced models with cost_usd null, or refuses them when the settings say so', async () => {
    await flush();
    const up = await mock({ models: ['local-llama-70b'] });
    const admit = writeGatewayConfig({
      settings: { spendLimits: { perToken: [{ window: 'daily', usd: 1 }] } },
      credentials: [{ name: 'local', provider: 'provider_d', baseUrl: up.url, secret: 'local-runtime-key-0000000000' }],
    });
    const g = await gateway(admit);
    const ok = await call(g, admit.tokens.alice as string, { body: body('provider_d:local-llama-70b', false) });
    expect(ok.status).toBe(200);
    await ok.text();
    const [record] = await waitForLogs(g, 1);
    expect(record).toMatchObject({ provider: 'provider_d', provider_model: 'local-llama-70b', cost_usd: null, input_tokens: 1200 });
    await g.stop('SIGKILL');
    await flush();
    const refuse = writeGatewayConfig({
      settings: { spendLimits: { refuseUnpriced: true, perToken: [{ window: 'daily', usd: 1 }] } },
      credentials: [{ name: 'local', provider: 'provider_d', baseUrl: up.url, secret: 'local-runtime-key-0000000000' }],
    });
    const g2 = await gateway(refuse);
    const refused = await call(g2, refuse.tokens.alice as string, { body: body('provider_d:local-llama-70b', false) });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/has no known price/);
  });

  it('fails closed with 503 unavailable while Redis is down, recovers after, and loses no usage record', async () => {
    await flush();
    const up = await mock();
    const config = writeGatewayConfig({ credentials: [{ name: 'k1', provider: 'vendor', baseUrl: up.url, secret: 'sk-outage-secret-0000000000000' }] });
    const g = await gateway(config);
    const token = config.tokens.alice as string;
    up.behaviour = { kind: 'slow-stream', delayMs: 100 };
    const inFlight = await open(g, token, { headers: { 'x-gw-application': 'survivor' } });
    await redis().stop();
    const during = await call(g, token, { body: body('claude-haiku-4-5', false) });
    expect(during.status).toBe(503);
    expect(during.headers.get('x-gw-fault')).toBe('unavailable');
    expect(up.messageRequests()).toHaveLength(1);
    await inFlight.done;
    await new Promise((r) => setTimeout(r, 300));
    await redis().start();
    up.behaviour = { kind: 'normal' };
    let status = 0;
    for (let i = 0; i < 100 && status !== 200; i++) {
      const res = await call(g, token, { body: body('claude-haiku-4-5', false) });
      status = res.status;
      await res.text();
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);
    let survivor: Record<string, unknown> | undefined;
    for (let i = 0; i < 100 && !survivor; i++) {
      survivor = (await waitForLogs(g, 1)).find((r) => r.application === 'survivor');
      if (!survivor) await new Promise((r) => setTimeout(r, 100));
    }
    expect(survivor).toMatchObject({ status: 200, input_tokens: 1200, outcome: 'complete' });
  });

  it('leaves no lease behind after its TTL when a gw serve process is killed with SIGKILL mid-stream', async () => {
    await flush();
    const up = await mock();
    up.behaviour = { kind: 'slow-stream', delayMs: 200 };
    const config = writeGatewayConfig({
      settings: { callerConcurrency: { default: 1, queueWaitSeconds: 0 } },
      credentials: [{ name: 'k1', provider: 'vendor', baseUrl: up.url, secret: 'sk-kill-secret-0000000000000000', maxConcurrency: 1 }],
    });
    const env = { GW_LEASE_TTL_MS: '1500', GW_SLOT_TTL_MS: '1500' };
    const victim = await gateway(config, env);
    const survivor = await gateway(config, env);
    const token = config.tokens.alice as string;
    const held = await open(victim, token);
    expect(held.res.status).toBe(200);
    await victim.stop('SIGKILL');
    await held.done.catch(() => '');
    const blocked = await call(survivor, token);
    expect([429, 503]).toContain(blocked.status);
    await blocked.text();
    let status = 0;
    for (let i = 0; i < 60 && status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const res = await call(survivor, token, { body: body('claude-haiku-4-5', false) });
      status = res.status;
      await res.text();
    }
    expect(status).toBe(200);
  });
});
