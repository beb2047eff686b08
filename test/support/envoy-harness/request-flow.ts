/**
 * One HTTP request through "Envoy": the ext_proc filter's decode path
 * (request headers, buffered body), the router, and the encode path
 * (response headers, body NONE/STREAMED/BUFFERED), with Envoy's rules for
 * what each answer may change (reference §2).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type * as grpc from '@grpc/grpc-js';
import type { Dispatcher } from 'undici';
import { statusCodeNumber, type CommonResponse, type ImmediateResponse, type ProcessingResponse, type ProtoStruct } from '../../../src/extproc/proto.js';
import type { StreamFacts } from './access-log-format.js';
import { Downstream } from './downstream.js';
import { rewriteLocalReply } from './local-reply.js';
import { HeaderMap } from './header-map.js';
import { applyHeaderMutation, type MutationResult } from './header-mutation.js';
import type { AccessLogEntry, EnvoyHarnessStats, ResolvedOptions } from './options.js';
import { ACTIONS, type OverloadManager } from './overload.js';
import { mergeModeOverride, UnsupportedModeError, type HarnessProcessingMode } from './processing-mode.js';
import { ProcessorStream, type ExchangeOutcome, type Failure } from './processor-stream.js';
import { ObserverStream } from './observer-stream.js';
import { responseFlags, transportFailureReason } from './response-flags.js';
import { forward, isHopByHop, resolveUpstreamAddress, rewrittenRouterReply, routerReply, selectCluster, targetOf, type RoutedResponse } from './upstream.js';

export interface FlowEnv {
  options: ResolvedOptions;
  client: grpc.Client;
  dispatcher: Dispatcher;
  stats: EnvoyHarnessStats;
  overload?: OverloadManager | undefined;
  /** The compiled access log format, when the harness prints Envoy's access log. */
  formatLine?: ((facts: StreamFacts) => string) | undefined;
}

type BodyRead = { kind: 'ok'; body: Buffer; trailers: HeaderMap } | { kind: 'aborted' };

/** Stop processing this request; the client has been answered or reset. */
class Stop extends Error {}

export class RequestFlow {
  private readonly options: ResolvedOptions;
  private readonly stats: EnvoyHarnessStats;
  private readonly down: Downstream;
  private readonly proc: ProcessorStream;
  /** The observing ext_proc filter (after the deciding one), when configured. */
  private readonly observer: ObserverStream | undefined;
  /** The observer's last body piece, held when the last data chunk (not an empty one) carries end_of_stream. */
  private observerHeld: Buffer | undefined;
  private readonly upstreamAbort = new AbortController();
  private mode: HarnessProcessingMode;
  private readonly headers: HeaderMap;
  private readonly initialCluster: string | undefined;
  private routeCleared = false;
  private cluster: string | undefined;
  private upstreamHost: string | undefined;
  private requestBodyReplaced: Buffer | undefined;
  private responseBodyReplaced: Buffer | undefined;
  private readonly metadata: Record<string, ProtoStruct> = {};
  private readonly trace: AccessLogEntry['trace'];
  // For the access log (Envoy's StreamInfo).
  private readonly startedAt = Date.now();
  private bytesReceived = 0;
  private requestCompleteAt: number | undefined;
  private firstUpstreamRxAt: number | undefined;
  private upstreamAddress: string | undefined;
  /** Releases of the bytes this request holds in the overload manager's modelled heap. */
  private readonly held: Array<() => void> = [];
  private readonly timers: NodeJS.Timeout[] = [];
  private idleTimer: NodeJS.Timeout | undefined;
  private requestTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly req: IncomingMessage,
    res: ServerResponse,
    private readonly env: FlowEnv,
  ) {
    this.options = env.options;
    this.stats = env.stats;
    this.mode = { ...env.options.processingMode };
    this.down = new Downstream(
      req,
      res,
      () => this.onClientGone(),
      (reply, details, flags) => rewriteLocalReply(this.options.localReplyConfig, reply, { details, flags, metadata: this.metadata }),
      {
        keepAliveDisabled: () => {
          const overload = env.overload;
          if (!overload?.isSaturated(ACTIONS.disableHttpKeepalive)) return false;
          overload.stats.downstream_cx_overload_disable_keepalive += 1;
          return true;
        },
      },
    );
    this.armTimers();
    this.trace = this.options.tracing ? envoyTrace(req.headers.traceparent) : undefined;
    this.proc = new ProcessorStream(
      env.client,
      {
        messageTimeoutMs: this.options.messageTimeoutMs,
        maxMessageTimeoutMs: this.options.maxMessageTimeoutMs,
        failureModeAllow: this.options.failureModeAllow,
        ...(this.options.gracefulCloseMs !== undefined ? { gracefulCloseMs: this.options.gracefulCloseMs } : {}),
        statusOnError: this.options.statusOnError,
        protocolConfig: {
          request_body_mode: this.mode.request_body_mode,
          response_body_mode: this.mode.response_body_mode,
        },
        metadata: { ...this.options.processorMetadata, ...(this.trace ? { traceparent: `00-${this.trace.traceId}-${this.trace.extProcSpanId}-01` } : {}) },
      },
      env.stats,
      (failure) => this.failClosed(failure),
    );
    this.observer = this.options.observer
      ? new ObserverStream(env.client, this.options.observer, env.stats, (details) => {
          this.upstreamAbort.abort();
          if (this.down.headersSent) this.down.resetStream(details);
          else this.down.localReply(this.options.statusOnError, new HeaderMap(), Buffer.alloc(0), details);
        })
      : undefined;
    this.headers = requestHeaderMap(req, this.options.generateRequestId);
    // early_header_mutation_extensions run before the route is first matched:
    // envoy/source/common/http/conn_manager_impl.cc ActiveStream::decodeHeaders.
    for (const name of this.headers.toProto().map((h) => h.key ?? '')) {
      if (this.options.earlyRemoveHeaders.includes(name) || this.options.earlyRemoveHeaderPrefixes.some((p) => name.startsWith(p))) this.headers.remove(name);
    }
    // The route is matched before any filter runs (reference §2.10).
    this.initialCluster = selectCluster(this.headers, this.options);
  }

  async run(): Promise<{ entry: AccessLogEntry; line: string | undefined }> {
    const method = this.req.method ?? 'GET';
    const path = this.req.url ?? '/';
    try {
      await this.process();
      // Every path ends the response; this catches a harness bug instead of hanging.
      if (!this.down.finished) {
        this.down.localReply(500, new HeaderMap(), Buffer.alloc(0), 'harness_no_response');
      }
    } catch (err) {
      if (!(err instanceof Stop)) {
        this.down.localReply(500, new HeaderMap(), Buffer.alloc(0), `harness_internal_error{${String(err)}}`);
        throw err;
      }
    } finally {
      this.proc.close();
      this.observer?.destroy();
    }
    await this.down.closed;
    for (const release of this.held) release();
    this.clearTimers();
    const entry: AccessLogEntry = {
      method,
      path,
      status: this.down.status,
      responseCodeDetails: this.down.details,
      cluster: this.cluster,
      upstreamHost: this.upstreamHost,
      dynamicMetadata: this.metadata,
      reset: this.down.reset,
      trace: this.trace,
    };
    return { entry, line: this.env.formatLine?.(this.streamFacts()) };
  }

  private streamFacts(): StreamFacts {
    const since = (at: number | undefined): number | undefined => (at === undefined ? undefined : at - this.startedAt);
    return {
      startTime: new Date(this.startedAt),
      requestHeaders: this.headers,
      responseHeaders: this.down.headers,
      protocol: `HTTP/${this.req.httpVersion}`,
      responseCode: this.down.status,
      responseCodeDetails: this.down.details,
      responseFlags: responseFlags(this.down.details, this.down.clientGone),
      lastDownstreamTxMs: since(this.down.lastTxAt) ?? Date.now() - this.startedAt,
      lastDownstreamRxMs: since(this.requestCompleteAt),
      firstUpstreamRxMs: since(this.firstUpstreamRxAt),
      upstreamCluster: this.cluster,
      upstreamHost: this.upstreamAddress,
      upstreamTransportFailureReason: transportFailureReason(this.down.details),
      bodyBytesReceived: this.bytesReceived,
      bodyBytesSent: this.down.bytesSent,
      downstreamRemoteAddress: this.req.socket.remoteAddress ?? '',
    };
  }

  // ------------------------------------------------------------ decode path

  private async process(): Promise<void> {
    // Envoy's codec refuses a request with more than max_headers_count (default 100)
    // headers with 431 before any filter runs: envoy/source/common/http/http1/codec_impl.cc
    // (checkMaxHeadersSize, "http1.too_many_headers"); api/envoy/config/core/v3/protocol.proto
    // (HttpProtocolOptions.max_headers_count). The size limit (max_request_headers_kb,
    // default 60 KiB) is the Node server's maxHeaderSize, which also answers 431.
    if (this.req.rawHeaders.length / 2 > this.options.maxHeadersCount) {
      this.down.localReply(431, new HeaderMap(), Buffer.from('Request Header Fields Too Large'), 'http1.too_many_headers');
      throw new Stop();
    }
    this.shedIfOverloaded();
    const hasBody = requestHasBody(this.req);
    if (!hasBody) this.requestCompleteAt = this.startedAt;
    const bodyRead = hasBody
      ? readBody(this.req, (chunk) => {
          this.bytesReceived += chunk.length;
          if (this.env.overload) this.held.push(this.env.overload.hold(chunk.length));
          this.touch();
        }).then((read) => {
          this.requestCompleteAt = Date.now();
          return read;
        })
      : Promise.resolve<BodyRead>({ kind: 'ok', body: Buffer.alloc(0), trailers: new HeaderMap() });
    this.removeContentLengthIfStreamed('request', this.headers);

    if (this.mode.request_header_mode === 'SEND') {
      const outcome = await this.proc.exchange({ request_headers: { headers: { headers: this.headers.toProto() }, end_of_stream: hasBody ? undefined : true } }, 'request_headers');
      const common = this.answer(outcome)?.request_headers?.response;
      if (common) this.applyHeadersAnswer(common, 'request');
    }

    let body: Buffer = Buffer.alloc(0);
    let trailers = new HeaderMap();
    if (hasBody) {
      const read = await bodyRead;
      this.checkStopped();
      if (read.kind === 'aborted') throw new Stop();
      body = read.body;
      // The harness's front is HTTP/1 only: its trailers reach the filters only when the
      // connection manager enables them (see ResolvedOptions.downstreamHttp1Trailers).
      if (this.options.downstreamHttp1Trailers) trailers = read.trailers;
    }
    const hasTrailers = trailers.toProto().length > 0;
    if (this.requestBodyReplaced) {
      body = this.requestBodyReplaced;
    } else if (hasBody && this.mode.request_body_mode === 'BUFFERED' && this.proc.active) {
      if (body.length > this.options.bufferLimitBytes) {
        this.ownReply(413, 'request_payload_too_large', 'Payload Too Large');
      }
      // With trailers, the one BUFFERED body message has end_of_stream false and a
      // trailers message follows (trailer mode SEND) or nothing does (SKIP):
      // envoy/source/extensions/filters/http/ext_proc/ext_proc.cc (decodeData, decodeTrailers).
      const outcome = await this.proc.exchange({ request_body: { body, end_of_stream: hasTrailers ? undefined : true } }, 'request_body');
      const common = this.answer(outcome)?.request_body?.response;
      if (common) body = this.applyBufferedBodyAnswer(common, this.headers, body, 'request');
    }
    if (hasTrailers && this.mode.request_trailer_mode === 'SEND' && this.proc.active) {
      const answer = this.answer(await this.proc.exchange({ request_trailers: { trailers: { headers: trailers.toProto() } } }, 'request_trailers'));
      // The answer may change the trailers before they go upstream.
      const mutation = answer?.request_trailers?.header_mutation;
      if (mutation) this.mutate(trailers, { header_mutation: mutation }, false);
    }

    // The observing filter comes after the deciding one: it sees the request headers only once
    // the deciding filter lets them go on (after the body answer in BUFFERED mode), mutations applied.
    this.observer?.requestHeaders(this.headers, !hasBody);

    if (this.proc.active && this.mode.response_header_mode === 'SKIP' && this.mode.response_body_mode === 'NONE') {
      this.proc.close(); // nothing more will be asked (stream-close optimisation)
    }

    const routed = await this.route(body, trailers);
    await this.encode(routed);
  }

  private async route(body: Buffer, trailers: HeaderMap): Promise<RoutedResponse> {
    const cluster = this.routeCleared ? selectCluster(this.headers, this.options) : this.initialCluster;
    if (cluster === undefined) {
      // A direct_response route answers with its own status and body; no route at all is 404.
      const catchAll = this.options.catchAll;
      return this.localRouted(catchAll ? routerReply(catchAll.status, catchAll.body, 'direct_response') : routerReply(404, '', 'route_not_found', ['NR']));
    }
    const target = targetOf(cluster, this.headers, this.options);
    if (!target) return this.localRouted(routerReply(503, 'no healthy upstream', 'no_healthy_upstream', ['UH']));
    // The request has gone upstream: request_timeout is disarmed.
    this.disarmRequestTimer();
    this.cluster = cluster;
    this.upstreamHost = target.base.host;
    this.upstreamAddress = await resolveUpstreamAddress(target.base);
    this.stats.upstream_requests[cluster] = (this.stats.upstream_requests[cluster] ?? 0) + 1;
    this.stats.upstream_hosts[target.base.host] = (this.stats.upstream_hosts[target.base.host] ?? 0) + 1;
    const routed = await forward(this.env.dispatcher, target.base, this.headers, body, this.options, this.upstreamAbort.signal, trailers);
    if (routed.details === 'via_upstream') this.firstUpstreamRxAt = Date.now();
    this.checkStopped();
    if (routed.local) return this.localRouted(routed);
    // The router's modify_headers (the route's response_headers_to_remove) runs before encodeHeaders
    // reaches the encoder filters: envoy/source/common/router/router.cc Filter::onUpstreamHeaders.
    for (const name of this.options.responseHeadersToRemove) routed.headers.remove(name);
    return routed;
  }

  /**
   * A router's local reply goes through local_reply_config before the
   * encoder filters (the processor) see it: Utility::prepareLocalReply runs
   * the rewrite, then encodeHeaders passes the encoder filter chain.
   */
  private localRouted(routed: RoutedResponse): RoutedResponse {
    const local = routed.local;
    if (!local) return routed;
    const headers = routed.headers.clone();
    headers.remove(':status');
    const reply = rewriteLocalReply(this.options.localReplyConfig, { status: routed.status, headers, body: local.body }, { details: routed.details, flags: local.flags, metadata: this.metadata });
    return rewrittenRouterReply(reply.status, reply.headers, reply.body, routed.details);
  }

  // ------------------------------------------------------------ timers

  /**
   * request_timeout runs from the start of the request until it has gone
   * upstream or a response begins; stream_idle_timeout restarts on every
   * request or response byte that passes (conn_manager_impl.cc,
   * ActiveStream::onRequestTimeout and onIdleTimeout; the proto comments of
   * request_timeout and stream_idle_timeout). Before the response headers an
   * idle timeout is answered 408 while the request is incomplete and 504 after
   * (Utility::maybeRequestTimeoutCode), later it resets the stream.
   */
  private armTimers(): void {
    const { requestTimeoutMs, streamIdleTimeoutMs } = this.options;
    if (requestTimeoutMs !== undefined) {
      this.requestTimer = setTimeout(() => {
        this.upstreamAbort.abort();
        this.down.localReply(408, new HeaderMap(), Buffer.from('request timeout'), 'request_overall_timeout');
      }, requestTimeoutMs);
      this.requestTimer.unref();
      this.timers.push(this.requestTimer);
    }
    if (streamIdleTimeoutMs !== undefined) this.touch();
  }

  /** An encode or decode event passed: the stream is not idle. */
  private touch(): void {
    const { streamIdleTimeoutMs } = this.options;
    if (streamIdleTimeoutMs === undefined || this.down.finished) return;
    if (this.idleTimer) this.idleTimer.refresh();
    else {
      this.idleTimer = setTimeout(() => this.onIdle(), streamIdleTimeoutMs);
      this.idleTimer.unref();
      this.timers.push(this.idleTimer);
    }
  }

  private onIdle(): void {
    this.upstreamAbort.abort();
    if (this.down.headersSent) this.down.resetStream('stream_idle_timeout');
    else this.down.localReply(this.req.complete ? 504 : 408, new HeaderMap(), Buffer.from('stream timeout'), 'stream_idle_timeout', ['SI']);
  }

  /** Response bytes handed to the codec: the response has begun, and the stream is not idle. */
  private encodeEvent(): void {
    this.disarmRequestTimer();
    this.touch();
  }

  private disarmRequestTimer(): void {
    if (this.requestTimer) clearTimeout(this.requestTimer);
  }

  private clearTimers(): void {
    for (const t of this.timers) clearTimeout(t);
  }

  // ------------------------------------------------------------ encode path

  private async encode(routed: RoutedResponse): Promise<void> {
    const headers = routed.headers;
    // Encoder filters run in reverse order: the observing filter sees the response first.
    if (this.observer) {
      this.observer.responseHeaders(headers, routed.endOfStream);
      if (this.observer.removesResponseContentLength()) headers.remove('content-length');
    }
    this.removeContentLengthIfStreamed('response', headers);

    if (this.mode.response_header_mode === 'SEND' && this.proc.active) {
      const outcome = await this.proc.exchange(
        {
          response_headers: {
            headers: { headers: headers.toProto() },
            end_of_stream: routed.endOfStream ? true : undefined,
          },
        },
        'response_headers',
      );
      const common = this.answer(outcome)?.response_headers?.response;
      if (common) this.applyHeadersAnswer(common, 'response', headers);
    }

    const bodyMode = routed.endOfStream || this.responseBodyReplaced ? 'NONE' : this.mode.response_body_mode;
    if (bodyMode === 'NONE' && this.proc.active) this.proc.close();

    if (bodyMode === 'BUFFERED') {
      await this.bufferedResponse(routed, headers);
      return;
    }
    this.encodeEvent();
    if (!this.down.sendHeaders(statusOf(headers, routed.status), headers, routed.details)) throw new Stop();
    if (routed.endOfStream || this.responseBodyReplaced) {
      this.upstreamAbort.abort();
      this.down.end(this.responseBodyReplaced);
      return;
    }
    if (bodyMode === 'STREAMED') await this.streamedResponse(routed);
    else await this.passThrough(routed);
  }

  private async passThrough(routed: RoutedResponse): Promise<void> {
    await this.pumpUpstream(routed, async (chunk) => {
      this.encodeEvent();
      await this.down.write(chunk);
    });
    await this.responseTrailers(routed);
    this.down.end();
  }

  /**
   * Response trailers end the body: the processor is sent them (trailer mode
   * SEND) and must answer before they go downstream.
   */
  private async responseTrailers(routed: RoutedResponse): Promise<void> {
    const trailers = routed.trailers();
    if (trailers.toProto().length === 0) return;
    if (this.mode.response_trailer_mode === 'SEND' && this.proc.active) {
      this.answer(await this.proc.exchange({ response_trailers: { trailers: { headers: trailers.toProto() } } }, 'response_trailers'));
    }
    this.down.addTrailers(trailers);
  }

  private async bufferedResponse(routed: RoutedResponse, headers: HeaderMap): Promise<void> {
    const parts: Buffer[] = [];
    let size = 0;
    await this.pumpUpstream(routed, async (chunk) => {
      parts.push(chunk);
      size += chunk.length;
      if (this.env.overload) this.held.push(this.env.overload.hold(chunk.length));
    });
    if (size > this.options.bufferLimitBytes) this.ownReply(500, 'response_payload_too_large', '');
    let body: Buffer = Buffer.concat(parts);
    const hasTrailers = routed.trailers().toProto().length > 0;
    if (this.proc.active) {
      const outcome = await this.proc.exchange({ response_body: { body, end_of_stream: hasTrailers ? undefined : true } }, 'response_body');
      const common = this.answer(outcome)?.response_body?.response;
      if (common) body = this.applyBufferedBodyAnswer(common, headers, body, 'response');
    }
    this.encodeEvent();
    if (!this.down.sendHeaders(statusOf(headers, routed.status), headers, routed.details)) throw new Stop();
    this.encodeEvent();
    await this.down.write(body);
    await this.responseTrailers(routed);
    this.proc.close();
    this.down.end();
  }

  /**
   * STREAMED: each chunk is sent at once (pipelined) but reaches the client
   * only after its own answer, in order (reference §2.3).
   */
  private async streamedResponse(routed: RoutedResponse): Promise<void> {
    let delivered: Promise<void> = Promise.resolve();
    /** Bytes sent to the processor and not yet written to the client (flowControl). */
    let backlog = 0;
    const send = (piece: Buffer, endOfStream: boolean): void => {
      const answer = this.proc.exchange({ response_body: { body: piece, end_of_stream: endOfStream ? true : undefined } }, 'response_body');
      backlog += piece.length;
      delivered = delivered.then(async () => {
        try {
          if (this.down.finished) return;
          const out = this.streamedChunkOut(await answer, piece);
          if (out) {
            this.encodeEvent();
            await this.down.write(out);
          }
        } finally {
          backlog -= piece.length;
        }
      });
    };
    let held: Buffer | undefined;
    await this.pumpUpstream(routed, async (data) => {
      for (const piece of this.options.split(data)) {
        if (piece.length === 0) continue;
        if (this.options.emptyFinalChunk) send(piece, false);
        else {
          if (held) send(held, false);
          held = piece;
        }
      }
      // High watermark: stop reading the upstream until what is queued has reached the client.
      if (this.options.flowControl && backlog >= this.options.bufferLimitBytes) await delivered;
    });
    // With trailers the last body chunk carries no end_of_stream; the trailers end the body.
    const hasTrailers = routed.trailers().toProto().length > 0;
    if (held || !hasTrailers) send(held ?? Buffer.alloc(0), !hasTrailers);
    await delivered;
    this.checkStopped();
    await this.responseTrailers(routed);
    this.proc.close();
    this.down.end();
  }

  private streamedChunkOut(outcome: ExchangeOutcome, piece: Buffer): Buffer | undefined {
    try {
      const response = this.answer(outcome);
      if (!response) return piece;
      // Headers are gone already: header mutations and mode overrides in a
      // streamed body answer change nothing.
      const mutation = response.response_body?.response?.body_mutation;
      if (mutation?.mutation === 'body') return mutation.body ?? Buffer.alloc(0);
      if (mutation?.mutation === 'clear_body') return mutation.clear_body ? undefined : piece;
      return piece;
    } catch (err) {
      if (err instanceof Stop) return undefined;
      throw err;
    }
  }

  /** Reads the upstream body; an upstream reset mid-body resets the client. */
  private async pumpUpstream(routed: RoutedResponse, onChunk: (chunk: Buffer) => Promise<void>): Promise<void> {
    try {
      for await (const chunk of routed.body) {
        this.checkStopped();
        this.observeChunk(chunk);
        await onChunk(chunk);
      }
    } catch (err) {
      if (err instanceof Stop) throw err;
      this.down.resetStream('upstream_reset_after_response_started');
      throw new Stop();
    }
    this.checkStopped();
    this.observeEnd(routed);
  }

  /** The observing filter is handed each piece before the deciding filter, and sends it at once. */
  private observeChunk(chunk: Buffer): void {
    const observer = this.observer;
    if (!observer) return;
    for (const piece of this.options.split(chunk)) {
      if (piece.length === 0) continue;
      if (this.options.emptyFinalChunk) observer.responseBody(piece, false);
      else {
        if (this.observerHeld) observer.responseBody(this.observerHeld, false);
        this.observerHeld = piece;
      }
    }
  }

  /** The body's end as the observing filter sees it: end_of_stream on the last chunk, or the trailers. */
  private observeEnd(routed: RoutedResponse): void {
    const observer = this.observer;
    if (!observer) return;
    const trailers = routed.trailers();
    const hasTrailers = trailers.toProto().length > 0;
    const held = this.observerHeld;
    this.observerHeld = undefined;
    if (held || !hasTrailers) observer.responseBody(held ?? Buffer.alloc(0), !hasTrailers);
    if (hasTrailers) observer.responseTrailers(trailers);
  }

  // -------------------------------------------------------------- answers

  /**
   * Unwraps an exchange: the answer, undefined when the processor is no
   * longer consulted, or Stop after replying for an immediate response or a
   * failure.
   */
  private answer(outcome: ExchangeOutcome): ProcessingResponse | undefined {
    this.checkStopped();
    if (outcome.kind === 'gone') return undefined;
    if (outcome.kind === 'failed') {
      this.failClosed(outcome);
      throw new Stop();
    }
    const response = outcome.response;
    this.acceptMetadata(response.dynamic_metadata);
    if (response.response === 'immediate_response') {
      this.immediate(response.immediate_response ?? {});
      throw new Stop();
    }
    const answersHeaders = response.response === 'request_headers' || response.response === 'response_headers';
    if (response.mode_override) {
      if (this.options.allowModeOverride && answersHeaders) this.overrideMode(response);
      else this.stats.mode_overrides_ignored += 1;
    }
    return response;
  }

  private overrideMode(response: ProcessingResponse): void {
    try {
      this.mode = mergeModeOverride(this.mode, response.mode_override ?? {});
      this.stats.mode_overrides_applied += 1;
    } catch (err) {
      if (!(err instanceof UnsupportedModeError)) throw err;
      this.ownReply(500, err.message.replace(/ /g, '_'), '');
    }
  }

  private applyHeadersAnswer(common: CommonResponse, direction: 'request' | 'response', target?: HeaderMap): void {
    const headers = target ?? this.headers;
    const replacing = common.status === 'CONTINUE_AND_REPLACE';
    if (common.header_mutation) this.mutate(headers, common, replacing);
    this.routeCacheFrom(common, direction);
    if (replacing) {
      // The replacement body ends this direction: no body message follows.
      const mutation = common.body_mutation;
      const replacement = mutation?.mutation === 'body' ? (mutation.body ?? Buffer.alloc(0)) : Buffer.alloc(0);
      headers.remove('content-length');
      if (direction === 'request') this.requestBodyReplaced = replacement;
      else this.responseBodyReplaced = replacement;
    }
  }

  /** BUFFERED body answer: headers are still held, so header mutations count. */
  private applyBufferedBodyAnswer(common: CommonResponse, headers: HeaderMap, body: Buffer, direction: 'request' | 'response'): Buffer {
    if (common.header_mutation) this.mutate(headers, common, false);
    this.routeCacheFrom(common, direction);
    const mutation = common.body_mutation;
    if (!mutation) return body;
    const declared = headers.getString('content-length');
    const replacement = mutation.mutation === 'body' ? (mutation.body ?? Buffer.alloc(0)) : Buffer.alloc(0);
    if (declared !== undefined && /^\d+$/.test(declared) && Number(declared) !== replacement.length) {
      this.ownReply(this.options.statusOnError, 'ext_proc_error{mismatch_between_content_length_and_the_length_of_the_mutated_body}', '');
    }
    if (mutation.mutation === 'body') return replacement;
    if (mutation.mutation === 'clear_body' && mutation.clear_body) return Buffer.alloc(0);
    return body;
  }

  private mutate(headers: HeaderMap, common: CommonResponse, replacing: boolean): void {
    const result: MutationResult = applyHeaderMutation(headers, common.header_mutation ?? {}, {
      rules: this.options.mutationRules,
      replacingMessage: replacing,
      onRejected: () => {
        this.stats.rejected_header_mutations += 1;
      },
    });
    if (!result.ok) {
      this.ownReply(this.options.statusOnError, `ext_proc_error{${result.error.replace(/ /g, '_')}}`, '');
    }
  }

  /** clear_route_cache counts only on the request path and only with a header mutation. */
  private routeCacheFrom(common: CommonResponse, direction: 'request' | 'response'): void {
    if (!common.clear_route_cache) return;
    if (direction === 'request' && common.header_mutation) {
      this.routeCleared = true;
      this.stats.route_cache_cleared += 1;
    } else {
      this.stats.clear_route_cache_ignored += 1;
    }
  }

  private acceptMetadata(struct: ProtoStruct | undefined): void {
    for (const [namespace, value] of Object.entries(struct?.fields ?? {})) {
      if (this.options.receivingNamespaces.has(namespace) && value.structValue) {
        this.metadata[namespace] = value.structValue;
      }
    }
  }

  private immediate(reply: ImmediateResponse): void {
    this.stats.immediate_responses += 1;
    this.proc.close();
    this.upstreamAbort.abort();
    const code = statusCodeNumber(reply.status?.code);
    const body = reply.body ?? Buffer.alloc(0);
    const headers = new HeaderMap();
    if (body.length > 0) headers.set('content-type', 'text/plain');
    if (reply.headers) {
      applyHeaderMutation(headers, reply.headers, {
        rules: this.options.mutationRules,
        onRejected: () => {
          this.stats.rejected_header_mutations += 1;
        },
      });
    }
    this.down.localReply(code < 200 ? 200 : code, headers, body, (reply.details ?? '').replace(/ /g, '_'));
  }

  // -------------------------------------------------------------- endings

  /**
   * stop_accepting_requests: once the request headers are decoded, before any
   * filter is created (so the processor never sees the request), Envoy answers
   * 503 "envoy overloaded" with details "overload" and response flag OM
   * (source/common/http/conn_manager_impl.cc ActiveStream::decodeHeaders;
   * test/integration/overload_integration_test.cc expects status and body).
   * A threshold trigger's state is 0 or 1, so every new request is shed.
   */
  private shedIfOverloaded(): void {
    const overload = this.env.overload;
    if (!overload?.isSaturated(ACTIONS.stopAcceptingRequests)) return;
    overload.stats.downstream_rq_overload_close += 1;
    this.req.resume(); // the body is drained, never buffered
    // sendLocalReply sets content-type text/plain for a text body (source/common/http/utility.cc).
    this.down.localReply(503, HeaderMap.fromPairs([['content-type', 'text/plain']]), Buffer.from('envoy overloaded'), 'overload');
    throw new Stop();
  }

  /** A local reply made by the ext_proc filter itself: never shown to the processor. */
  private ownReply(status: number, details: string, text: string): never {
    this.proc.close();
    this.upstreamAbort.abort();
    this.down.localReply(status, new HeaderMap(), Buffer.from(text), details);
    throw new Stop();
  }

  private failClosed(failure: Failure): void {
    this.upstreamAbort.abort();
    this.down.localReply(failure.status, new HeaderMap(), Buffer.alloc(0), failure.details);
  }

  private onClientGone(): void {
    this.stats.downstream_resets += 1;
    this.upstreamAbort.abort();
    // Envoy's onDestroy: the stream is closed, no end_of_stream is ever sent.
    this.proc.close();
    this.observer?.destroy();
  }

  private checkStopped(): void {
    if (this.down.finished) throw new Stop();
  }

  private removeContentLengthIfStreamed(direction: 'request' | 'response', headers: HeaderMap): void {
    // Decided from the mode in force when the headers pass (reference §2.3);
    // a later mode_override does not revisit it.
    const bodyMode = direction === 'request' ? this.mode.request_body_mode : this.mode.response_body_mode;
    const headerMode = direction === 'request' ? this.mode.request_header_mode : this.mode.response_header_mode;
    if (bodyMode === 'STREAMED' || (bodyMode === 'BUFFERED' && headerMode === 'SKIP')) {
      headers.remove('content-length');
    }
  }
}

function requestHeaderMap(req: IncomingMessage, generateRequestId: boolean): HeaderMap {
  const headers = HeaderMap.fromPairs([
    [':authority', req.headers.host ?? ''],
    [':path', req.url ?? '/'],
    [':method', req.method ?? 'GET'],
    [':scheme', 'http'],
  ]);
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] ?? '').toLowerCase();
    if (name === 'host' || isHopByHop(name)) continue;
    headers.add(name, raw[i + 1] ?? '');
  }
  // Added by Envoy's connection manager before any filter sees the request.
  if (!headers.has('x-forwarded-proto')) headers.add('x-forwarded-proto', 'http');
  // Only with generate_request_id (Envoy's default is true; the generated bootstrap sets false).
  if (generateRequestId && !headers.has('x-request-id')) headers.add('x-request-id', randomUUID());
  return headers;
}

function requestHasBody(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = Number(req.headers['content-length'] ?? '0');
  return Number.isFinite(length) && length > 0;
}

function readBody(req: IncomingMessage, onChunk: (chunk: Buffer) => void): Promise<BodyRead> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      parts.push(chunk);
      onChunk(chunk);
    });
    req.on('end', () => {
      const trailers = new HeaderMap();
      const raw = req.rawTrailers;
      for (let i = 0; i + 1 < raw.length; i += 2) trailers.add((raw[i] ?? '').toLowerCase(), raw[i + 1] ?? '');
      resolve({ kind: 'ok', body: Buffer.concat(parts), trailers });
    });
    req.on('error', () => resolve({ kind: 'aborted' }));
    req.on('close', () => {
      if (!req.complete) resolve({ kind: 'aborted' });
    });
    // After a local reply Node no longer ties the request to its socket, so the
    // socket's own close is what ends an upload that will never complete.
    req.socket.once('close', () => {
      if (!req.complete) resolve({ kind: 'aborted' });
    });
  });
}

function statusOf(headers: HeaderMap, fallback: number): number {
  const status = Number(headers.getString(':status'));
  return Number.isInteger(status) && status >= 100 ? status : fallback;
}

/** Envoy's ingress span continues a valid caller traceparent, or starts a trace. */
function envoyTrace(traceparent: string | string[] | undefined): NonNullable<AccessLogEntry['trace']> {
  const match = typeof traceparent === 'string' ? /^00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/.exec(traceparent) : null;
  const valid = match !== null && !/^0+$/.test(match[1] as string) && !/^0+$/.test(match[2] as string);
  return {
    traceId: valid ? (match[1] as string) : randomBytes(16).toString('hex'),
    ingressSpanId: randomBytes(8).toString('hex'),
    extProcSpanId: randomBytes(8).toString('hex'),
  };
}
