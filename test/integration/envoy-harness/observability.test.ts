/**
 * The observing ext_proc filter (observability_mode; reference §2.11 and
 * envoy source/extensions/filters/http/ext_proc/ext_proc.cc): a second
 * filter after the deciding one that sends and never waits, whose answers
 * count for nothing, which stops sending once the processor closes its
 * stream, and whose close is deferred after the request ends.
 */
import type { ServerResponse } from 'node:http';
import * as grpc from '@grpc/grpc-js';
import { describe, expect, it, vi } from 'vitest';
import type { ProcessingRequest } from '../../../src/extproc/proto.js';
import { GATEWAY_PROCESSING_MODE } from '../../support/envoy-harness/processing-mode.js';
import type { ObserverFilterOptions } from '../../support/envoy-harness/options.js';
import { pass, useRig, type ProcessorCall, type Script } from './fixtures.js';

const rig = useRig();

const EVENTS = ['event: a\ndata: 1\n\n', 'event: b\ndata: 2\n\n', 'event: c\ndata: 3\n\n'];

const sse = async (_req: unknown, res: ServerResponse): Promise<void> => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const e of EVENTS) {
    res.write(e);
    await new Promise((r) => setTimeout(r, 5));
  }
  res.end();
};

const json = (_req: unknown, res: ServerResponse): void => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': 2 });
  res.end('{}');
};

const observer = (over: Partial<ObserverFilterOptions> = {}): ObserverFilterOptions => ({
  processingMode: { ...GATEWAY_PROCESSING_MODE, request_body_mode: 'NONE', response_body_mode: 'STREAMED', request_trailer_mode: 'SKIP' },
  metadata: {},
  failureModeAllow: true,
  deferredCloseTimeoutMs: 5000,
  ...over,
});

const observing = (call: ProcessorCall | undefined): boolean => call?.received[0]?.observability_mode === true;

/** Answers the deciding stream as passAll does; on the observing one, runs `onObserved`. */
function deciding(onObserved: (message: ProcessingRequest, call: ProcessorCall) => void = () => undefined): Script {
  return (message, call) => {
    if (message.observability_mode) onObserved(message, call);
    else call.send(pass(message));
  };
}

describe('observing ext_proc filter (observability_mode)', () => {
  it('sends request headers after the deciding answer, then response headers and every chunk, all marked observability_mode', async () => {
    const r = await rig(
      (message, call) => {
        if (message.observability_mode) return;
        // The deciding filter's answer adds a header: the observer must see it.
        if (message.request === 'request_body') call.send({ request_body: { response: { header_mutation: { set_headers: [{ header: { key: 'x-gw-observe-id', raw_value: Buffer.from('r1') } }] } } } });
        else call.send(pass(message));
      },
      { observer: observer({ allowedHeaders: ['x-gw-observe-id'] }) },
      { vendor: sse },
    );
    const res = await r.send({ body: '{}', headers: { authorization: 'Bearer secret' } });
    expect(res.body.toString()).toBe(EVENTS.join(''));
    await r.harness.idle();
    const observed = r.processor.calls.find(observing);
    // Sent without waiting: the last may still be in flight when the client has its response.
    await vi.waitFor(() => expect(observed?.received.at(-1)?.response_body?.end_of_stream).toBe(true));
    const sent = observed?.received ?? [];
    expect(sent.every((m) => m.observability_mode === true)).toBe(true);
    // The upstream's writes may reach the filter as fewer data events; the end is an empty chunk.
    expect(sent.slice(0, 2).map((m) => m.request)).toEqual(['request_headers', 'response_headers']);
    expect(sent.slice(2).every((m) => m.request === 'response_body')).toBe(true);
    expect(sent.length).toBeGreaterThanOrEqual(4);
    // forward_rules: only the allowed header, never the credential.
    expect(sent[0]?.request_headers?.headers?.headers?.map((h) => [h.key, Buffer.from(h.raw_value ?? '').toString()])).toEqual([['x-gw-observe-id', 'r1']]);
    expect(Buffer.concat(sent.slice(2).map((m) => Buffer.from(m.response_body?.body ?? ''))).toString()).toBe(EVENTS.join(''));
    expect(sent.at(-1)?.response_body?.end_of_stream).toBe(true);
    expect(r.harness.stats.spurious_msgs_received).toBe(0);
  });

  it('never waits: chunks reach the client though the processor answers nothing on the observing stream', async () => {
    const r = await rig(deciding(), { observer: observer() }, { vendor: sse });
    const res = await r.send({ body: '{}' });
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe(EVENTS.join(''));
    expect(r.harness.stats.message_timeouts).toBe(0);
  });

  it('ignores every answer on the observing stream, an immediate_response included', async () => {
    const r = await rig(
      deciding((message, call) => {
        call.send({ immediate_response: { status: { code: 403 }, body: Buffer.from('no') } });
        call.send(pass(message));
      }),
      { observer: observer() },
      { vendor: sse },
    );
    const res = await r.send({ body: '{}' });
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe(EVENTS.join(''));
    expect(r.harness.stats.immediate_responses).toBe(0);
  });

  it('stops sending once the processor closes the observing stream with OK (onGrpcClose)', async () => {
    const r = await rig(
      deciding((message, call) => {
        if (message.request === 'request_headers') call.finish();
      }),
      { observer: observer() },
      { vendor: sse },
    );
    const res = await r.send({ body: '{}' });
    expect(res.body.toString()).toBe(EVENTS.join(''));
    await r.harness.idle();
    // Whatever was already on the wire may still arrive; nothing is sent once the close is seen.
    const observed = r.processor.calls.find(observing);
    expect(observed?.received.filter((m) => m.request === 'response_body')).toHaveLength(0);
  });

  it('a gRPC error on the observing stream is a 500 unless failure_mode_allow (onGrpcError)', async () => {
    const failing = deciding((message, call) => {
      if (message.request === 'request_headers') call.fail(grpc.status.INTERNAL, 'observer broke');
    });
    const strict = await rig(failing, { observer: observer({ failureModeAllow: false }) }, { vendor: json });
    const refused = await strict.send({ body: '{}' });
    expect(refused.status).toBe(500);
    expect(strict.harness.accessLog[0]?.responseCodeDetails).toMatch(/^ext_proc_error_gRPC_error_13/);

    const lenient = await rig(failing, { observer: observer({ failureModeAllow: true }) }, { vendor: json });
    const served = await lenient.send({ body: '{}' });
    expect(served.status).toBe(200);
    expect(lenient.harness.stats.failure_mode_allowed).toBe(1);
  });

  it('keeps content-length with response headers SEND; removes it with SKIP and a STREAMED body (shouldRemoveContentLength)', async () => {
    const send = await rig(deciding(), { observer: observer() }, { vendor: json });
    expect((await send.send({ body: '{}' })).headers['content-length']).toBe('2');
    const skip = await rig(deciding(), { observer: observer({ processingMode: { ...observer().processingMode, response_header_mode: 'SKIP' } }) }, { vendor: json });
    expect((await skip.send({ body: '{}' })).headers['content-length']).toBeUndefined();
  });

  it('closes the observing stream only deferred_close_timeout after the request ends', async () => {
    const r = await rig(deciding(), { observer: observer({ deferredCloseTimeoutMs: 3000 }) }, { vendor: json });
    await r.send({ body: '{}' });
    await r.harness.idle();
    const observed = r.processor.calls.find(observing);
    const decidingCall = r.processor.calls.find((c) => !observing(c));
    // The deciding stream is closed with the request; the observing one is still open, then closed.
    await decidingCall?.over;
    expect(observed?.cancelled).toBe(false);
    await observed?.over;
    expect(observed?.cancelled).toBe(true);
  });
});
