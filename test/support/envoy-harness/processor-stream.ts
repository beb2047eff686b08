/**
 * One ext_proc gRPC stream, driven the way Envoy's filter drives it
 * (reference §2.1, §2.7, §2.8):
 * - opened lazily on the first message; protocol_config rides on that one;
 * - every message expects exactly one answer of the matching kind, in order
 *   (or an immediate_response); anything else is spurious and fails closed;
 * - one message timer, restarted on every send and on every answer while
 *   answers are still owed; expiry is a 504;
 * - override_message_timeout only extends the timer, within max_message_timeout;
 * - a clean close by the processor means "carry on without it"; a gRPC error
 *   means status_on_error; with failure_mode_allow both mean "carry on";
 * - close() is Envoy's closeStreamMaybeGraceful (the last answer, an immediate
 *   response, onDestroy): by default half-close, then reset (the processor sees
 *   CANCELLED; client_impl.cc ProcessorStreamImpl::close); with the runtime key
 *   ext_proc_graceful_grpc_close, half-close and wait for the processor's close,
 *   resetting only when remote_close_timeout_milliseconds runs out
 *   (halfCloseAndDeleteOnRemoteClose). A gRPC error or a message timeout always
 *   closes with the reset (closeStream).
 */
import type * as grpc from '@grpc/grpc-js';
import { Metadata } from '@grpc/grpc-js';
import { openProcessStream, type ProcessClientStream, type ProcessingRequest, type ProcessingResponse, type ProtocolConfiguration } from '../../../src/extproc/proto.js';
import type { EnvoyHarnessStats } from './options.js';

export type AnswerKind = 'request_headers' | 'request_body' | 'request_trailers' | 'response_headers' | 'response_body' | 'response_trailers';

export interface Failure {
  kind: 'failed';
  status: number;
  details: string;
}

export type ExchangeOutcome =
  | { kind: 'answer'; response: ProcessingResponse }
  /** The processor is no longer consulted; continue unmodified. */
  | { kind: 'gone' }
  | Failure;

export interface StreamConfig {
  messageTimeoutMs: number;
  maxMessageTimeoutMs: number;
  failureModeAllow: boolean;
  statusOnError: number;
  protocolConfig: ProtocolConfiguration;
  /** Initial metadata of the gRPC stream (Envoy's tracer puts traceparent here). */
  metadata?: Record<string, string>;
  /** Set when the bootstrap turns on ext_proc_graceful_grpc_close: how long to wait for the processor's close. */
  gracefulCloseMs?: number;
}

interface Owed {
  expected: AnswerKind;
  resolve(outcome: ExchangeOutcome): void;
  timeoutOverridden: boolean;
}

export class ProcessorStream {
  private call: ProcessClientStream | undefined;
  private owed: Owed[] = [];
  private timer: NodeJS.Timeout | undefined;
  private done = false;
  /** The processor's status arrived: nothing is left to wait for or reset. */
  private remoteClosed = false;
  private failure: Failure | undefined;
  private sent = 0;

  constructor(
    private readonly client: grpc.Client,
    private readonly config: StreamConfig,
    private readonly stats: EnvoyHarnessStats,
    /** Told about a failure that arrives while no answer is owed. */
    private readonly onIdleFailure: (failure: Failure) => void,
  ) {}

  /** Whether messages are still sent to the processor. */
  get active(): boolean {
    return !this.done;
  }

  get opened(): boolean {
    return this.call !== undefined;
  }

  exchange(message: ProcessingRequest, expected: AnswerKind): Promise<ExchangeOutcome> {
    if (this.failure) return Promise.resolve(this.failure);
    if (this.done) return Promise.resolve({ kind: 'gone' });
    const call = this.call ?? this.open();
    // Envoy puts protocol_config on the first message of a stream only.
    const outgoing = this.sent === 0 ? { ...message, protocol_config: this.config.protocolConfig } : message;
    this.sent += 1;
    this.stats.stream_msgs_sent += 1;
    call.write(outgoing);
    return new Promise((resolve) => {
      this.owed.push({ expected, resolve, timeoutOverridden: false });
      this.startTimer(this.config.messageTimeoutMs);
    });
  }

  /** Envoy's close (see the header): graceful when configured and `graceful` allows it. Idempotent. */
  close(graceful = true): void {
    if (this.done) return;
    this.done = true;
    this.stopTimer();
    const call = this.call;
    if (call) {
      this.stats.streams_closed += 1;
      call.end();
      const waitMs = graceful ? this.config.gracefulCloseMs : undefined;
      if (waitMs === undefined) call.cancel();
      else if (!this.remoteClosed) {
        const timer = setTimeout(() => {
          this.stats.remote_close_timeouts += 1;
          call.cancel();
        }, waitMs);
        timer.unref();
        call.once('status', () => clearTimeout(timer));
      }
    }
    this.settleAll({ kind: 'gone' });
  }

  private open(): ProcessClientStream {
    const metadata = new Metadata();
    for (const [k, v] of Object.entries(this.config.metadata ?? {})) metadata.set(k, v);
    const call = openProcessStream(this.client, {}, metadata);
    this.call = call;
    this.stats.streams_started += 1;
    call.on('data', (response: ProcessingResponse) => this.onAnswer(response));
    call.on('error', (err: grpc.ServiceError) => {
      if (this.done) return; // our own cancel, or already finished
      this.fail({
        kind: 'failed',
        status: this.config.statusOnError,
        details: `ext_proc_error_gRPC_error_${err.code}{${err.details}}`,
      });
    });
    call.on('status', () => {
      this.remoteClosed = true;
    });
    call.on('end', () => {
      // The processor closed its side cleanly: Envoy stops consulting it.
      if (this.done) return;
      this.done = true;
      this.stopTimer();
      this.stats.streams_closed += 1;
      this.settleAll({ kind: 'gone' });
    });
    return call;
  }

  private onAnswer(response: ProcessingResponse): void {
    this.stats.stream_msgs_received += 1;
    if (this.done) return;
    const head = this.owed[0];
    if (response.override_message_timeout) {
      this.overrideTimeout(response, head);
      return;
    }
    const kind = response.response;
    if (!head || !kind || (kind !== 'immediate_response' && kind !== head.expected)) {
      this.stats.spurious_msgs_received += 1;
      this.fail({
        kind: 'failed',
        status: this.config.statusOnError,
        details: `ext_proc_error_spurious_message{got ${kind ?? 'nothing'}, expected ${head?.expected ?? 'nothing'}}`,
      });
      return;
    }
    this.owed.shift();
    if (this.owed.length > 0) this.startTimer(this.config.messageTimeoutMs);
    else this.stopTimer();
    head.resolve({ kind: 'answer', response });
  }

  private overrideTimeout(response: ProcessingResponse, head: Owed | undefined): void {
    const d = response.override_message_timeout;
    const ms = Number(d?.seconds ?? '0') * 1000 + (d?.nanos ?? 0) / 1e6;
    const max = this.config.maxMessageTimeoutMs;
    if (!head || head.timeoutOverridden || max <= 0 || ms < 1 || ms > max) {
      this.stats.override_message_timeout_ignored += 1;
      return;
    }
    head.timeoutOverridden = true;
    this.stats.override_message_timeout_received += 1;
    this.startTimer(ms);
  }

  private fail(failure: Failure): void {
    const owedAnswer = this.owed.length > 0;
    this.stopTimer();
    if (this.config.failureModeAllow) {
      this.stats.failure_mode_allowed += 1;
      this.close(false);
      return;
    }
    this.stats.streams_failed += 1;
    this.failure = failure;
    this.done = true;
    if (this.call) {
      this.call.end();
      this.call.cancel();
    }
    this.settleAll(failure);
    if (!owedAnswer) this.onIdleFailure(failure);
  }

  private settleAll(outcome: ExchangeOutcome): void {
    const owed = this.owed;
    this.owed = [];
    for (const o of owed) o.resolve(outcome);
  }

  private startTimer(ms: number): void {
    this.stopTimer();
    this.timer = setTimeout(() => {
      this.stats.message_timeouts += 1;
      this.fail({ kind: 'failed', status: 504, details: 'ext_proc_error_per-message_timeout_exceeded' });
    }, ms);
  }

  private stopTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
