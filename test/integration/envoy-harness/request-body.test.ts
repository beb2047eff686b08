/**
 * BUFFERED request bodies and Envoy's content-length check on a mutated
 * body (reference §2.2).
 */
import { describe, expect, it } from 'vitest';
import type { CommonResponse, ProcessingRequest } from '../../../src/extproc/proto.js';
import { pass, raw, useRig, type ProcessorCall } from './fixtures.js';

const rig = useRig();

const NEW_BODY = Buffer.from('{"model":"claude-sonnet-4-5","max_tokens":5}');

const answerBody =
  (common: CommonResponse) =>
  (message: ProcessingRequest, call: ProcessorCall): void => {
    call.send(message.request === 'request_body' ? { request_body: { response: common } } : pass(message));
  };

describe('BUFFERED request body', () => {
  it('sends the whole body once, with end_of_stream, however the client wrote it', async () => {
    const r = await rig((m, call) => call.send(pass(m)));
    const pieces = ['{"model":', '"claude-sonnet-4-5",', '"max_tokens":5}'];
    expect((await r.send({ body: pieces })).status).toBe(200);
    const bodies = r.processor.calls[0]?.received.filter((m) => m.request === 'request_body') ?? [];
    expect(bodies).toHaveLength(1);
    expect(bodies[0]?.request_body?.body?.toString()).toBe(pieces.join(''));
    expect(bodies[0]?.request_body?.end_of_stream).toBe(true);
    expect(r.upstreams.vendor?.requests[0]?.body.toString()).toBe(pieces.join(''));
  });

  it('sends no body message for a request without a body, and marks the headers end_of_stream', async () => {
    const r = await rig((m, call) => call.send(pass(m)));
    expect((await r.send({ method: 'GET', path: '/v1/models' })).status).toBe(200);
    const kinds = r.processor.calls[0]?.received.map((m) => m.request);
    expect(kinds).toEqual(['request_headers', 'response_headers']);
    expect(r.processor.calls[0]?.received[0]?.request_headers?.end_of_stream).toBe(true);
  });

  it('forwards a mutated body when content-length is set to its length in the same answer', async () => {
    const r = await rig(
      answerBody({
        header_mutation: { set_headers: [raw('content-length', String(NEW_BODY.length))] },
        body_mutation: { body: NEW_BODY },
      }),
    );
    const res = await r.send({ body: '{"model":"claude-sonnet-4.5","max_tokens":5,"x":1}' });
    expect(res.status).toBe(200);
    const seen = r.upstreams.vendor?.requests[0];
    expect(seen?.body).toEqual(NEW_BODY);
    expect(seen?.headers['content-length']).toBe(String(NEW_BODY.length));
  });

  it('rejects a mutated body whose length differs from content-length: 500, no upstream call', async () => {
    const r = await rig(answerBody({ body_mutation: { body: NEW_BODY } }));
    const res = await r.send({ body: '{"model":"x","max_tokens":5}' });
    expect(res.status).toBe(500);
    expect(r.upstreams.vendor?.requests).toHaveLength(0);
    await r.harness.idle();
    expect(r.harness.accessLog[0]?.responseCodeDetails).toContain('mismatch_between_content_length');
  });

  it('accepts a mutated body when content-length is removed in the same answer', async () => {
    const r = await rig(answerBody({ header_mutation: { remove_headers: ['content-length'] }, body_mutation: { body: NEW_BODY } }));
    expect((await r.send({ body: '{"model":"x","max_tokens":5}' })).status).toBe(200);
    expect(r.upstreams.vendor?.requests[0]?.body).toEqual(NEW_BODY);
  });

  it('clear_body empties the body (content-length must then be 0)', async () => {
    const r = await rig(answerBody({ header_mutation: { set_headers: [raw('content-length', '0')] }, body_mutation: { clear_body: true } }));
    expect((await r.send({ body: 'something' })).status).toBe(200);
    expect(r.upstreams.vendor?.requests[0]?.body).toHaveLength(0);
  });

  it('a header mutation in the body answer still applies, because headers are held', async () => {
    const r = await rig(answerBody({ header_mutation: { set_headers: [raw('x-api-key', 'sk-late')] } }));
    await r.send({ body: '{}' });
    expect(r.upstreams.vendor?.requests[0]?.headers['x-api-key']).toBe('sk-late');
  });

  it('CONTINUE_AND_REPLACE at request headers replaces the body without a body message', async () => {
    const r = await rig((m, call) => call.send(m.request === 'request_headers' ? { request_headers: { response: { status: 'CONTINUE_AND_REPLACE', body_mutation: { body: NEW_BODY } } } } : pass(m)));
    expect((await r.send({ body: '{"original":true}' })).status).toBe(200);
    expect(r.processor.calls[0]?.received.map((m) => m.request)).toEqual(['request_headers', 'response_headers']);
    expect(r.upstreams.vendor?.requests[0]?.body).toEqual(NEW_BODY);
  });

  it('answers 413 when the body exceeds the buffer limit, without asking the processor', async () => {
    const r = await rig((m, call) => call.send(pass(m)), { bufferLimitBytes: 16 });
    const res = await r.send({ body: 'x'.repeat(64) });
    expect(res.status).toBe(413);
    expect(r.processor.calls[0]?.received.map((m) => m.request)).toEqual(['request_headers']);
    expect(r.upstreams.vendor?.requests).toHaveLength(0);
  });

  it('with request body mode NONE the body goes upstream untouched and unseen', async () => {
    const r = await rig((m, call) => call.send(pass(m)), { processingMode: { request_body_mode: 'NONE' } });
    expect((await r.send({ body: 'abc' })).status).toBe(200);
    expect(r.processor.calls[0]?.received.map((m) => m.request)).toEqual(['request_headers', 'response_headers']);
    expect(r.upstreams.vendor?.requests[0]?.body.toString()).toBe('abc');
  });
});
