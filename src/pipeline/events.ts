import type { UsageRecord } from '../metering/usage-record.js';

/** What the pipeline reports to observability (logs, metrics); implemented at the edge. */
export interface PipelineEvents {
  requestFinished(record: UsageRecord | null, info: FinishedInfo): void;
  seatWindowExhausted(company: string, credential: string, window: string, resetAt: number | null): void;
  redaction(company: string, countsByRule: Readonly<Record<string, number>>, requestId: string, trace?: TraceIds | null): void;
  stateError(operation: string, error: unknown): void;
  /** A lease was taken (+1) or given back (-1) by this process. */
  leaseChanged(company: string, credential: string, delta: 1 | -1): void;
}

export interface FinishedInfo {
  readonly requestId: string;
  readonly route: string | null;
  readonly method: string;
  readonly status: number;
  readonly fault: string | null;
  readonly company: string | null;
  readonly address: string | null;
  readonly durationMs: number;
  readonly ttfbMs: number | null;
  readonly outcome: string;
  /** The request's trace, so its log line joins the trace; null when not traced. */
  readonly traceId: string | null;
  readonly spanId: string | null;
  /** The model the provider says answered (gen_ai.response.model). */
  readonly responseModel: string | null;
}

export interface TraceIds {
  readonly traceId: string;
  readonly spanId: string;
}
