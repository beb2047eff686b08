import type { UsageRecord } from '../metering/usage-record.js';
import type { FinishedInfo } from './events.js';
import type { RequestHead } from './types.js';

/**
 * Tracing as the pipeline sees it: a port, implemented at the edge
 * (src/observability/otel). The core never imports an OpenTelemetry package;
 * with tracing off the pipeline holds `null` and every hook is one optional
 * call on null, so the hot path pays nothing measurable.
 */
export interface TracerPort {
  /**
   * Open the request's span. `parent` is the W3C trace context the data plane
   * trusts most (Envoy's, from the ext_proc call); without it the caller's
   * `traceparent` header is continued. Null when this request is not traced.
   */
  startRequest(head: RequestHead, requestId: string, parent: TraceParent | null): RequestTrace | null;
}

export interface TraceParent {
  readonly traceparent: string;
  readonly tracestate?: string | undefined;
}

/** The phases of DESIGN §4 that can take time; each becomes a child span. */
export type TracePhase = 'authenticate' | 'caller_queue' | 'policy' | 'spend' | 'redaction' | 'lease' | 'upstream' | 'stream';

export type TraceAttributes = Readonly<Record<string, string | number | boolean>>;

export interface PhaseSpan {
  event(name: string, attributes?: TraceAttributes): void;
  end(attributes?: TraceAttributes): void;
  /** A `traceparent` value naming this span as the parent (what the provider receives, when allowed). */
  traceparent(): string;
}

export interface RequestTrace {
  readonly traceId: string;
  readonly spanId: string;
  phase(name: TracePhase, attributes?: TraceAttributes): PhaseSpan;
  /**
   * Close the request span (and any phase still open) with what the request
   * produced. Only named, non-secret fields are read from the record.
   */
  end(record: UsageRecord | null, info: FinishedInfo, model: TracedModel | null): void;
}

/** What the trace reports about the model decision (no body, no prompt). */
export interface TracedModel {
  readonly operation: 'chat' | 'count_tokens' | 'models';
  readonly provider: string | null;
  readonly requestModel: string | null;
  readonly responseModel: string | null;
}
