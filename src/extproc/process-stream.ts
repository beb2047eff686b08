import { GrpcStatus } from './grpc-framing.js';
import type { RequestContext } from '../pipeline/context.js';
import type { Pipeline } from '../pipeline/pipeline.js';
import type { TraceParent } from '../pipeline/tracing.js';
import type { EndOutcome, LocalResponse } from '../pipeline/types.js';
import { clusterNameForOrigin, ROUTE_HEADER, UPSTREAM_HOST_HEADER, upstreamHostForOrigin } from '../envoy/cluster-name.js';
import { PROCESSOR_REPLY_KEY, PROCESSOR_REPLY_NAMESPACE, PROCESSOR_REPLY_ORIGIN } from '../envoy/local-reply.js';
import { envoyLocalReplyFault, withRequestId } from './envoy-local-reply.js';
import { decodeHeaders, setHeader } from './header-codec.js';
import type { ProcessingRequest, ProcessingResponse, TrailersResponse } from './proto.js';
import type { ProcessCall } from './process-call.js';
import { EXTPROC_ROLE_METADATA, EXTPROC_ROLES, OBSERVE_ID_HEADER } from '../envoy/observe.js';
import type { ObservedRequest, ObserveRegistry, ObserverStream } from './observe-stream.js';

/** Where a stream reports a failure it cannot answer Envoy about (the process's logger). */
export type StreamFailureLog = (message: string, error: unknown) => void;

/**
 * Envoy's local_reply_config rewrites every local reply, this one included;
 * the mark (stored by the ext_proc filter before it sends the reply) tells it
 * the reply is already ours. See src/envoy/local-reply.ts.
 */
const PROCESSOR_REPLY_MARK = Object.freeze({
  fields: { [PROCESSOR_REPLY_NAMESPACE]: { structValue: { fields: { [PROCESSOR_REPLY_KEY]: { stringValue: PROCESSOR_REPLY_ORIGIN } } } } },
});

function immediate(response: LocalResponse, fault: string | null): ProcessingResponse {
  return {
    dynamic_metadata: PROCESSOR_REPLY_MARK,
    immediate_response: {
      status: { code: response.status },
      headers: { set_headers: [...response.headers.map(([k, v]) => setHeader(k, v)), setHeader('content-length', String(Buffer.byteLength(response.body)))] },
      body: Buffer.from(response.body),
      details: fault === null ? 'gw_local_response' : `gw_${fault}`,
    },
  };
}

/**
 * Envoy's ext_proc filter (1.31+, with a tracer configured) opens the gRPC
 * stream as a child span of the request and injects that span's context into
 * the stream's initial metadata, not into the request headers it sends: the
 * headers still carry only the caller's traceparent. Continue Envoy's span when
 * it is there, so Envoy's and the processor's spans form one trace.
 */
function envoyTraceParent(call: ProcessCall): TraceParent | null {
  const traceparent = call.metadata.get('traceparent')[0];
  if (typeof traceparent !== 'string') return null;
  const tracestate = call.metadata.get('tracestate')[0];
  return { traceparent, tracestate: typeof tracestate === 'string' ? tracestate : undefined };
}

/** How long the response headers of a stream wait for its observing stream before the body is metered here. */
const OBSERVER_WAIT_MS = 100;

// Frozen: the service encodes these once (see processorService).
const CONTINUE_RESPONSE_BODY: ProcessingResponse = Object.freeze({ response_body: Object.freeze({ response: Object.freeze({}) }) }) as ProcessingResponse;
const CONTINUE_REQUEST_HEADERS: ProcessingResponse = Object.freeze({ request_headers: Object.freeze({ response: Object.freeze({}) }) }) as ProcessingResponse;
const CONTINUE_REQUEST_BODY: ProcessingResponse = Object.freeze({ request_body: Object.freeze({ response: Object.freeze({}) }) }) as ProcessingResponse;

/**
 * One ext_proc stream is one HTTP request. Envoy sends the request's phases
 * in order and waits for exactly one answer to each; this maps them onto the
 * pipeline's phases, the same ones gw serve drives. Response body chunks are
 * answered at once, unchanged, and metered after the answer is written.
 */
export class ProcessStream implements ObservedRequest {
  private ctx: RequestContext | null = null;
  /**
   * Where a response body goes: undecided until the response headers; 'self'
   * (this stream's own response_body messages, the only way without the
   * observing filter); 'observer' (a stream's chunks reach the pipeline from
   * the observing filter, and nothing waits on the processor).
   */
  private bodyRoute: 'undecided' | 'self' | 'observer' = 'undecided';
  private observer: ObserverStream | null = null;
  /** Chunks the observer saw before this stream's response headers were decided (the two streams race). */
  private observedEarly: Buffer[] = [];
  private observedEndedEarly = false;
  /** The id under which the observer finds this stream (set with the request answer). */
  private observeId: string | null = null;
  /** Resolves a wait for the observer (see awaitObserver). */
  private observerArrived: (() => void) | null = null;
  private finished = false;
  private body: Buffer[] = [];
  /**
   * Envoy's configured request body mode, from protocol_config on the first
   * message (Envoy 1.34+); our generated config uses BUFFERED, the assumption
   * when an older Envoy does not say.
   */
  private requestBodyMode = 'BUFFERED';
  /** Phases 1 and 2 await state; later messages queue behind them so answers stay in order. */
  private tail: Promise<void> = Promise.resolve();
  private pending = 0;
  /** request_headers has arrived (set on receipt: later phases may queue behind its answer). */
  private sawRequestHeaders = false;
  /** The request's end_of_stream has arrived (on its headers or its last body chunk). */
  private requestEnded = false;
  /** A gRPC status has been sent (a protocol error, or the end after an immediate_response); nothing more is read. */
  private closed = false;
  /** The response is Envoy's own local reply (already in our shape): its body gets this request's id. */
  private envoyReply = false;

  constructor(
    private readonly call: ProcessCall,
    private readonly pipeline: Pipeline,
    private readonly onDone: (stream: ProcessStream) => void,
    private readonly logFailure: StreamFailureLog,
    /** Present when Envoy has the observing filter (the stream's role says so). */
    private readonly observeRegistry: ObserveRegistry | null = null,
  ) {
    if (observeRegistry !== null && call.metadata.get(EXTPROC_ROLE_METADATA)[0] !== EXTPROC_ROLES.decideObserved) this.observeRegistry = null;
    call.on('data', (message: ProcessingRequest) => this.receive(message));
    call.on('end', () => {
      // Handed to the observer, the response's end is the observer's to see: Envoy closes
      // this stream after the response headers' answer (nothing more is expected on it).
      if (this.bodyRoute === 'observer') {
        if (!call.writableEnded) call.end();
        return;
      }
      // Every normal ending finishes earlier (immediate response, end_of_stream); a stream
      // closed before that was cut short, by the client or by an upstream reset Envoy relayed.
      this.finish('client_disconnect');
      if (!call.writableEnded) call.end();
    });
    // A client disconnect never delivers end_of_stream: Envoy cancels the call.
    call.on('cancelled', () => {
      if (this.bodyRoute !== 'observer') this.finish('client_disconnect');
    });
    // grpc-js emits 'error' on a server stream when the peer resets it or the transport breaks:
    // either way the caller is gone and there is no one to answer, so it ends as a disconnect
    // (recorded in the usage record), which is not the processor's failure to log.
    call.on('error', () => {
      if (this.bodyRoute !== 'observer') this.finish('client_disconnect');
    });
  }

  attachObserver(observer: ObserverStream): boolean {
    if (this.finished || this.observer !== null || this.bodyRoute !== 'undecided') return false;
    this.observer = observer;
    this.observerArrived?.();
    return true;
  }

  observedChunk(chunk: Buffer | Uint8Array | undefined, endOfStream: boolean): void {
    if (this.finished) return;
    if (this.bodyRoute === 'undecided') {
      if (chunk && chunk.length > 0) this.observedEarly.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      if (endOfStream) this.observedEndedEarly = true;
      return;
    }
    if (this.bodyRoute !== 'observer' || !this.ctx) return;
    if (chunk && chunk.length > 0) this.pipeline.onResponseChunk(this.ctx, chunk);
    if (endOfStream) this.finish('complete');
  }

  observedEnd(): void {
    if (this.bodyRoute === 'undecided') this.observedEndedEarly = true;
    else if (this.bodyRoute === 'observer') this.finish('complete');
  }

  observerGone(observer: ObserverStream): void {
    if (this.observer !== observer) return;
    this.observer = null;
    // Without its end: the caller disconnected or the upstream reset (Envoy's deferred close
    // of the observing stream; ext_proc.cc Filter::onDestroy -> deferredCloseStream).
    if (this.bodyRoute === 'observer') this.finish('client_disconnect');
  }

  /** Response headers decided: the body goes to the observer (a stream it is attached to) or stays here. */
  private routeBody(toObserver: boolean): void {
    this.bodyRoute = toObserver ? 'observer' : 'self';
    const early = this.observedEarly;
    this.observedEarly = [];
    if (!toObserver) {
      // Nothing of this body is the observer's: closing it stops Envoy sending the chunks.
      const observer = this.observer;
      this.observer = null;
      observer?.release();
      return;
    }
    const ctx = this.ctx;
    if (ctx) for (const chunk of early) this.pipeline.onResponseChunk(ctx, chunk);
    if (this.observedEndedEarly) this.finish('complete');
  }

  /** Server shutdown: record what was seen and release everything. */
  abort(): void {
    this.finish('shutdown');
  }

  private receive(message: ProcessingRequest): void {
    if (this.closed) return;
    const violation = this.orderViolation(message);
    if (violation !== null) {
      this.endWithProtocolError(violation);
      return;
    }
    if (message.request === 'request_headers') this.sawRequestHeaders = true;
    if (message.request_headers?.end_of_stream === true || message.request_body?.end_of_stream === true) this.requestEnded = true;
    if (this.pending === 0 && message.request === 'response_body') {
      this.responseBody(message);
      return;
    }
    this.pending++;
    this.tail = this.tail
      .then(() => this.handle(message))
      .catch((error: unknown) => {
        // The pipeline answers its own faults; reaching here is a bug or a broken stream.
        this.logFailure('ext_proc stream failed; the stream is reset', error);
        this.finish('gateway_error');
        this.call.destroy(new Error('processor failed'));
      })
      .finally(() => {
        this.pending--;
      });
  }

  /**
   * The ext_proc protocol's order, as Envoy keeps it: request_headers first and
   * once. A peer that breaks it gets INVALID_ARGUMENT with the reason, never
   * silence or a guess. (An immediate_response ends the stream itself, so
   * nothing after it is read.)
   */
  private orderViolation(message: ProcessingRequest): string | null {
    if (message.request === undefined) return 'empty ProcessingRequest: none of request_headers, request_body, request_trailers, response_headers, response_body, response_trailers is set';
    if (message.request === 'request_headers') return this.sawRequestHeaders ? 'request_headers sent twice on one stream' : null;
    if (!this.sawRequestHeaders) return `${message.request} before request_headers`;
    if (message.request === 'request_body' && this.requestEnded) return 'request_body after the request ended (end_of_stream was already sent)';
    return null;
  }

  private endWithProtocolError(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.finish(this.ctx === null ? 'client_disconnect' : 'gateway_error');
    // Either transport turns an 'error' on a server call into its trailing status (process-call.ts).
    this.call.emit('error', { code: GrpcStatus.INVALID_ARGUMENT, details: `gw: ext_proc protocol: ${reason}` });
  }

  private write(response: ProcessingResponse): void {
    if (!this.call.destroyed && this.call.writable) this.call.write(response);
  }

  private async handle(message: ProcessingRequest): Promise<void> {
    if (this.closed) return;
    const mode = message.protocol_config?.request_body_mode;
    if (mode !== undefined) this.requestBodyMode = String(mode);
    switch (message.request) {
      case 'request_headers':
        return this.requestHeaders(message);
      case 'request_body':
        return this.requestBody(message);
      case 'response_headers':
        return this.responseHeaders(message);
      case 'response_body':
        return this.responseBody(message);
      case 'request_trailers':
        // The request was decided on its (BUFFERED) body already. Trailers are caller header
        // fields too, and none is on the forwarding allow-list: every one is removed, so a
        // trailer cannot carry to the provider what a header may not (gw serve forwards none).
        return this.write({ request_trailers: requestTrailersAnswer(message) });
      case 'response_trailers':
        // A response that ends with trailers has no body message with end_of_stream:
        // its trailers are the end of a complete response.
        this.write({ response_trailers: {} });
        this.finish('complete');
        return;
      default:
        throw new Error('unknown ext_proc message');
    }
  }

  private async requestHeaders(message: ProcessingRequest): Promise<void> {
    const { map, pseudo, repeated, fieldCount, headerBytes } = decodeHeaders(message.request_headers?.headers);
    const ctx = this.pipeline.begin({ method: pseudo[':method'] ?? 'GET', path: pseudo[':path'] ?? '/', headers: map, repeated, fieldCount, headerBytes }, envoyTraceParent(this.call));
    this.ctx = ctx;
    const outcome = await this.pipeline.onRequestHeaders(ctx);
    if (outcome.kind === 'respond') {
      this.answerImmediately(outcome.response, ctx.fault);
      return;
    }
    if (message.request_headers?.end_of_stream) {
      // No body will come (an empty POST): decide now, in the headers answer.
      await this.decide(Buffer.alloc(0), 'request_headers');
      return;
    }
    this.write(CONTINUE_REQUEST_HEADERS);
  }

  private answerImmediately(response: LocalResponse, fault: string | null): void {
    this.write(immediate(response, fault));
    this.finish('complete');
    // The request is over: end the stream (OK) now instead of waiting for the peer's half-close.
    // Envoy half-closes on an immediate_response anyway; a peer that never does (a hostile or
    // broken client) would otherwise hold the stream, and its memory, until its deadline.
    this.closed = true;
    if (!this.call.writableEnded) this.call.end();
  }

  private async requestBody(message: ProcessingRequest): Promise<void> {
    const chunk = message.request_body?.body;
    if (chunk && chunk.length > 0) this.body.push(Buffer.from(chunk));
    // BUFFERED sends the whole body in one message, whose end_of_stream is false
    // when trailers follow; it is complete all the same, and only its answer can
    // still change the held headers and the route.
    if (!message.request_body?.end_of_stream && this.requestBodyMode !== 'BUFFERED') {
      this.write(CONTINUE_REQUEST_BODY);
      return;
    }
    const body = this.body.length === 1 ? (this.body[0] as Buffer) : Buffer.concat(this.body);
    this.body = [];
    await this.decide(body, 'request_body');
  }

  private async decide(body: Buffer, phase: 'request_headers' | 'request_body'): Promise<void> {
    const ctx = this.ctx;
    if (!ctx) throw new Error('request body before request headers');
    const outcome = await this.pipeline.onRequestBody(ctx, body);
    if (outcome.kind === 'respond') {
      this.answerImmediately(outcome.response, ctx.fault);
      return;
    }
    const plan = outcome.plan;
    // Removals apply before sets, so the routing header we set survives the x-gw-* strip.
    const common = {
      header_mutation: {
        remove_headers: [...plan.removeHeaders],
        set_headers: [
          setHeader(ROUTE_HEADER, clusterNameForOrigin(plan.origin)),
          setHeader(UPSTREAM_HOST_HEADER, upstreamHostForOrigin(plan.origin)),
          setHeader(':path', plan.path),
          ...plan.setHeaders.map(([k, v]) => setHeader(k, v)),
          ...this.observeHeader(ctx),
        ],
      },
      // Re-routing needs the flag together with a header mutation in the same answer.
      clear_route_cache: true,
      ...(plan.body !== body ? { body_mutation: { body: plan.body } } : {}),
    };
    this.write(phase === 'request_body' ? { request_body: { response: common } } : { request_headers: { response: common } });
  }

  /**
   * The observing stream's request headers left Envoy before the request went upstream, so they
   * are nearly always here before the response headers; but the two gRPC streams are read
   * independently (a new stream's first message can trail another stream's), so a stream that
   * expects an observer gives it a moment before metering the body itself.
   */
  private async awaitObserver(): Promise<void> {
    if (this.observeRegistry === null || this.observer !== null || this.observeId === null) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, OBSERVER_WAIT_MS);
      this.observerArrived = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.observerArrived = null;
  }

  /** With the observing filter: the header it will send back, under which this stream waits for it. */
  private observeHeader(ctx: RequestContext): ReturnType<typeof setHeader>[] {
    if (this.observeRegistry === null) return [];
    this.observeId = ctx.requestId;
    this.observeRegistry.set(ctx.requestId, this);
    return [setHeader(OBSERVE_ID_HEADER, ctx.requestId)];
  }

  private async responseHeaders(message: ProcessingRequest): Promise<void> {
    const ctx = this.ctx;
    if (!ctx) throw new Error('response headers before request headers');
    const { map, pseudo } = decodeHeaders(message.response_headers?.headers);
    const status = Number(pseudo[':status'] ?? '0');
    const envoyFault = envoyLocalReplyFault(map);
    if (envoyFault !== null) {
      // Envoy's own answer, already in our shape: the gateway's, not the provider's. It keeps
      // its shape and takes this request's id (in the headers here, in the body below), so the
      // id the caller quotes finds this request's record and logs.
      ctx.status = status;
      ctx.fault = envoyFault;
      const endOfStream = message.response_headers?.end_of_stream === true;
      this.envoyReply = !endOfStream;
      this.routeBody(false);
      this.write({
        response_headers: {
          response: {
            header_mutation: {
              remove_headers: ['content-length'],
              set_headers: [setHeader('x-gw-request-id', ctx.requestId), setHeader('request-id', ctx.requestId)],
            },
          },
        },
        ...(endOfStream ? {} : { mode_override: { response_body_mode: 'BUFFERED' } }),
      });
      if (endOfStream) this.finish('gateway_error');
      return;
    }
    const decision = this.pipeline.onResponseHeaders(ctx, status, map);
    const endOfStream = message.response_headers?.end_of_stream === true;
    if (decision.streaming && !endOfStream) await this.awaitObserver();
    // A stream whose observer is attached is metered from the observer's copy: this stream's
    // body mode stays NONE (trailers SKIP too), so Envoy passes every chunk on at once.
    const observed = decision.streaming && !endOfStream && this.observer !== null;
    this.routeBody(observed);
    this.write({
      response_headers: {
        response: {
          // A relayed stream is re-framed; a stale content-length would truncate it.
          header_mutation: {
            // Removals apply before sets, so the provider's own x-gw-* go and ours stay.
            remove_headers: decision.streaming ? [...decision.removeHeaders, 'content-length'] : [...decision.removeHeaders],
            set_headers: decision.addHeaders.map(([k, v]) => setHeader(k, v)),
          },
        },
      },
      // Body modes in an override are literal: streams chunk by chunk, JSON whole (for its usage).
      ...(endOfStream ? {} : { mode_override: observed ? { response_trailer_mode: 'SKIP' } : { response_body_mode: decision.streaming ? 'STREAMED' : 'BUFFERED' } }),
    });
    if (endOfStream) this.finish('complete');
  }

  private responseBody(message: ProcessingRequest): void {
    if (this.bodyRoute === 'observer') {
      // Not asked for (body mode NONE); answered all the same, metered only from the observer.
      this.write(CONTINUE_RESPONSE_BODY);
      return;
    }
    if (this.envoyReply && this.ctx) {
      const body = withRequestId(Buffer.from(message.response_body?.body ?? Buffer.alloc(0)), this.ctx.requestId);
      this.write(body ? { response_body: { response: { body_mutation: { body } } } } : CONTINUE_RESPONSE_BODY);
      if (message.response_body?.end_of_stream) this.finish('gateway_error');
      return;
    }
    this.write(CONTINUE_RESPONSE_BODY);
    const ctx = this.ctx;
    if (!ctx) return;
    const chunk = message.response_body?.body;
    if (chunk && chunk.length > 0) this.pipeline.onResponseChunk(ctx, chunk);
    if (message.response_body?.end_of_stream) this.finish('complete');
  }

  private finish(outcome: EndOutcome): void {
    if (this.finished) return;
    this.finished = true;
    this.onDone(this);
    if (this.observeId !== null) this.observeRegistry?.delete(this.observeId);
    const observer = this.observer;
    this.observer = null;
    this.observedEarly = [];
    observer?.release();
    if (this.ctx) {
      this.pipeline.finish(this.ctx, outcome).catch((error: unknown) => this.logFailure('finishing an ext_proc request failed (lease, slot or usage record)', error));
    }
  }
}

/** Removes every trailer the caller sent (an empty mutation when there were none). */
function requestTrailersAnswer(message: ProcessingRequest): TrailersResponse {
  const names = new Set<string>();
  for (const h of message.request_trailers?.trailers?.headers ?? []) {
    const key = (h.key ?? '').toLowerCase();
    if (key !== '') names.add(key);
  }
  return names.size === 0 ? {} : { header_mutation: { remove_headers: [...names] } };
}
