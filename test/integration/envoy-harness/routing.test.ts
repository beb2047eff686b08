/**
 * Route selection: the route is matched before the processor runs and is
 * matched again only after clear_route_cache arrives together with a header
 * mutation on the request path (reference §2.10).
 */
import { describe, expect, it } from 'vitest';
import type { CommonResponse, ProcessingRequest } from '../../../src/extproc/proto.js';
import { startEnvoyHarness } from '../../support/envoy-harness/index.js';
import { deadAddress, headerValues, pass, raw, send, useRig, type ProcessorCall } from './fixtures.js';

const rig = useRig();

const toProviderA = { set_headers: [raw('x-gw-upstream', 'provider_a')] };

const answer =
  (at: 'request_headers' | 'request_body' | 'response_headers', common: CommonResponse) =>
  (message: ProcessingRequest, call: ProcessorCall): void => {
    if (message.request !== at) {
      call.send(pass(message));
    } else if (at === 'request_headers') call.send({ request_headers: { response: common } });
    else if (at === 'request_body') call.send({ request_body: { response: common } });
    else call.send({ response_headers: { response: common } });
  };

describe('routing', () => {
  it('uses the default route when there is no routing header', async () => {
    const r = await rig((m, call) => call.send(pass(m)));
    const res = await r.send({ body: '{}' });
    expect(JSON.parse(res.body.toString()).upstream).toBe('vendor');
    await r.harness.idle();
    expect(r.harness.accessLog[0]?.cluster).toBe('vendor');
  });

  it('routes on a header the client sent, before any processing', async () => {
    const r = await rig((m, call) => call.send(pass(m)));
    const res = await r.send({ headers: { 'x-gw-upstream': 'provider_a' }, body: '{}' });
    expect(JSON.parse(res.body.toString()).upstream).toBe('provider_a');
  });

  it('re-selects the cluster after clear_route_cache with the routing header in the same headers answer', async () => {
    const r = await rig(answer('request_headers', { header_mutation: toProviderA, clear_route_cache: true }));
    const res = await r.send({ body: '{}' });
    expect(JSON.parse(res.body.toString()).upstream).toBe('provider_a');
    expect(r.upstreams.vendor?.requests).toHaveLength(0);
    expect(r.harness.stats.route_cache_cleared).toBe(1);
    expect(r.harness.stats.upstream_requests).toEqual({ provider_a: 1 });
  });

  it('re-selects the cluster from the BUFFERED body answer (headers are still held)', async () => {
    const r = await rig(answer('request_body', { header_mutation: toProviderA, clear_route_cache: true }));
    const res = await r.send({ body: '{}' });
    expect(JSON.parse(res.body.toString()).upstream).toBe('provider_a');
  });

  it('keeps the first route when the routing header changes without clear_route_cache', async () => {
    const r = await rig(answer('request_headers', { header_mutation: toProviderA }));
    const res = await r.send({ body: '{}' });
    expect(JSON.parse(res.body.toString()).upstream).toBe('vendor');
    // The mutation itself was applied (a header other than the routing one, which the route drops, shows it).
    expect(r.upstreams.vendor?.requests[0]?.headers['x-gw-upstream']).toBeUndefined();
    expect(r.harness.stats.route_cache_cleared).toBe(0);
  });

  it('ignores clear_route_cache that comes without a header mutation in the same answer', async () => {
    // The routing header is changed in the headers answer, the cache "cleared"
    // alone in the body answer: current Envoy ignores the latter.
    const r = await rig((m, call) => {
      if (m.request === 'request_headers') call.send({ request_headers: { response: { header_mutation: toProviderA } } });
      else if (m.request === 'request_body') call.send({ request_body: { response: { clear_route_cache: true } } });
      else call.send(pass(m));
    });
    const res = await r.send({ body: '{}' });
    expect(JSON.parse(res.body.toString()).upstream).toBe('vendor');
    expect(r.harness.stats.clear_route_cache_ignored).toBe(1);
    expect(r.harness.stats.route_cache_cleared).toBe(0);
  });

  it('ignores clear_route_cache on the response path', async () => {
    const r = await rig(answer('response_headers', { header_mutation: toProviderA, clear_route_cache: true }));
    await r.send({ body: '{}' });
    expect(r.harness.stats.clear_route_cache_ignored).toBe(1);
    expect(r.harness.stats.upstream_requests).toEqual({ vendor: 1 });
  });

  it('answers 404 when no route matches, and shows that reply to the processor', async () => {
    const r = await rig((m, call) => call.send(pass(m)), { defaultCluster: undefined });
    const res = await r.send({ headers: { 'x-gw-upstream': 'nowhere' }, body: '{}' });
    expect(res.status).toBe(404);
    const responseHeaders = r.processor.calls[0]?.received.find((m) => m.request === 'response_headers');
    expect(headerValues(responseHeaders)).toContainEqual([':status', '404']);
    await r.harness.idle();
    expect(r.harness.accessLog[0]?.responseCodeDetails).toBe('route_not_found');
  });

  it('turns an unreachable upstream into a 503 that the processor sees', async () => {
    const r = await rig((m, call) => call.send(pass(m)));
    const dead = await startEnvoyHarness({
      processor: r.processor.address,
      clusters: { vendor: `http://${await deadAddress()}` },
      defaultCluster: 'vendor',
      messageTimeoutMs: 5_000,
    });
    try {
      const res = await send(dead.url, { body: '{}' });
      expect(res.status).toBe(503);
      const call = r.processor.calls.at(-1);
      expect(headerValues(call?.received.find((m) => m.request === 'response_headers'))).toContainEqual([':status', '503']);
    } finally {
      await dead.close();
    }
  });
});
