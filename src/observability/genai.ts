import type { FinishedInfo } from '../pipeline/events.js';
import type { UsageRecord } from '../metering/usage-record.js';
import { isProviderName, PROVIDER_INFO } from '../models/providers.js';

/**
 * One request in the terms of the OpenTelemetry GenAI semantic conventions,
 * computed once and fed to both the Prometheus registry and, when
 * configured, the OTLP meter. Only the usage record's named fields are read.
 */
export interface GenAiObservation {
  readonly operation: string;
  readonly provider: string;
  readonly requestModel: string;
  readonly responseModel: string;
  /** The gateway fault, or the provider's status class; null on success. */
  readonly errorType: string | null;
  /** Token counts; null when the request produced no usage (a gateway error). */
  readonly inputTokens: number | null;
  readonly outputTokens: number | null;
  readonly durationS: number;
  readonly timeToFirstTokenS: number | null;
  readonly timePerOutputTokenS: number | null;
}

/** Where the conventions' gen_ai.provider.name has a well-known value, it is used. */
export function genAiProviderName(provider: string | null): string {
  if (provider === null) return '_OTHER';
  return isProviderName(provider) ? PROVIDER_INFO[provider].genAiName : provider;
}

export function genAiObservation(record: UsageRecord | null, info: FinishedInfo): GenAiObservation | null {
  if (record === null) return null;
  const operation = record.endpoint === 'messages' ? 'chat' : 'count_tokens';
  const failed = record.fault !== null || record.status >= 400 || record.outcome !== 'complete';
  const errorType = record.fault ?? (record.status >= 400 ? String(record.status) : record.outcome !== 'complete' ? record.outcome : null);
  const durationS = record.duration_ms / 1000;
  // The first relayed event of a stream stands for the first token: the gateway never parses content.
  const ttft = record.stream && !failed && record.ttfb_ms !== null ? record.ttfb_ms / 1000 : null;
  const tpot = ttft !== null && record.output_tokens > 1 ? Math.max(0, durationS - ttft) / (record.output_tokens - 1) : null;
  return {
    operation,
    provider: genAiProviderName(record.provider),
    requestModel: record.model ?? '',
    responseModel: info.responseModel ?? record.provider_model ?? '',
    errorType,
    inputTokens: record.fault === null ? record.input_tokens + record.cache_creation_input_tokens + record.cache_read_input_tokens : null,
    outputTokens: record.fault === null ? record.output_tokens : null,
    durationS,
    timeToFirstTokenS: ttft,
    timePerOutputTokenS: tpot,
  };
}

/** Receives each observation; the OTLP meter implements it when metrics export is on. */
export interface GenAiSink {
  record(observation: GenAiObservation): void;
}

/** Bucket boundaries the conventions advise for each instrument. */
export const GENAI_BUCKETS = {
  tokens: [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864],
  duration: [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92],
  timeToFirstToken: [0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10],
  timePerOutputToken: [0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1, 2.5],
} as const;
