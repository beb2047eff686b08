/**
 * The observing ext_proc filter: a second ext_proc filter with
 * observability_mode, as Envoy runs it
 * (envoy source/extensions/filters/http/ext_proc/ext_proc.cc):
 * - headers (sendHeadersInObservabilityMode), STREAMED body chunks
 *   (sendDataInObservabilityMode; other body modes send nothing) and trailers
 *   are sent with observability_mode set and the filter chain continues at
 *   once: nothing waits for the processor;
 * - every answer is ignored (onReceiveMessage returns first thing);
 * - the processor closing the stream with OK stops all later sends
 *   (onGrpcClose sets processing_complete_, openStream then IgnoreError);
 *   a gRPC error is a 500 local reply unless failure_mode_allow (onGrpcError);
 * - headers sent are filtered by forward_rules.allowed_headers
 *   (MutationUtils::headersToProto);
 * - when the request ends (onDestroy) the close is deferred by
 *   deferred_close_timeout (default 5000 ms; deferredCloseStream), then it is
 *   Envoy's close: half-close and reset.
 */
import type * as grpc from '@grpc/grpc-js';
import { Metadata } from '@grpc/grpc-js';
import { openProcessStream, type ProcessClientStream, type ProcessingRequest } from '../../../src/extproc/proto.js';
import type { HeaderMap } from './header-map.js';
import type { EnvoyHarnessStats, ObserverFilterOptions } from './options.js';

export class ObserverStream {
  private call: ProcessClientStream | undefined;
  /** processing_complete_: closed by the processor (or failed with failure_mode_allow). */
  private complete = false;
  private closing: NodeJS.Timeout | undefined;
  /** Sent on this stream, in order (for tests). */
  readonly sent: ProcessingRequest[] = [];

  constructor(
    private readonly client: grpc.Client,
    private readonly config: ObserverFilterOptions,
    private readonly stats: EnvoyHarnessStats,
    /** A gRPC error without failure_mode_allow: Envoy's 500 local reply (or a reset once headers are out). */
    private readonly onFailure: (details: string) => void,
  ) {}

  requestHeaders(headers: HeaderMap, endOfStream: boolean): void {
    if (this.config.processingMode.request_header_mode !== 'SEND') return;
    this.send({ request_headers: { headers: { headers: this.forwarded(headers) }, end_of_stream: endOfStream ? true : undefined } });
  }

  responseHeaders(headers: HeaderMap, endOfStream: boolean): void {
    if (this.config.processingMode.response_header_mode !== 'SEND') return;
    this.send({ response_headers: { headers: { headers: this.forwarded(headers) }, end_of_stream: endOfStream ? true : undefined } });
  }

  /**
   * With response headers SKIP and a STREAMED body, encodeHeaders takes the
   * ordinary path and removes content-length (shouldRemoveContentLength);
   * in observability mode with SEND it returns before that.
   */
  removesResponseContentLength(): boolean {
    return this.config.processingMode.response_header_mode === 'SKIP' && this.config.processingMode.response_body_mode === 'STREAMED';
  }

  responseBody(chunk: Buffer, endOfStream: boolean): void {
    if (this.config.processingMode.response_body_mode !== 'STREAMED') return;
    this.send({ response_body: { body: chunk, end_of_stream: endOfStream ? true : undefined } });
  }

  responseTrailers(trailers: HeaderMap): void {
    if (this.config.processingMode.response_trailer_mode !== 'SEND') return;
    this.send({ response_trailers: { trailers: { headers: trailers.toProto() } } });
  }

  /** onDestroy: the close waits deferred_close_timeout so messages in flight still arrive. */
  destroy(): void {
    this.complete = true;
    const call = this.call;
    if (!call || this.closing) return;
    this.closing = setTimeout(() => {
      this.stats.streams_closed += 1;
      call.end();
      call.cancel();
    }, this.config.deferredCloseTimeoutMs);
    this.closing.unref();
  }

  /** Ends a deferred close at once (harness shutdown). */
  closeNow(): void {
    if (this.closing) clearTimeout(this.closing);
    if (this.call && !this.complete) this.call.cancel();
    this.complete = true;
  }

  private forwarded(headers: HeaderMap): ReturnType<HeaderMap['toProto']> {
    const all = headers.toProto();
    const allowed = this.config.allowedHeaders;
    return allowed === undefined ? all : all.filter((h) => allowed.includes((h.key ?? '').toLowerCase()));
  }

  private send(message: ProcessingRequest): void {
    if (this.complete) return;
    const call = this.call ?? this.open();
    const outgoing = { ...message, observability_mode: true };
    this.sent.push(outgoing);
    this.stats.observer_msgs_sent += 1;
    call.write(outgoing);
  }

  private open(): ProcessClientStream {
    const metadata = new Metadata();
    for (const [k, v] of Object.entries(this.config.metadata)) metadata.set(k, v);
    const call = openProcessStream(this.client, {}, metadata);
    this.call = call;
    this.stats.streams_started += 1;
    // Answers are read (HTTP/2 must drain them) and ignored.
    call.on('data', () => undefined);
    call.on('end', () => {
      this.complete = true;
    });
    call.on('error', (err: grpc.ServiceError) => {
      if (this.complete) return;
      this.complete = true;
      if (this.config.failureModeAllow) this.stats.failure_mode_allowed += 1;
      else {
        this.stats.streams_failed += 1;
        this.onFailure(`ext_proc_error_gRPC_error_${err.code}{${err.details}}`);
      }
    });
    return call;
  }
}
