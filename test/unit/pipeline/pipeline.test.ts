import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RequestContext } from '../../../src/pipeline/context.js';
import type { BodyOutcome, ForwardPlan, HeadersOutcome, LocalResponse } from '../../../src/pipeline/types.js';
import type { LeaseRequest } from '../../../src/state/state.js';
import { MICROS } from '../../../src/governance/spend-admission.js';
import { credential } from '../support/records.js';
import { authed, errorOf, harness, head, headerValue, messagesBody, OTHER_TOKEN, RecordedTracer, START, type Harness } from './support.js';

/**
 * The pipeline's phases one by one, against the real in-memory state and
 * recording fakes for its ports (events, credential health, tracer,
 * redactor). No sockets: this is what both data planes drive.
 */

function respond(outcome: HeadersOutcome | BodyOutcome): LocalResponse {
  if (outcome.kind !== 'respond') throw new Error(`expected a local response, got ${outcome.kind}`);
  return outcome.response;
}

function forward(outcome: BodyOutcome): ForwardPlan {
  if (outcome.kind !== 'forward') throw new Error(`expected a forward plan, got ${outcome.kind}: ${outcome.response.body}`);
  return outcome.plan;
}

/** Phase 1 passed for POST /v1/messages (or the path given). */
async function admitted(h: Harness, path = '/v1/messages', headers: Record<string, string> = {}): Promise<RequestContext> {
  const ctx = h.pipeline.begin(head('POST', path, authed(headers)));
  expect((await h.pipeline.onRequestHeaders(ctx)).kind).toBe('body');
  return ctx;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('begin', () => {
  it('matches the route under the configured prefix and keeps the query for the forward', async () => {
    const h = await harness({ config: { pathPrefix: '/api' } });
    const ctx = h.pipeline.begin(head('POST', '/api/v1/messages?beta=true', authed()));
    expect(ctx.route).toBe('messages');
    expect(ctx.query).toBe('?beta=true');
    expect(ctx.requestId).toBe('req_1');
    expect(ctx.startedAt).toBe(START);
    expect(ctx.trace).toBeNull();
  });

  it('opens the request span with the data plane parent only when a tracer is set', async () => {
    const tracer = new RecordedTracer();
    const h = await harness({ tracer });
    const parent = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' };
    const ctx = h.pipeline.begin(head('POST', '/v1/messages', authed()), parent);
    expect(ctx.trace?.traceId).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(tracer.started).toEqual([{ requestId: 'req_1', parent }]);
  });
});

describe('phase 1: onRequestHeaders', () => {
  it('answers an unknown route with not_found naming method and path, without touching state', async () => {
    const h = await harness();
    const ctx = h.pipeline.begin(head('DELETE', '/v1/files?x=1', authed()));
    const response = respond(await h.pipeline.onRequestHeaders(ctx));
    expect(response.status).toBe(404);
    expect(errorOf(response.body)).toMatchObject({ fault: 'not_found' });
    expect(errorOf(response.body).message).toContain('DELETE /v1/files;');
    expect(h.calls).toEqual([]);
  });

  it('answers the pre-connect HEAD / with 200 and the request id, without authenticating', async () => {
    const h = await harness();
    const ctx = h.pipeline.begin(head('HEAD', '/', {}));
    const response = respond(await h.pipeline.onRequestHeaders(ctx));
    expect(response).toEqual({
      status: 200,
      headers: [
        ['x-gw-request-id', 'req_1'],
        ['request-id', 'req_1'],
      ],
      body: '',
    });
    expect(h.calls).toEqual([]);
  });

  it('refuses a duplicated authorization header before looking the token up', async () => {
    const h = await harness();
    const ctx = h.pipeline.begin(head('POST', '/v1/messages', authed(), { repeated: ['authorization'] }));
    const response = respond(await h.pipeline.onRequestHeaders(ctx));
    expect(response.status).toBe(400);
    expect(errorOf(response.body).fault).toBe('invalid_request');
    expect(h.calls).toEqual([]);
  });

  it('refuses a request without a bearer as no_session', async () => {
    const h = await harness();
    const ctx = h.pipeline.begin(head('POST', '/v1/messages', { 'content-type': 'application/json' }));
    const response = respond(await h.pipeline.onRequestHeaders(ctx));
    expect(response.status).toBe(401);
    expect(errorOf(response.body).fault).toBe('no_session');
    expect(ctx.fault).toBe('no_session');
  });

  it('fails closed with 503 unavailable when the token lookup fails, and reports the state error', async () => {
    const h = await harness({ overrides: { findToken: () => Promise.reject(new Error('connection reset')) } });
    const ctx = h.pipeline.begin(head('POST', '/v1/messages', authed()));
    const response = respond(await h.pipeline.onRequestHeaders(ctx));
    expect(response.status).toBe(503);
    expect(errorOf(response.body).fault).toBe('unavailable');
    expect(h.events.stateErrors.map((e) => e.operation)).toEqual(['token lookup']);
  });

  it('tells a state being rebuilt (503) from a token whose company is gone (401)', async () => {
    const rebuilding = await harness({ overrides: { getCompany: () => Promise.resolve(null), loaded: () => Promise.resolve(false) } });
    const first = respond(await rebuilding.pipeline.onRequestHeaders(rebuilding.pipeline.begin(head('POST', '/v1/messages', authed()))));
    expect(first.status).toBe(503);
    expect(errorOf(first.body).message).toContain('being rebuilt');

    const removed = await harness({ overrides: { getCompany: () => Promise.resolve(null), loaded: () => Promise.resolve(true) } });
    const second = respond(await removed.pipeline.onRequestHeaders(removed.pipeline.begin(head('POST', '/v1/messages', authed()))));
    expect(second.status).toBe(401);
    expect(errorOf(second.body).fault).toBe('no_session');
  });

  it('counts header fields only for an authenticated caller (431), so an anonymous one learns nothing but 401', async () => {
    const h = await harness({ config: { maxRequestHeaders: 3 } });
    const many = { a: '1', b: '2', c: '3' };
    const anonymous = respond(await h.pipeline.onRequestHeaders(h.pipeline.begin(head('POST', '/v1/messages', { ...many, 'content-type': 'application/json' }, { fieldCount: 4 }))));
    expect(anonymous.status).toBe(401);
    const caller = respond(await h.pipeline.onRequestHeaders(h.pipeline.begin(head('POST', '/v1/messages', authed(many), { fieldCount: 5 }))));
    expect(caller.status).toBe(431);
    expect(errorOf(caller.body).fault).toBe('headers_too_large');
  });

  it('refuses a declared content-length over the limit before any body arrives (413), and takes no slot', async () => {
    const h = await harness({ config: { maxBodyBytes: 1024 } });
    const ctx = h.pipeline.begin(head('POST', '/v1/messages', authed({ 'content-length': '1025' })));
    const response = respond(await h.pipeline.onRequestHeaders(ctx));
    expect(response.status).toBe(413);
    expect(h.calls).not.toContain('acquireCallerSlot');
    expect(ctx.slotHeld).toBe(false);
  });

  it('answers GET /v1/models itself with the company list, taking no caller slot', async () => {
    const h = await harness();
    const ctx = h.pipeline.begin(head('GET', '/v1/models', authed()));
    const response = respond(await h.pipeline.onRequestHeaders(ctx));
    expect(response.status).toBe(200);
    expect(headerValue(response.headers, 'x-gw-source')).toBe('gateway');
    const list = JSON.parse(response.body) as { data: Array<{ id: string }> };
    expect(list.data.map((m) => m.id)).toContain('claude-haiku-4-5-20251001');
    expect(h.calls).not.toContain('acquireCallerSlot');
  });

  it('reads attribution headers (UTF-8 sent as latin1) into the context', async () => {
    const h = await harness({ settings: { repositoryAttribution: true } });
    const application = Buffer.from('caf\u00e9', 'utf8').toString('latin1');
    const ctx = await admitted(h, '/v1/messages', { 'x-gw-application': application, 'x-gw-repo': 'github.com/acme/web' });
    expect(ctx.attribution).toEqual({ application: 'caf\u00e9', repo: 'github.com/acme/web' });
  });

  it('takes a caller slot under the company cap and holds it until finish', async () => {
    const h = await harness({ settings: { callerCap: 1, queueWaitMs: 0 } });
    const first = await admitted(h);
    expect(first.slotHeld).toBe(true);
    const second = h.pipeline.begin(head('POST', '/v1/messages', authed()));
    const refused = respond(await h.pipeline.onRequestHeaders(second));
    expect(refused.status).toBe(429);
    expect(errorOf(refused.body).fault).toBe('user_cap');
    expect(errorOf(refused.body).message).toContain('concurrency cap of 1');
    expect(headerValue(refused.headers, 'retry-after')).toBe('1');
    expect(headerValue(refused.headers, 'retry-after-ms')).toBe('0');

    await h.pipeline.finish(first, 'complete');
    await admitted(h);
  });

  it('applies a per-token cap override instead of the company cap', async () => {
    const h = await harness({ settings: { callerCap: 1, queueWaitMs: 0, capOverrides: { alice: 2 } } });
    await admitted(h);
    await admitted(h);
    const third = respond(await h.pipeline.onRequestHeaders(h.pipeline.begin(head('POST', '/v1/messages', authed()))));
    expect(errorOf(third.body).message).toContain('concurrency cap of 2');
    // Another token of the company has its own slots.
    const bob = h.pipeline.begin(head('POST', '/v1/messages', authed({}, OTHER_TOKEN)));
    expect((await h.pipeline.onRequestHeaders(bob)).kind).toBe('body');
  });

  it('gives a slot straight back when the request ended while it queued', async () => {
    const h = await harness({ settings: { callerCap: 1, queueWaitMs: 60_000 } });
    const first = await admitted(h);
    const queued = h.pipeline.begin(head('POST', '/v1/messages', authed()));
    const pending = h.pipeline.onRequestHeaders(queued);
    await vi.waitFor(() => expect(h.calls.filter((c) => c === 'acquireCallerSlot')).toHaveLength(2));
    await h.pipeline.finish(queued, 'client_disconnect');
    await h.pipeline.finish(first, 'complete');
    const response = respond(await pending);
    expect(response.status).toBe(503);
    expect(errorOf(response.body).message).toContain('ended before it was admitted');
    await vi.waitFor(() => expect(h.calls).toContain('releaseCallerSlot'));
    // The slot is free again: a new request is admitted at once.
    const next = h.pipeline.begin(head('POST', '/v1/messages', authed()));
    expect((await h.pipeline.onRequestHeaders(next)).kind).toBe('body');
  });

  it('renews the slot and the lease a third of the way into the TTL until finish', async () => {
    vi.useFakeTimers();
    const h = await harness({ config: { slotTtlMs: 3000, leaseTtlMs: 6000 } });
    const ctx = await admitted(h);
    forward(await h.pipeline.onRequestBody(ctx, messagesBody()));
    vi.advanceTimersByTime(1000);
    expect(h.calls.filter((c) => c === 'renewCallerSlot')).toHaveLength(1);
    expect(h.calls.filter((c) => c === 'renewLease')).toHaveLength(1);
    vi.advanceTimersByTime(2000);
    expect(h.calls.filter((c) => c === 'renewCallerSlot')).toHaveLength(3);
    await h.pipeline.finish(ctx, 'complete');
    vi.advanceTimersByTime(10_000);
    expect(h.calls.filter((c) => c === 'renewCallerSlot')).toHaveLength(3);
    expect(ctx.renewal).toBeNull();
  });

  it('reports a failed renewal as a state error without failing the request', async () => {
    vi.useFakeTimers();
    const h = await harness({ config: { slotTtlMs: 300, leaseTtlMs: 300 }, overrides: { renewCallerSlot: () => Promise.reject(new Error('down')) } });
    const ctx = await admitted(h);
    vi.advanceTimersByTime(100);
    await vi.waitFor(() => expect(h.events.stateErrors.map((e) => e.operation)).toContain('slot renewal'));
    expect(ctx.finished).toBe(false);
    await h.pipeline.finish(ctx, 'complete');
  });
});

describe('phase 2: onRequestBody', () => {
  it('refuses a body before authentication as an internal error', async () => {
    const h = await harness();
    const ctx = h.pipeline.begin(head('POST', '/v1/messages', authed()));
    const response = respond(await h.pipeline.onRequestBody(ctx, messagesBody()));
    expect(response.status).toBe(500);
    expect(errorOf(response.body).fault).toBe('internal_error');
  });

  it('refuses a received body over the limit (413)', async () => {
    const h = await harness({ config: { maxBodyBytes: 64 } });
    const ctx = await admitted(h);
    const response = respond(await h.pipeline.onRequestBody(ctx, messagesBody({ pad: 'x'.repeat(100) })));
    expect(response.status).toBe(413);
    expect(errorOf(response.body).fault).toBe('request_too_large');
  });

  it('refuses a body that is not JSON (400) and one with an unknown encoding (415)', async () => {
    const h = await harness();
    const bad = respond(await h.pipeline.onRequestBody(await admitted(h), Buffer.from('{"model":')));
    expect(bad.status).toBe(400);
    const encoded = respond(await h.pipeline.onRequestBody(await admitted(h, '/v1/messages', { 'content-encoding': 'zstd-x' }), messagesBody()));
    expect(encoded.status).toBe(415);
  });

  it('forwards a gzip body decoded, as plain JSON, without its content-encoding', async () => {
    const h = await harness();
    const ctx = await admitted(h, '/v1/messages', { 'content-encoding': 'gzip' });
    const plain = messagesBody({ model: 'claude-haiku-4-5-20251001' });
    const plan = forward(await h.pipeline.onRequestBody(ctx, gzipSync(plain)));
    expect(plan.body.equals(plain)).toBe(true);
    expect(plan.removeHeaders).toContain('content-encoding');
    expect(headerValue(plan.setHeaders, 'content-length')).toBe(String(plain.length));
  });

  it('plans the forward: credential address, base path, endpoint, query, credential header; the same body when unchanged', async () => {
    const h = await harness({ credentials: [credential({ name: 'key', baseUrl: 'https://llm.example:8443/anthropic/', secret: 'sk-upstream' })], config: { pathPrefix: '/api' } });
    const ctx = h.pipeline.begin(head('POST', '/api/v1/messages/count_tokens?beta=true', authed({ 'x-api-key': 'caller-key' })));
    expect((await h.pipeline.onRequestHeaders(ctx)).kind).toBe('body');
    const body = messagesBody({ model: 'claude-haiku-4-5-20251001' });
    const plan = forward(await h.pipeline.onRequestBody(ctx, body));
    expect(plan.origin).toBe('https://llm.example:8443');
    expect(plan.path).toBe('/anthropic/v1/messages/count_tokens?beta=true');
    expect(plan.body).toBe(body);
    expect(headerValue(plan.setHeaders, 'x-api-key')).toBe('sk-upstream');
    expect(plan.removeHeaders).toContain('authorization');
    expect(ctx.lease?.credential.name).toBe('key');
    expect(h.events.leases).toEqual([{ credential: 'key', delta: 1 }]);
  });

  it('splices the forwarded id into the body when the model was asked for by another spelling', async () => {
    const h = await harness();
    const ctx = await admitted(h);
    const plan = forward(await h.pipeline.onRequestBody(ctx, messagesBody({ model: 'Claude-Haiku-4.5' })));
    const sent = JSON.parse(plan.body.toString()) as { model: string; max_tokens: number };
    expect(sent.model).toBe(ctx.model?.forwardId);
    expect(sent.model).not.toBe('Claude-Haiku-4.5');
    expect(sent.max_tokens).toBe(100);
  });

  it('refuses a model of a provider the company has not connected (403), taking no lease', async () => {
    const h = await harness();
    const ctx = await admitted(h);
    const response = respond(await h.pipeline.onRequestBody(ctx, messagesBody({ model: 'provider_a:some/model' })));
    expect(response.status).toBe(403);
    expect(errorOf(response.body).fault).toBe('model_not_allowed');
    expect(h.calls).not.toContain('acquireLease');
  });

  it('refuses an unpriced model when the company refuses unpriced models', async () => {
    const h = await harness({ settings: { refuseUnpriced: true } });
    const ctx = await admitted(h);
    const response = respond(await h.pipeline.onRequestBody(ctx, messagesBody({ model: 'claude-future-9' })));
    expect(response.status).toBe(403);
    expect(errorOf(response.body).message).toContain('no known price');
  });

  it('reserves the worst case against a spend limit, refuses what would pass it (402), and settles the metered cost', async () => {
    const h = await harness({ settings: { companyLimits: [{ window: 'daily', usd: 0.01 }] } });
    const refused = respond(await h.pipeline.onRequestBody(await admitted(h), messagesBody({ max_tokens: 100_000 })));
    expect(refused.status).toBe(402);
    expect(errorOf(refused.body).fault).toBe('over_budget');
    expect(Number(headerValue(refused.headers, 'retry-after'))).toBeGreaterThan(0);

    const ctx = await admitted(h);
    forward(await h.pipeline.onRequestBody(ctx, messagesBody({ max_tokens: 10 })));
    expect(ctx.spend).not.toBeNull();
    const counter = ctx.spend!.checks[0]!.counter;
    expect(await h.memory.spendOf('acme', counter)).toBe(ctx.spend!.reservedMicros);
    h.pipeline.onResponseHeaders(ctx, 200, { 'content-type': 'application/json' });
    h.pipeline.onResponseChunk(ctx, Buffer.from(JSON.stringify({ model: 'claude-haiku-4-5-20251001', usage: { input_tokens: 1000, output_tokens: 0 } })));
    await h.pipeline.finish(ctx, 'complete');
    const cost = h.events.finished.at(-1)?.record?.cost_usd ?? 0;
    expect(cost).toBeGreaterThan(0);
    expect(await h.memory.spendOf('acme', counter)).toBe(Math.round(cost * MICROS));
  });

  it('gives the spend reservation back when no credential can be leased', async () => {
    const h = await harness({ settings: { companyLimits: [{ window: 'daily', usd: 100 }] }, overrides: { acquireLease: () => Promise.resolve({ ok: false, reason: 'busy' }) } });
    const ctx = await admitted(h);
    const response = respond(await h.pipeline.onRequestBody(ctx, messagesBody()));
    expect(response.status).toBe(503);
    expect(errorOf(response.body).fault).toBe('no_capacity');
    // Busy credentials free soon: the SDK may retry.
    expect(headerValue(response.headers, 'x-should-retry')).toBe('true');
    expect(await h.memory.spendOf('acme', 'company:daily:2026-03-02')).toBe(0);
    expect(ctx.spend).toBeNull();
  });

  it('reports rejected credentials to the health monitor and tells the caller not to retry', async () => {
    const h = await harness({ overrides: { acquireLease: () => Promise.resolve({ ok: false, reason: 'rejected', credentials: ['key'] }) } });
    const response = respond(await h.pipeline.onRequestBody(await admitted(h), messagesBody()));
    expect(response.status).toBe(503);
    expect(errorOf(response.body).message).toContain('key');
    expect(headerValue(response.headers, 'x-should-retry')).toBe('false');
    expect(h.health.rejected).toEqual([['key']]);
  });

  it('names the earliest reset when every credential window is exhausted', async () => {
    const reset = Date.parse('2026-03-02T15:00:00Z');
    const h = await harness({ overrides: { acquireLease: () => Promise.resolve({ ok: false, reason: 'exhausted', earliestReset: reset }) } });
    const response = respond(await h.pipeline.onRequestBody(await admitted(h), messagesBody()));
    expect(errorOf(response.body).message).toContain('2026-03-02T15:00:00.000Z');
    expect(headerValue(response.headers, 'x-should-retry')).toBe('false');
  });

  it('fails closed (503) when the lease cannot be taken because state is down', async () => {
    const h = await harness({ overrides: { acquireLease: () => Promise.reject(new Error('down')) } });
    const response = respond(await h.pipeline.onRequestBody(await admitted(h), messagesBody()));
    expect(errorOf(response.body).fault).toBe('unavailable');
    expect(h.events.stateErrors.map((e) => e.operation)).toEqual(['lease']);
  });

  it('gives a lease straight back when the request ended while it was being taken', async () => {
    const h = await harness();
    const ctx = await admitted(h);
    const body = h.pipeline.onRequestBody(ctx, messagesBody());
    await h.pipeline.finish(ctx, 'client_disconnect');
    const response = respond(await body);
    expect(errorOf(response.body).message).toContain('ended before it was forwarded');
    await vi.waitFor(() => expect(h.calls).toContain('releaseLease'));
    expect(ctx.lease).toBeNull();
  });

  it('keeps a caller session on one credential (sticky lease key from x-claude-code-session-id)', async () => {
    const seen: Array<string | null> = [];
    const spying = await harness({
      overrides: (memory) => ({
        acquireLease: ((request: LeaseRequest) => {
          seen.push(request.session);
          return memory.acquireLease(request);
        }) as never,
      }),
    });
    forward(await spying.pipeline.onRequestBody(await admitted(spying, '/v1/messages', { 'x-claude-code-session-id': 's-1' }), messagesBody()));
    forward(await spying.pipeline.onRequestBody(await admitted(spying), messagesBody({ metadata: { user_id: JSON.stringify({ session_id: 's-2' }) } })));
    forward(await spying.pipeline.onRequestBody(await admitted(spying), messagesBody()));
    expect(seen).toEqual(['alice\u0000s-1', 'alice\u0000s-2', null]);
  });

  it('redacts the body when the company scans for secrets, records the counts, and forwards the redacted body', async () => {
    const redactor = vi.fn(async (body: Buffer) => ({ body: Buffer.from(body.toString().replace('sk-secret', '[REDACTED]')), countsByRule: { api_key: 1 } }));
    const h = await harness({ settings: { secretScanning: true }, redactor });
    const ctx = await admitted(h);
    const plan = forward(await h.pipeline.onRequestBody(ctx, messagesBody({ messages: [{ role: 'user', content: 'my key sk-secret' }] })));
    expect(plan.body.toString()).toContain('[REDACTED]');
    expect(plan.body.toString()).not.toContain('sk-secret');
    expect(h.events.redactions).toEqual([{ company: 'acme', counts: { api_key: 1 }, requestId: ctx.requestId }]);
    await h.pipeline.finish(ctx, 'complete');
    expect(h.events.finished[0]?.record?.redactions).toEqual({ api_key: 1 });
  });

  it('does not call the redactor when secret scanning is off', async () => {
    const redactor = vi.fn(async (body: Buffer) => ({ body, countsByRule: {} }));
    const h = await harness({ settings: { secretScanning: false }, redactor });
    forward(await h.pipeline.onRequestBody(await admitted(h), messagesBody()));
    expect(redactor).not.toHaveBeenCalled();
  });

  it('does not forward a body the scanner failed on (500), and reports why', async () => {
    const h = await harness({ settings: { secretScanning: true }, redactor: () => Promise.reject(new Error('worker died')) });
    const response = respond(await h.pipeline.onRequestBody(await admitted(h), messagesBody()));
    expect(response.status).toBe(500);
    expect(h.calls).not.toContain('acquireLease');
    expect(h.events.stateErrors.map((e) => e.operation)).toEqual(['pipeline']);
  });

  it('strips the trace context for the provider unless the company allows it; then the upstream span is the parent', async () => {
    const off = await harness({ tracer: new RecordedTracer() });
    const hidden = forward(await off.pipeline.onRequestBody(await admitted(off, '/v1/messages', { traceparent: '00-1-2-01' }), messagesBody()));
    expect(hidden.removeHeaders).toEqual(expect.arrayContaining(['traceparent', 'tracestate']));

    const tracer = new RecordedTracer();
    const on = await harness({ tracer, settings: { traceContextToProvider: true } });
    const shown = forward(await on.pipeline.onRequestBody(await admitted(on), messagesBody()));
    const upstream = tracer.phases.findIndex((p) => p.name === 'upstream');
    expect(headerValue(shown.setHeaders, 'traceparent')).toBe(`00-0af7651916cd43dd8448eb211c80319c-${String(upstream).padStart(16, '0')}-01`);
    expect(tracer.phases.map((p) => p.name)).toEqual(['authenticate', 'caller_queue', 'policy', 'spend', 'lease', 'upstream']);
  });
});

describe('phase 3: onResponseHeaders', () => {
  async function forwarded(h: Harness): Promise<RequestContext> {
    const ctx = await admitted(h);
    forward(await h.pipeline.onRequestBody(ctx, messagesBody()));
    return ctx;
  }

  it('tags the relayed answer, drops the provider x-gw-* headers and adds the attribution warning', async () => {
    const h = await harness();
    const ctx = await forwarded(h);
    ctx.attribution = { warning: 'x-gw-repo ignored' };
    const decision = h.pipeline.onResponseHeaders(ctx, 200, { 'content-type': 'application/json', 'x-gw-fault': 'forged' });
    expect(decision.streaming).toBe(false);
    expect(decision.removeHeaders).toEqual(['x-gw-fault']);
    expect(decision.addHeaders).toEqual([
      ['x-gw-source', 'upstream'],
      ['x-gw-request-id', ctx.requestId],
      ['x-gw-warning', 'x-gw-repo ignored'],
    ]);
    expect(ctx.status).toBe(200);
  });

  it('meters an event stream chunk by chunk', async () => {
    const h = await harness();
    const ctx = await forwarded(h);
    expect(h.pipeline.onResponseHeaders(ctx, 200, { 'content-type': 'text/event-stream; charset=utf-8' }).streaming).toBe(true);
    h.clock.t += 250;
    const start = { type: 'message_start', message: { model: 'claude-haiku-4-5-20251001', usage: { input_tokens: 12, output_tokens: 1 } } };
    h.pipeline.onResponseChunk(ctx, Buffer.from(`event: message_start\ndata: ${JSON.stringify(start)}\n\n`));
    h.clock.t += 250;
    h.pipeline.onResponseChunk(ctx, Buffer.from(`event: message_delta\ndata: ${JSON.stringify({ type: 'message_delta', usage: { output_tokens: 7 } })}\n\n`));
    expect(ctx.firstByteAt).toBe(START + 250);
    await h.pipeline.finish(ctx, 'complete');
    const { record, info } = h.events.finished[0]!;
    expect(record).toMatchObject({ input_tokens: 12, output_tokens: 7, ttfb_ms: 250, duration_ms: 500, outcome: 'complete', credential: 'key' });
    expect(info.responseModel).toBe('claude-haiku-4-5-20251001');
  });

  it('learns a subscription seat window from the answer and reports an exhausted one', async () => {
    const h = await harness({ credentials: [credential({ name: 'seat', kind: 'subscriptionSeat', authScheme: 'bearer' })] });
    const ctx = await forwarded(h);
    const reset = Math.floor(START / 1000) + 3600;
    h.pipeline.onResponseHeaders(ctx, 429, {
      'content-type': 'application/json',
      'anthropic-ratelimit-unified-5h-status': 'rejected',
      'anthropic-ratelimit-unified-5h-reset': String(reset),
    });
    await vi.waitFor(() => expect(h.calls).toContain('updateSeatWindows'));
    expect(h.events.exhausted).toEqual([{ credential: 'seat', window: '5h', resetAt: reset * 1000 }]);
    const health = await h.memory.credentialHealth('acme', 'seat');
    expect(health.windows[0]).toMatchObject({ window: '5h', exhausted: true });
  });

  it('reads no seat windows for an API key credential', async () => {
    const h = await harness();
    const ctx = await forwarded(h);
    h.pipeline.onResponseHeaders(ctx, 200, { 'content-type': 'application/json', 'anthropic-ratelimit-unified-5h-status': 'rejected' });
    expect(h.calls).not.toContain('updateSeatWindows');
    expect(h.events.exhausted).toEqual([]);
  });

  it('reports a provider 401/403 to the health monitor as a suspicion only', async () => {
    const h = await harness();
    h.pipeline.onResponseHeaders(await forwarded(h), 401, { 'content-type': 'application/json' });
    h.pipeline.onResponseHeaders(await forwarded(h), 403, { 'content-type': 'application/json' });
    h.pipeline.onResponseHeaders(await forwarded(h), 429, { 'content-type': 'application/json' });
    expect(h.health.suspects).toEqual([
      { credential: 'key', status: 401 },
      { credential: 'key', status: 403 },
    ]);
    expect(h.calls).not.toContain('markCredentialUnhealthy');
  });
});

describe('phase 5: finish', () => {
  it('releases the lease and the slot and writes exactly one record, however often it is called', async () => {
    const h = await harness({ settings: { callerCap: 1, queueWaitMs: 0 } });
    const ctx = await admitted(h);
    forward(await h.pipeline.onRequestBody(ctx, messagesBody()));
    h.pipeline.onResponseHeaders(ctx, 200, { 'content-type': 'application/json' });
    await Promise.all([h.pipeline.finish(ctx, 'complete'), h.pipeline.finish(ctx, 'client_disconnect')]);
    await h.pipeline.finish(ctx, 'shutdown');
    expect(h.events.finished).toHaveLength(1);
    expect(h.events.finished[0]?.record?.outcome).toBe('complete');
    expect(h.events.leases).toEqual([
      { credential: 'key', delta: 1 },
      { credential: 'key', delta: -1 },
    ]);
    expect(await h.memory.queryLogs({ company: 'acme', limit: 10 })).toHaveLength(1);
    // Slot and lease are free again.
    forward(await h.pipeline.onRequestBody(await admitted(h), messagesBody()));
  });

  it('records a gateway error as outcome gateway_error at no cost, whatever ended the request', async () => {
    const h = await harness();
    const ctx = await admitted(h);
    respond(await h.pipeline.onRequestBody(ctx, messagesBody({ model: 'provider_b:x' })));
    await h.pipeline.finish(ctx, 'complete');
    expect(h.events.finished[0]?.record).toMatchObject({ outcome: 'gateway_error', fault: 'model_not_allowed', status: 403, cost_usd: 0, credential: null });
    expect(h.events.finished[0]?.info).toMatchObject({ fault: 'model_not_allowed', company: 'acme', address: 'alice@acme.example' });
  });

  it('records count_tokens at no cost, and nothing for a request that never authenticated or for /v1/models', async () => {
    const h = await harness();
    const counted = await admitted(h, '/v1/messages/count_tokens');
    forward(await h.pipeline.onRequestBody(counted, messagesBody()));
    h.pipeline.onResponseHeaders(counted, 200, { 'content-type': 'application/json' });
    h.pipeline.onResponseChunk(counted, Buffer.from('{"input_tokens":5}'));
    await h.pipeline.finish(counted, 'complete');
    expect(h.events.finished[0]?.record).toMatchObject({ endpoint: 'count_tokens', cost_usd: 0, input_tokens: 0 });

    const anonymous = h.pipeline.begin(head('POST', '/v1/messages', {}));
    await h.pipeline.onRequestHeaders(anonymous);
    await h.pipeline.finish(anonymous, 'complete');
    const models = h.pipeline.begin(head('GET', '/v1/models', authed()));
    await h.pipeline.onRequestHeaders(models);
    await h.pipeline.finish(models, 'complete');
    expect(h.events.finished.slice(1).map((f) => f.record)).toEqual([null, null]);
    expect(h.events.finished[1]?.info).toMatchObject({ status: 401, fault: 'no_session', company: null });
  });

  it('records the requested spelling and the attribution fields', async () => {
    const h = await harness({ settings: { repositoryAttribution: true, endUserRecording: true } });
    const ctx = await admitted(h, '/v1/messages', { 'x-gw-repo': 'github.com/acme/web', 'x-gw-application': 'ci', 'x-gw-end-user': 'u-7' });
    forward(await h.pipeline.onRequestBody(ctx, messagesBody({ model: 'Claude-Haiku-4.5' })));
    await h.pipeline.finish(ctx, 'upstream_error');
    expect(h.events.finished[0]?.record).toMatchObject({
      requested_model: 'Claude-Haiku-4.5',
      model: ctx.model?.canonicalId,
      provider: 'vendor',
      repo: 'github.com/acme/web',
      application: 'ci',
      end_user: 'u-7',
      outcome: 'upstream_error',
      status: 0,
      ttfb_ms: null,
    });
  });

  it('still writes the record when a release fails, and reports both failures', async () => {
    const h = await harness({ overrides: { releaseLease: () => Promise.reject(new Error('down')), recordUsage: () => Promise.reject(new Error('full')) } });
    const ctx = await admitted(h);
    forward(await h.pipeline.onRequestBody(ctx, messagesBody()));
    await h.pipeline.finish(ctx, 'complete');
    expect(h.events.stateErrors.map((e) => e.operation)).toEqual(['release', 'record usage']);
    expect(h.events.finished).toHaveLength(1);
  });

  it('closes the request span with the record, the summary and the model', async () => {
    const tracer = new RecordedTracer();
    const h = await harness({ tracer });
    const ctx = await admitted(h);
    forward(await h.pipeline.onRequestBody(ctx, messagesBody()));
    h.pipeline.onResponseHeaders(ctx, 200, { 'content-type': 'application/json' });
    await h.pipeline.finish(ctx, 'complete');
    expect(tracer.ended?.record?.request_id).toBe(ctx.requestId);
    expect(tracer.ended?.info.traceId).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(tracer.ended?.model).toEqual({ operation: 'chat', provider: 'vendor', requestModel: 'claude-haiku-4-5', responseModel: null });
    expect(tracer.phases.find((p) => p.name === 'upstream')?.events).toEqual(['response_headers']);
  });
});

describe('errorResponse', () => {
  it('renders an unexpected error as internal_error without its text, and reports it', async () => {
    const h = await harness();
    const ctx = h.pipeline.begin(head('POST', '/v1/messages', authed()));
    const response = h.pipeline.errorResponse(ctx, new TypeError('secret detail'));
    expect(response.status).toBe(500);
    expect(response.body).not.toContain('secret detail');
    expect(ctx.fault).toBe('internal_error');
    expect(h.events.stateErrors).toHaveLength(1);
  });
});
