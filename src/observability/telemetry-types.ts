// The shapes a process's telemetry takes, apart from the module that starts it: the SDK
// adapter (otel/otel-sdk.ts, loaded on demand by telemetry.ts) implements them without
// importing its own loader back.
import type { TracerPort } from '../pipeline/tracing.js';
import type { GenAiSink } from './genai.js';

/** What a process gets from OpenTelemetry: nulls when nothing is configured. */
export interface Telemetry {
  readonly tracer: TracerPort | null;
  /** Spans for work that is not a request (the operator's reconciles). */
  readonly operations: OperationTracer | null;
  readonly genAi: GenAiSink | null;
  /** Flush what is buffered and stop exporting (bounded by the exporters' timeouts). */
  shutdown(): Promise<void>;
}

export interface OperationSpan {
  end(attributes?: Readonly<Record<string, string | number | boolean>>, error?: unknown): void;
}

export interface OperationTracer {
  start(name: string, attributes: Readonly<Record<string, string | number | boolean>>): OperationSpan;
}
