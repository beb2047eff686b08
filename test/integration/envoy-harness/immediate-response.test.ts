/**
 * immediate_response at each phase (reference §2.9): a local reply while
 * the response has not started, a reset once it has.
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { ImmediateResponse, ProcessingRequest, ProcessingRequestKind } from '../../../src/extproc/proto.js';
import { pass, raw, useRig, type ProcessorCall } from './fixtures.js';

const rig = useRig();

const FORBIDDEN: ImmediateResponse = {
  status: { code: 'Forbidden' },
  headers: { set_headers: [raw('content-type', 'application/json'), raw('x-gw-fault', 'model_not_allowed')] },
  body: Buffer.from('{"type":"error"}'),
  details: 'gw model not allowed',
};

const replyAt =
  (at: ProcessingRequestKind, reply: ImmediateResponse) =>
  (message: ProcessingRequest, call: ProcessorCall): void => {
    call.send(message.request === at ? { immediate_response: reply } : pass(message));
  };

const sse = (res: ServerResponse): void => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write('event: ping\ndata: {}\n\n');
  setTimeout(() => res.end('event: message_stop\ndata: {}\n\n'), 50);
};

describe('immediate_response', () => {
  it('at request headers: local reply, upstream never called, body never sent to the processor', async () => {
    const r = await rig(replyAt('request_headers', FORBIDDEN));
    const res = await r.send({ body: ['{"model":', '"x"}'] });
    expect(res.status).toBe(403);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['x-gw-fault']).toBe('model_not_allowed');
    expect(res.body.toString()).toBe('{"type":"error"}');
    expect(r.upstreams.vendor?.requests).toHaveLength(0);
    await r.harness.idle();
    expect(r.processor.calls[0]?.received.map((m) => m.request)).toEqual(['request_headers']);
    expect(r.harness.accessLog[0]?.responseCodeDetails).toBe('gw_model_not_allowed');
    expect(r.harness.stats.immediate_responses).toBe(1);
  });

  it('at request body: local reply, upstream never called', async () => {
    const r = await rig(replyAt('request_body', { status: { code: 'BadRequest' }, body: Buffer.from('bad json') }));
    const res = await r.send({ body: '{not json' });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('text/plain');
    expect(res.body.toString()).toBe('bad json');
    expect(r.upstreams.vendor?.requests).toHaveLength(0);
  });

  it('at response headers: replaces the upstream response', async () => {
    const r = await rig(replyAt('response_headers', { status: { code: 'ServiceUnavailable' } }));
    const res = await r.send({ body: '{}' });
    expect(res.status).toBe(503);
    expect(res.body).toHaveLength(0);
    expect(r.upstreams.vendor?.requests).toHaveLength(1);
  });

  it('at a BUFFERED response body: still a local reply, headers were held', async () => {
    const r = await rig(replyAt('response_body', { status: { code: 'BadGateway' }, body: Buffer.from('no') }), {
      processingMode: { response_body_mode: 'BUFFERED' },
    });
    const res = await r.send({ body: '{}' });
    expect(res.status).toBe(502);
    expect(res.body.toString()).toBe('no');
  });

  it('at a STREAMED response body after headers went out: the client stream is reset', async () => {
    const r = await rig(replyAt('response_body', { status: { code: 'InternalServerError' } }), { processingMode: { response_body_mode: 'STREAMED' } }, { vendor: (_req, res) => sse(res) });
    const res = await r.send({ body: '{}' });
    expect(res.reset).toBe(true);
    await r.harness.idle();
    expect(r.harness.accessLog[0]?.reset).toBe(true);
  });

  it('keeps a status outside Envoy enum (529) and turns a status below 200 into 200', async () => {
    const r1 = await rig(replyAt('request_headers', { status: { code: 529 } }));
    expect((await r1.send({ body: '{}' })).status).toBe(529);
    const r2 = await rig(replyAt('request_headers', { status: { code: 'Continue' } }));
    expect((await r2.send({ body: '{}' })).status).toBe(200);
  });

  it('applies dynamic_metadata sent with it, only for receiving namespaces', async () => {
    const r = await rig(
      (_m, call) =>
        call.send({
          immediate_response: { status: { code: 'TooManyRequests' } },
          dynamic_metadata: {
            fields: {
              'gw.usage': { structValue: { fields: { rejected: { boolValue: true } } } },
              'other.ns': { structValue: { fields: { x: { numberValue: 1 } } } },
            },
          },
        }),
      { receivingNamespaces: ['gw.usage'] },
    );
    expect((await r.send({ body: '{}' })).status).toBe(429);
    await r.harness.idle();
    expect(r.harness.accessLog[0]?.dynamicMetadata).toEqual({
      'gw.usage': { fields: { rejected: { boolValue: true, kind: 'boolValue' } } },
    });
  });
});
