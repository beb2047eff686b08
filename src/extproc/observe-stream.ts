import type { ProcessingRequest } from './proto.js';
import type { ProcessCall } from './process-call.js';
import { OBSERVE_ID_HEADER } from '../envoy/observe.js';

/** What an observing stream feeds: the deciding stream of the same request (ProcessStream). */
export interface ObservedRequest {
  /** Takes the observer; false when the request no longer wants one (decided, finished, or taken). */
  attachObserver(observer: ObserverStream): boolean;
  observedChunk(chunk: Buffer | Uint8Array | undefined, endOfStream: boolean): void;
  /** The response ended with trailers (no chunk carried end_of_stream). */
  observedEnd(): void;
  /** The observing stream closed before the response's end: the caller or the upstream went away. */
  observerGone(observer: ObserverStream): void;
}

/** Deciding streams by the OBSERVE_ID_HEADER value they set; the server holds one. */
export type ObserveRegistry = Map<string, ObservedRequest>;

function observeId(message: ProcessingRequest): string | undefined {
  for (const h of message.request_headers?.headers?.headers ?? []) {
    if ((h.key ?? '').toLowerCase() !== OBSERVE_ID_HEADER) continue;
    const raw = h.raw_value;
    return raw !== undefined ? Buffer.from(raw).toString('latin1') : h.value;
  }
  return undefined;
}

/**
 * One stream of the observing ext_proc filter (observability_mode): Envoy
 * sends and never waits, and ignores whatever comes back, so nothing is ever
 * written here. The stream ends with OK as soon as it has nothing to give:
 * Envoy then stops sending on it (Filter::onGrpcClose sets processing_complete_,
 * and openStream answers IgnoreError to every later send; ext_proc.cc).
 * Never with an error: that would be a 500 to the caller unless the filter
 * has failure_mode_allow (Filter::onGrpcError).
 */
export class ObserverStream {
  private target: ObservedRequest | null = null;
  private done = false;

  constructor(
    private readonly call: ProcessCall,
    private readonly registry: ObserveRegistry,
    private readonly onDone: (stream: ObserverStream) => void,
  ) {
    call.on('data', (message: ProcessingRequest) => this.receive(message));
    const gone = (): void => {
      const target = this.target;
      this.close();
      target?.observerGone(this);
    };
    call.on('end', gone);
    call.on('cancelled', gone);
    call.on('error', gone);
  }

  /** Ends the stream (OK): Envoy sends nothing more on it. */
  release(): void {
    this.close();
  }

  private close(): void {
    if (this.done) return;
    this.done = true;
    this.target = null;
    this.onDone(this);
    if (!this.call.destroyed && !this.call.writableEnded) this.call.end();
  }

  private receive(message: ProcessingRequest): void {
    if (this.done) return;
    const target = this.target;
    switch (message.request) {
      case 'request_headers': {
        const id = observeId(message);
        const found = id === undefined ? undefined : this.registry.get(id);
        if (target !== null || found === undefined || !found.attachObserver(this)) {
          this.close();
          return;
        }
        this.target = found;
        return;
      }
      case 'response_body':
        if (target === null) this.close();
        else target.observedChunk(message.response_body?.body, message.response_body?.end_of_stream === true);
        return;
      case 'response_trailers':
        if (target === null) this.close();
        else target.observedEnd();
        return;
      default:
        // Response headers: the deciding stream has them, answered. Anything else is not sent in this mode.
        if (target === null) this.close();
    }
  }
}
