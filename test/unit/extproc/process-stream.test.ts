import { EventEmitter } from 'node:events';
import * as grpc from '@grpc/grpc-js';
import { describe, expect, it, vi } from 'vitest';
import { ProcessStream } from '../../../src/extproc/process-stream.js';
import { ObserverStream, type ObserveRegistry } from '../../../src/extproc/observe-stream.js';
import { EXTPROC_ROLE_METADATA, EXTPROC_ROLES, OBSERVE_ID_HEADER } from '../../../src/envoy/observe.js';
import {
  decodeProcessingRequest,
  decodeProcessingResponse,
  encodeProcessingRequest,
  encodeProcessingResponse,
  type HeaderMap,
  type ProcessingRequest,
  type ProcessingResponse,
  type ProcessServerStream,
} from '../../../src/extproc/proto.js';
import type { Pipeline } from '../../../src/pipeline/pipeline.js';
import type { EndOutcome } from '../../../src/pipeline/types.js';
import { credential } from '../support/records.js';
import { authed, harness, type Harness } from '../pipeline/support.js';

/**
 * Every branch of the ext_proc stream processor, driven without a socket:
 * a fake server call (an EventEmitter with grpc-js's write/end/destroy
 * surface) carries messages encoded and decoded by the real protobuf codec
 * into the real pipeline over in-memory state.
 */

class FakeCall extends EventEmitter {
  readonly metadata = new grpc.Metadata();
  readonly written: ProcessingResponse[] = [];
  destroyed = false;
  writable = true;
  ended = false;
  destroyError: Error | undefined;
  status: { code: number; details: string } | null = null;

  constructor() {
    super();
    // grpc-js turns an emitted 'error' into the call's status; the fake records it.
    this.on('error', (error: { code?: number; details?: string }) => {
      if (error.code !== undefined) this.status = { code: error.code, details: error.details ?? '' };
    });
  }

  write(response: ProcessingResponse): boolean {
    // Through the real encoder and back: what Envoy would receive.
    this.written.push(decodeProcessingResponse(encodeProcessingResponse(response)));
    return true;
  }
  end(): void {
    this.ended = true;
  }
  destroy(error?: Error): void {
    this.destroyed = true;
    this.destroyError = error;
  }
  /** Envoy sends a message (as the wire decoder hands it to the processor). */
  send(message: ProcessingRequest): void {
    this.emit('data', decodeProcessingRequest(encodeProcessingRequest(message)));
  }
  kinds(): string[] {
    return this.written.map((r) => r.response ?? '?');
  }
}

function protoHeaders(pairs: Record<string, string>): HeaderMap {
  return { headers: Object.entries(pairs).map(([key, value]) => ({ key, raw_value: Buffer.from(value, 'latin1') })) };
}

function requestHeaders(pairs: Record<string, string>, endOfStream = false, path = '/v1/messages', method = 'POST'): ProcessingRequest {
  return { request_headers: { headers: protoHeaders({ ':method': method, ':path': path, ...pairs }), end_of_stream: endOfStream } };
}

const BODY = Buffer.from(JSON.stringify({ model: 'claude-haiku-4-5-20251001', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }));
const AUTHED = requestHeaders(authed() as Record<string, string>);

interface Open {
  readonly call: FakeCall;
  readonly stream: ProcessStream;
  readonly h: Harness;
  readonly done: ProcessStream[];
  readonly outcomes: EndOutcome[];
  /** What the stream logged as failures (message and error text). */
  readonly failures: string[];
}

/** A stream over the real pipeline; `wrap` may replace pipeline methods (to fail, or to watch them). */
async function open(options: Parameters<typeof harness>[0] = {}, wrap?: (pipeline: Pipeline) => Pipeline, registry?: ObserveRegistry): Promise<Open> {
  const h = await harness({ credentials: [credential({ name: 'key', baseUrl: 'https://llm.example/base' })], ...options });
  const outcomes: EndOutcome[] = [];
  const real = h.pipeline;
  const watched = new Proxy(real, {
    get(target, property, receiver) {
      if (property === 'finish') {
        return (ctx: Parameters<Pipeline['finish']>[0], outcome: EndOutcome) => {
          outcomes.push(outcome);
          return target.finish(ctx, outcome);
        };
      }
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  const call = new FakeCall();
  if (registry) call.metadata.set(EXTPROC_ROLE_METADATA, EXTPROC_ROLES.decideObserved);
  const done: ProcessStream[] = [];
  const failures: string[] = [];
  const stream = new ProcessStream(
    call as unknown as ProcessServerStream,
    wrap ? wrap(watched) : watched,
    (s) => done.push(s),
    (message, error) => failures.push(`${message}: ${error instanceof Error ? error.message : String(error)}`),
    registry ?? null,
  );
  return { call, stream, h, done, outcomes, failures };
}

/** Waits until `n` answers were written. */
async function answers(call: FakeCall, n: number): Promise<ProcessingResponse[]> {
  await vi.waitFor(() => expect(call.written.length).toBeGreaterThanOrEqual(n));
  return call.written;
}

function setHeaders(response: ProcessingResponse | undefined, phase: 'request_headers' | 'request_body' | 'response_headers'): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of response?.[phase]?.response?.header_mutation?.set_headers ?? []) out[h.header?.key ?? ''] = Buffer.from(h.header?.raw_value ?? '').toString('latin1');
  return out;
}

describe('request headers', () => {
  it('continues an authenticated request to its body', async () => {
    const { call } = await open();
    call.send(AUTHED);
    const [first] = await answers(call, 1);
    expect(first?.response).toBe('request_headers');
    expect(first?.request_headers?.response?.header_mutation).toBeUndefined();
  });

  it('answers a refused request with an immediate response carrying the fault, and finishes the stream', async () => {
    const { call, done, outcomes, stream } = await open();
    call.send(requestHeaders({ 'content-type': 'application/json' }));
    const [first] = await answers(call, 1);
    const immediate = first?.immediate_response;
    expect(immediate?.status?.code).toBe('Unauthorized');
    expect(immediate?.details).toBe('gw_no_session');
    const body = Buffer.from(immediate?.body ?? '').toString();
    expect(JSON.parse(body)).toMatchObject({ fault: 'no_session' });
    const headers = Object.fromEntries((immediate?.headers?.set_headers ?? []).map((h) => [h.header?.key, Buffer.from(h.header?.raw_value ?? '').toString()]));
    expect(headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(headers['x-gw-fault']).toBe('no_session');
    await vi.waitFor(() => expect(outcomes).toEqual(['complete']));
    expect(done).toEqual([stream]);
  });

  it('names a local answer without a fault gw_local_response (HEAD /)', async () => {
    const { call } = await open();
    call.send(requestHeaders({}, true, '/', 'HEAD'));
    const [first] = await answers(call, 1);
    expect(first?.immediate_response?.details).toBe('gw_local_response');
    expect(first?.immediate_response?.status?.code).toBe('OK');
  });

  it('decides a request without a body in the headers answer (end_of_stream on the headers)', async () => {
    const { call } = await open();
    call.send(requestHeaders(authed() as Record<string, string>, true));
    const [first] = await answers(call, 1);
    // An empty body is not JSON: refused on the headers message itself.
    expect(first?.immediate_response?.details).toBe('gw_invalid_request');
  });

  it('continues the trace Envoy put in the call metadata rather than the caller header', async () => {
    const tracer = { startRequest: vi.fn(() => null) };
    const { call } = await open({ tracer });
    call.metadata.set('traceparent', '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01');
    call.metadata.set('tracestate', 'envoy=1');
    call.send(AUTHED);
    await answers(call, 1);
    expect(tracer.startRequest).toHaveBeenCalledWith(expect.objectContaining({ method: 'POST', path: '/v1/messages' }), 'req_1', {
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      tracestate: 'envoy=1',
    });
  });

  it('passes repeated header names and the field count to the pipeline (a duplicated authorization is refused)', async () => {
    const { call } = await open();
    call.send({
      request_headers: {
        headers: { headers: [':method', ':path', 'authorization', 'authorization'].map((key, i) => ({ key, raw_value: Buffer.from(['POST', '/v1/messages', 'Bearer a', 'Bearer b'][i] ?? '') })) },
      },
    });
    const [first] = await answers(call, 1);
    expect(first?.immediate_response?.details).toBe('gw_invalid_request');
  });
});

describe('request body', () => {
  it('forwards a buffered body: routing headers, path, credential, route cache cleared, body untouched', async () => {
    const { call } = await open();
    call.send(AUTHED);
    call.send({ request_body: { body: BODY, end_of_stream: true } });
    const [, second] = await answers(call, 2);
    expect(second?.response).toBe('request_body');
    const common = second?.request_body?.response;
    expect(common?.clear_route_cache).toBe(true);
    expect(common?.body_mutation).toBeUndefined();
    const set = setHeaders(second, 'request_body');
    expect(set['x-gw-upstream']).toBe('gw_dfp_https');
    expect(set['x-gw-upstream-host']).toBe('llm.example');
    expect(set[':path']).toBe('/base/v1/messages');
    expect(set['x-api-key']).toBe('sk-key');
    expect(set['content-length']).toBe(String(BODY.length));
    expect(common?.header_mutation?.remove_headers).toContain('authorization');
  });

  it('sends a body mutation only when the body changed (model spelling spliced)', async () => {
    const { call } = await open();
    call.send(AUTHED);
    call.send({ request_body: { body: Buffer.from(JSON.stringify({ model: 'Claude-Haiku-4.5', max_tokens: 5, messages: [] })), end_of_stream: true } });
    const [, second] = await answers(call, 2);
    const mutated = JSON.parse(Buffer.from(second?.request_body?.response?.body_mutation?.body ?? '').toString()) as { model: string };
    expect(mutated.model).not.toBe('Claude-Haiku-4.5');
  });

  it('in BUFFERED mode decides on the one body message even when trailers follow (end_of_stream false), and answers the trailers', async () => {
    const { call } = await open();
    call.send(AUTHED);
    call.send({ request_body: { body: BODY, end_of_stream: false } });
    call.send({ request_trailers: {} });
    const written = await answers(call, 3);
    expect(written.map((r) => r.response)).toEqual(['request_headers', 'request_body', 'request_trailers']);
    expect(setHeaders(written[1], 'request_body')[':path']).toBe('/v1/messages'.replace('/v1', '/base/v1'));
  });

  it('removes every request trailer the caller sent (no caller field reaches the provider as a trailer)', async () => {
    const { call } = await open();
    call.send(AUTHED);
    call.send({ request_body: { body: BODY, end_of_stream: false } });
    const trailers = [
      { key: 'X-Client-Digest', raw_value: Buffer.from('sha256=0') },
      { key: 'authorization', raw_value: Buffer.from('Bearer sk-caller') },
      { key: 'x-client-digest', raw_value: Buffer.from('again') },
    ];
    call.send({ request_trailers: { trailers: { headers: trailers } } });
    const written = await answers(call, 3);
    expect(written[2]?.request_trailers?.header_mutation?.remove_headers?.sort()).toEqual(['authorization', 'x-client-digest']);
  });

  it('in STREAMED mode (from protocol_config) continues each chunk and decides on the concatenated body', async () => {
    const { call } = await open();
    call.send({ ...AUTHED, protocol_config: { request_body_mode: 'STREAMED' } });
    call.send({ request_body: { body: BODY.subarray(0, 10), end_of_stream: false } });
    call.send({ request_body: { body: BODY.subarray(10), end_of_stream: true } });
    const written = await answers(call, 3);
    expect(written.map((r) => r.response)).toEqual(['request_headers', 'request_body', 'request_body']);
    expect(written[1]?.request_body?.response?.header_mutation).toBeUndefined();
    expect(setHeaders(written[2], 'request_body')['content-length']).toBe(String(BODY.length));
  });

  it('answers a refused body with an immediate response, ends the stream with OK and reads nothing after it', async () => {
    const { call, outcomes } = await open();
    call.send(AUTHED);
    call.send({ request_body: { body: Buffer.from('not json'), end_of_stream: true } });
    const written = await answers(call, 2);
    expect(written[1]?.immediate_response?.details).toBe('gw_invalid_request');
    await vi.waitFor(() => expect(outcomes).toEqual(['complete']));
    expect(call.ended).toBe(true);
    call.send({ response_headers: { headers: protoHeaders({ ':status': '200' }) } });
    expect(call.written).toHaveLength(2);
    expect(call.status).toBeNull();
    expect(outcomes).toEqual(['complete']);
  });

  it('keeps answers in order: a message queued behind a refused phase is not answered once the stream has ended', async () => {
    const { call } = await open();
    call.send(requestHeaders({}));
    // Sent before the headers answer is out: it queues, then finds the stream ended.
    call.send({ request_body: { body: BODY, end_of_stream: true } });
    await vi.waitFor(() => expect(call.ended).toBe(true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(call.kinds()).toEqual(['immediate_response']);
    expect(call.status).toBeNull();
  });
});

describe('response', () => {
  async function forwarded(options: Parameters<typeof open>[0] = {}): Promise<Open> {
    const opened = await open(options);
    opened.call.send(AUTHED);
    opened.call.send({ request_body: { body: BODY, end_of_stream: true } });
    await answers(opened.call, 2);
    return opened;
  }

  it('relays an event stream chunk by chunk: content-length dropped, STREAMED override, tags added', async () => {
    const { call, h, outcomes } = await forwarded();
    call.send({ response_headers: { headers: protoHeaders({ ':status': '200', 'content-type': 'text/event-stream', 'content-length': '99', 'x-gw-fault': 'forged' }) } });
    const written = await answers(call, 3);
    const third = written[2];
    expect(third?.mode_override?.response_body_mode).toBe('STREAMED');
    expect(third?.response_headers?.response?.header_mutation?.remove_headers).toEqual(['x-gw-fault', 'content-length']);
    expect(setHeaders(third, 'response_headers')['x-gw-source']).toBe('upstream');
    const start = { type: 'message_start', message: { model: 'm', usage: { input_tokens: 3, output_tokens: 1 } } };
    call.send({ response_body: { body: Buffer.from(`event: message_start\ndata: ${JSON.stringify(start)}\n\n`), end_of_stream: false } });
    call.send({ response_body: { body: Buffer.alloc(0), end_of_stream: true } });
    const all = await answers(call, 5);
    expect(all.slice(3).map((r) => r.response)).toEqual(['response_body', 'response_body']);
    await vi.waitFor(() => expect(outcomes).toEqual(['complete']));
    await vi.waitFor(() => expect(h.events.finished).toHaveLength(1));
    expect(h.events.finished[0]?.record).toMatchObject({ input_tokens: 3, status: 200, outcome: 'complete' });
  });

  it('asks for a JSON answer whole (BUFFERED) and keeps its content-length', async () => {
    const { call } = await forwarded();
    call.send({ response_headers: { headers: protoHeaders({ ':status': '200', 'content-type': 'application/json', 'content-length': '2' }) } });
    const written = await answers(call, 3);
    expect(written[2]?.mode_override?.response_body_mode).toBe('BUFFERED');
    expect(written[2]?.response_headers?.response?.header_mutation?.remove_headers ?? []).toEqual([]);
  });

  it('answers a response body chunk at once when nothing is queued (the chunk is metered after the answer)', async () => {
    const { call } = await forwarded();
    call.send({ response_headers: { headers: protoHeaders({ ':status': '200', 'content-type': 'text/event-stream' }) } });
    await answers(call, 3);
    call.send({ response_body: { body: Buffer.from('event: ping\ndata: {}\n\n'), end_of_stream: false } });
    // Synchronously: no await between the message and its answer.
    expect(call.written.map((r) => r.response)).toEqual(['request_headers', 'request_body', 'response_headers', 'response_body']);
  });

  it('finishes on response headers with end_of_stream, without a mode override', async () => {
    const { call, outcomes } = await forwarded();
    call.send({ response_headers: { headers: protoHeaders({ ':status': '204' }), end_of_stream: true } });
    const written = await answers(call, 3);
    expect(written[2]?.mode_override).toBeUndefined();
    await vi.waitFor(() => expect(outcomes).toEqual(['complete']));
  });

  it('finishes a response that ends with trailers, and answers them', async () => {
    const { call, outcomes } = await forwarded();
    call.send({ response_headers: { headers: protoHeaders({ ':status': '200', 'content-type': 'application/json' }) } });
    call.send({ response_body: { body: Buffer.from('{}'), end_of_stream: false } });
    call.send({ response_trailers: {} });
    const written = await answers(call, 5);
    expect(written.slice(2).map((r) => r.response)).toEqual(['response_headers', 'response_body', 'response_trailers']);
    await vi.waitFor(() => expect(outcomes).toEqual(['complete']));
  });
});

describe('with the observing filter', () => {
  const START = { type: 'message_start', message: { model: 'm', usage: { input_tokens: 3, output_tokens: 1 } } };
  const startChunk = Buffer.from(`event: message_start\ndata: ${JSON.stringify(START)}\n\n`);
  const sse = { response_headers: { headers: protoHeaders({ ':status': '200', 'content-type': 'text/event-stream' }) } };

  /** A deciding stream past its request answer, and the observer Envoy opens for it (not yet sent anything). */
  async function observed(): Promise<Open & { observer: FakeCall; id: string; registry: ObserveRegistry }> {
    const registry: ObserveRegistry = new Map();
    const opened = await open({}, undefined, registry);
    opened.call.send(AUTHED);
    opened.call.send({ request_body: { body: BODY, end_of_stream: true } });
    const written = await answers(opened.call, 2);
    const id = setHeaders(written[1], 'request_body')[OBSERVE_ID_HEADER] ?? '';
    const observer = new FakeCall();
    new ObserverStream(observer as unknown as ProcessServerStream, registry, () => undefined);
    return { ...opened, observer, id, registry };
  }

  it('sets the observe header only when Envoy has the observing filter', async () => {
    const plain = await open();
    plain.call.send(AUTHED);
    plain.call.send({ request_body: { body: BODY, end_of_stream: true } });
    expect(setHeaders((await answers(plain.call, 2))[1], 'request_body')[OBSERVE_ID_HEADER]).toBeUndefined();
    const { id } = await observed();
    expect(id).toMatch(/.+/);
  });

  it('meters the chunks the observer saw before the response headers, leaves the body NONE and ends the observer', async () => {
    const { call, observer, id, outcomes, h, registry } = await observed();
    observer.send({ observability_mode: true, request_headers: { headers: protoHeaders({ [OBSERVE_ID_HEADER]: id }) } });
    // The two streams race: the whole body is here before the deciding stream's response headers.
    observer.send({ observability_mode: true, response_body: { body: startChunk } });
    observer.send({ observability_mode: true, response_body: { body: Buffer.alloc(0), end_of_stream: true } });
    expect(outcomes).toEqual([]);
    call.send(sse);
    const written = await answers(call, 3);
    expect(written[2]?.mode_override).toEqual({ response_trailer_mode: 'SKIP' });
    await vi.waitFor(() => expect(outcomes).toEqual(['complete']));
    await vi.waitFor(() => expect(h.events.finished).toHaveLength(1));
    expect(h.events.finished[0]?.record).toMatchObject({ input_tokens: 3, outcome: 'complete' });
    expect(observer.written).toEqual([]);
    expect(observer.ended).toBe(true);
    expect(registry.size).toBe(0);
  });

  it("ignores the deciding stream's close once the body is the observer's; a close of the observer without the end is a disconnect", async () => {
    const { call, observer, id, outcomes, h } = await observed();
    observer.send({ observability_mode: true, request_headers: { headers: protoHeaders({ [OBSERVE_ID_HEADER]: id }) } });
    call.send(sse);
    await answers(call, 3);
    call.emit('cancelled');
    observer.send({ observability_mode: true, response_body: { body: startChunk } });
    expect(outcomes).toEqual([]);
    observer.emit('cancelled');
    await vi.waitFor(() => expect(outcomes).toEqual(['client_disconnect']));
    await vi.waitFor(() => expect(h.events.finished).toHaveLength(1));
    expect(h.events.finished[0]?.record).toMatchObject({ input_tokens: 3, outcome: 'client_disconnect' });
  });

  it('meters a stream itself (STREAMED) when its observer has not come, and ends an observer that comes late', async () => {
    const { call, observer, id } = await observed();
    call.send(sse);
    const written = await answers(call, 3);
    expect(written[2]?.mode_override?.response_body_mode).toBe('STREAMED');
    observer.send({ observability_mode: true, request_headers: { headers: protoHeaders({ [OBSERVE_ID_HEADER]: id }) } });
    expect(observer.ended).toBe(true);
  });

  it('keeps a JSON answer BUFFERED on the deciding stream and ends the observer at the response headers', async () => {
    const { call, observer, id } = await observed();
    observer.send({ observability_mode: true, request_headers: { headers: protoHeaders({ [OBSERVE_ID_HEADER]: id }) } });
    call.send({ response_headers: { headers: protoHeaders({ ':status': '200', 'content-type': 'application/json', 'content-length': '2' }) } });
    const written = await answers(call, 3);
    expect(written[2]?.mode_override?.response_body_mode).toBe('BUFFERED');
    expect(observer.ended).toBe(true);
  });

  it('ends an observer whose id matches no request', async () => {
    const { observer } = await observed();
    observer.send({ observability_mode: true, request_headers: { headers: protoHeaders({ [OBSERVE_ID_HEADER]: 'someone-else' }) } });
    expect(observer.ended).toBe(true);
    expect(observer.written).toEqual([]);
  });
});

describe('protocol order', () => {
  it.each([
    [[{}], 'empty ProcessingRequest'],
    [[{ request_body: { body: BODY, end_of_stream: true } }], 'request_body before request_headers'],
    [[{ response_body: { body: BODY } }], 'response_body before request_headers'],
    [[AUTHED, AUTHED], 'request_headers sent twice on one stream'],
    [[requestHeaders(authed() as Record<string, string>, true), { request_body: { body: BODY, end_of_stream: true } }], 'request_body after the request ended'],
  ] as Array<[ProcessingRequest[], string]>)('ends %# with INVALID_ARGUMENT: %s', async (messages, reason) => {
    const { call } = await open();
    for (const message of messages) call.send(message);
    await vi.waitFor(() => expect(call.status).not.toBeNull());
    expect(call.status?.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(call.status?.details).toContain(reason);
  });

  it('records a stream broken before any request as a client disconnect, and one broken mid-request as a gateway error', async () => {
    const early = await open();
    early.call.send({});
    await vi.waitFor(() => expect(early.done).toHaveLength(1));
    // No request context yet: nothing to record.
    expect(early.outcomes).toEqual([]);

    const late = await open();
    late.call.send(AUTHED);
    await answers(late.call, 1);
    late.call.send(AUTHED);
    await vi.waitFor(() => expect(late.outcomes).toEqual(['gateway_error']));
  });

  it('reads nothing after the protocol error, not even a response body it would answer at once', async () => {
    const { call } = await open();
    call.send(AUTHED);
    await answers(call, 1);
    call.send(AUTHED);
    await vi.waitFor(() => expect(call.status?.code).toBe(grpc.status.INVALID_ARGUMENT));
    call.send({ response_body: { body: BODY, end_of_stream: true } });
    call.send(AUTHED);
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(call.written).toHaveLength(1);
  });
});

describe('endings', () => {
  it('records a stream that ends before the response as a client disconnect and half-closes it', async () => {
    const { call, outcomes, done, stream } = await open();
    call.send(AUTHED);
    await answers(call, 1);
    call.emit('end');
    await vi.waitFor(() => expect(outcomes).toEqual(['client_disconnect']));
    expect(call.ended).toBe(true);
    expect(done).toEqual([stream]);
  });

  it.each(['cancelled', 'error'])('records a %s call as a client disconnect, once', async (event) => {
    const { call, outcomes, h } = await open();
    call.send(AUTHED);
    await answers(call, 1);
    call.emit(event, new Error('gone'));
    call.emit(event, new Error('gone again'));
    await vi.waitFor(() => expect(h.events.finished).toHaveLength(1));
    expect(outcomes).toEqual(['client_disconnect']);
  });

  it('records a server shutdown as shutdown and frees the slot', async () => {
    const { call, stream, outcomes, h } = await open({ settings: { callerCap: 1, queueWaitMs: 0 } });
    call.send(AUTHED);
    await answers(call, 1);
    stream.abort();
    await vi.waitFor(() => expect(h.events.finished).toHaveLength(1));
    expect(outcomes).toEqual(['shutdown']);
    const next = await open();
    next.call.send(AUTHED);
    expect((await answers(next.call, 1))[0]?.response).toBe('request_headers');
  });

  it('writes nothing to a call that is no longer writable', async () => {
    const { call, h } = await open();
    call.writable = false;
    call.send(AUTHED);
    await vi.waitFor(() => expect(h.calls).toContain('acquireCallerSlot'));
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(call.written).toEqual([]);
  });

  it('destroys the call, records a gateway error and logs the failure when a phase throws', async () => {
    const { call, outcomes, failures } = await open(
      {},
      (pipeline) =>
        new Proxy(pipeline, {
          get(target, property, receiver) {
            if (property === 'onResponseHeaders')
              return () => {
                throw new Error('defect');
              };
            return Reflect.get(target, property, receiver) as unknown;
          },
        }),
    );
    call.send(AUTHED);
    call.send({ request_body: { body: BODY, end_of_stream: true } });
    await answers(call, 2);
    call.send({ response_headers: { headers: protoHeaders({ ':status': '200' }) } });
    await vi.waitFor(() => expect(call.destroyed).toBe(true));
    expect(call.destroyError?.message).toBe('processor failed');
    expect(outcomes).toEqual(['gateway_error']);
    expect(failures).toEqual(['ext_proc stream failed; the stream is reset: defect']);
  });

  it('logs a finish that fails (lease, slot or usage record) instead of dropping it', async () => {
    const { call, failures } = await open(
      {},
      (pipeline) =>
        new Proxy(pipeline, {
          get(target, property, receiver) {
            if (property === 'finish') return () => Promise.reject(new Error('state gone'));
            const value = Reflect.get(target, property, receiver) as unknown;
            return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
          },
        }),
    );
    call.send(AUTHED);
    await answers(call, 1);
    call.emit('cancelled');
    await vi.waitFor(() => expect(failures).toEqual(['finishing an ext_proc request failed (lease, slot or usage record): state gone']));
  });

  it('ends as a client disconnect on a stream error, without logging a failure of its own', async () => {
    const { call, outcomes, failures } = await open();
    call.send(AUTHED);
    await answers(call, 1);
    call.emit('error', new Error('reset by peer'));
    await vi.waitFor(() => expect(outcomes).toEqual(['client_disconnect']));
    expect(failures).toEqual([]);
  });
});
