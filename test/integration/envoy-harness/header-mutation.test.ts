/**
 * What the processor sees of request headers, and how the harness applies
 * header mutations: Envoy's raw_value, append and restricted-header rules
 * (reference §1.2, §1.3, §1.5).
 */
import { describe, expect, it } from 'vitest';
import type { HeaderMutation, ProcessingRequest } from '../../../src/extproc/proto.js';
import { headerValues, pass, raw, useRig, type ProcessorCall } from './fixtures.js';

const rig = useRig();

/** Answers request headers with `mutation`, everything else unchanged. */
const mutateRequestHeaders =
  (mutation: HeaderMutation) =>
  (message: ProcessingRequest, call: ProcessorCall): void => {
    call.send(message.request === 'request_headers' ? { request_headers: { response: { header_mutation: mutation } } } : pass(message));
  };

describe('request headers as the processor sees them', () => {
  it('sends lower-case keys, raw_value only, pseudo-headers and repeated headers as separate entries', async () => {
    const r = await rig((m, call) => call.send(pass(m)));
    const res = await r.send({
      path: '/v1/messages?beta=true',
      headers: { 'X-Mixed-Case': 'Value', 'Anthropic-Beta': ['a', 'b'], 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(200);
    const first = r.processor.calls[0]?.received[0];
    const entries = first?.request_headers?.headers?.headers ?? [];
    expect(entries.every((h) => h.value === undefined && h.raw_value !== undefined)).toBe(true);
    expect(entries.every((h) => h.key === h.key?.toLowerCase())).toBe(true);
    const pairs = headerValues(first);
    expect(pairs).toContainEqual([':method', 'POST']);
    expect(pairs).toContainEqual([':path', '/v1/messages?beta=true']);
    expect(pairs).toContainEqual([':scheme', 'http']);
    expect(pairs.find(([k]) => k === ':authority')?.[1]).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(pairs).toContainEqual(['x-mixed-case', 'Value']);
    expect(pairs.filter(([k]) => k === 'anthropic-beta')).toEqual([
      ['anthropic-beta', 'a'],
      ['anthropic-beta', 'b'],
    ]);
    expect(pairs.some(([k]) => k === 'host')).toBe(false);
    // A body follows, so the headers message does not end the stream.
    expect(first?.request_headers?.end_of_stream).toBeUndefined();
    expect(first?.protocol_config).toEqual({ request_body_mode: 'BUFFERED', response_body_mode: 'NONE' });
  });
});

describe('header mutations', () => {
  it('sets a header from raw_value and overwrites an existing one when append is unset', async () => {
    const r = await rig(mutateRequestHeaders({ set_headers: [raw('x-api-key', 'sk-upstream'), raw('x-new', 'yes')] }));
    const res = await r.send({ headers: { 'x-api-key': 'client-key' }, body: '{}' });
    expect(res.status).toBe(200);
    const seen = r.upstreams.vendor?.requests[0];
    expect(seen?.headers['x-api-key']).toBe('sk-upstream');
    expect(seen?.headers['x-new']).toBe('yes');
  });

  it('reads only raw_value: a header sent with `value` alone becomes empty', async () => {
    const r = await rig(mutateRequestHeaders({ set_headers: [{ header: { key: 'x-from-value', value: 'lost' } }] }));
    expect((await r.send({ body: '{}' })).status).toBe(200);
    expect(r.upstreams.vendor?.requests[0]?.headers['x-from-value']).toBe('');
  });

  it('rejects a header with both value and raw_value: 500 and no upstream call', async () => {
    const r = await rig(mutateRequestHeaders({ set_headers: [{ header: { key: 'x-both', value: 'a', raw_value: Buffer.from('b') } }] }));
    const res = await r.send({ body: '{}' });
    expect(res.status).toBe(500);
    expect(r.upstreams.vendor?.requests).toHaveLength(0);
    await r.harness.idle();
    expect(r.harness.accessLog[0]?.responseCodeDetails).toContain('Only_one_of_value_or_raw_value');
  });

  it('append=true adds a value; append_action is ignored (ADD_IF_ABSENT still overwrites)', async () => {
    const r = await rig(
      mutateRequestHeaders({
        set_headers: [
          { header: { key: 'anthropic-beta', raw_value: Buffer.from('c') }, append: { value: true } },
          { header: { key: 'x-keep', raw_value: Buffer.from('processor') }, append_action: 'ADD_IF_ABSENT' },
          { header: { key: 'x-over', raw_value: Buffer.from('processor') }, append: { value: false } },
        ],
      }),
    );
    await r.send({ headers: { 'anthropic-beta': 'a', 'x-keep': 'client', 'x-over': 'client' }, body: '{}' });
    const seen = r.upstreams.vendor?.requests[0];
    const betas = (seen?.rawHeaders ?? []).filter((_, i, a) => a[i - 1]?.toLowerCase() === 'anthropic-beta');
    expect(betas).toEqual(['a', 'c']);
    expect(seen?.headers['x-keep']).toBe('processor');
    expect(seen?.headers['x-over']).toBe('processor');
  });

  it('removes headers before setting them', async () => {
    const r = await rig(mutateRequestHeaders({ remove_headers: ['authorization', 'x-gw-repo', 'X-Dup'], set_headers: [raw('x-dup', 'new')] }));
    await r.send({ headers: { authorization: 'Bearer gwct_x', 'x-gw-repo': 'r', 'x-dup': 'old' }, body: '{}' });
    const seen = r.upstreams.vendor?.requests[0];
    expect(seen?.headers.authorization).toBeUndefined();
    expect(seen?.headers['x-gw-repo']).toBeUndefined();
    expect(seen?.headers['x-dup']).toBe('new');
  });

  it('ignores changes to restricted headers by default and counts them', async () => {
    const r = await rig(
      mutateRequestHeaders({
        set_headers: [raw(':method', 'DELETE'), raw(':authority', 'evil.example'), raw('host', 'evil.example'), raw(':scheme', 'https'), raw('x-envoy-original-path', '/x'), raw('x-allowed', 'ok')],
        remove_headers: [':path', 'host'],
      }),
    );
    const res = await r.send({ body: '{}' });
    expect(res.status).toBe(200);
    const seen = r.upstreams.vendor?.requests[0];
    expect(seen?.method).toBe('POST');
    expect(seen?.url).toBe('/v1/messages');
    expect(seen?.headers['x-envoy-original-path']).toBeUndefined();
    expect(seen?.headers['x-allowed']).toBe('ok');
    expect(r.harness.stats.rejected_header_mutations).toBe(7);
  });

  it('lets :path change, and appending to a pseudo-header is refused', async () => {
    const r = await rig(
      mutateRequestHeaders({
        set_headers: [raw(':path', '/v1/messages?beta=true'), { ...raw(':path', '/other'), append: { value: true } }],
      }),
    );
    await r.send({ body: '{}' });
    expect(r.upstreams.vendor?.requests[0]?.url).toBe('/v1/messages?beta=true');
    expect(r.harness.stats.rejected_header_mutations).toBe(1);
  });

  it('with disallow_is_error a refused change is a 500', async () => {
    const r = await rig(mutateRequestHeaders({ set_headers: [raw('host', 'evil.example')] }), {
      mutationRules: { disallowIsError: true },
    });
    const res = await r.send({ body: '{}' });
    expect(res.status).toBe(500);
    expect(r.upstreams.vendor?.requests).toHaveLength(0);
  });

  it('allow_all_routing permits :method and host changes', async () => {
    const r = await rig(mutateRequestHeaders({ set_headers: [raw(':method', 'PUT')] }), {
      mutationRules: { allowAllRouting: true },
    });
    await r.send({ body: '{}' });
    expect(r.upstreams.vendor?.requests[0]?.method).toBe('PUT');
  });

  it('an invalid character in a value is a 500', async () => {
    const r = await rig(mutateRequestHeaders({ set_headers: [raw('x-bad', 'a\r\nx-injected: 1')] }));
    const res = await r.send({ body: '{}' });
    expect(res.status).toBe(500);
    expect(r.upstreams.vendor?.requests).toHaveLength(0);
  });

  it('applies response header mutations from the response_headers answer', async () => {
    const r = await rig((m, call) => {
      if (m.request === 'response_headers') {
        expect(headerValues(m)).toContainEqual([':status', '200']);
        call.send({
          response_headers: {
            response: { header_mutation: { set_headers: [raw('x-gw-source', 'upstream')], remove_headers: ['content-type'] } },
          },
        });
      } else call.send(pass(m));
    });
    const res = await r.send({ body: '{}' });
    expect(res.status).toBe(200);
    expect(res.headers['x-gw-source']).toBe('upstream');
    expect(res.headers['content-type']).toBeUndefined();
    expect(JSON.parse(res.body.toString()).upstream).toBe('vendor');
  });

  it('a processor may change :status on the response', async () => {
    const r = await rig((m, call) => call.send(m.request === 'response_headers' ? { response_headers: { response: { header_mutation: { set_headers: [raw(':status', '203')] } } } } : pass(m)));
    expect((await r.send({ body: '{}' })).status).toBe(203);
  });
});
