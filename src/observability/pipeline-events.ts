import type { CredentialHealthEvents } from '../credentials/health-monitor.js';
import type { FinishedInfo, PipelineEvents } from '../pipeline/events.js';
import type { UsageRecord } from '../metering/usage-record.js';
import { fixedKeysLogger, type Logger } from './logger.js';
import type { GatewayMetrics } from './metrics.js';
import { genAiObservation, type GenAiSink } from './genai.js';

/** HTTP statuses as label values, made once each: String() of a number allocates. */
const STATUS_LABELS: readonly string[] = Array.from({ length: 600 }, (_, i) => String(i));
const statusLabel = (status: number): string => STATUS_LABELS[status] ?? String(status);

/** Pipeline events → one pino line per request and the Prometheus metrics. Never logs headers, bodies or secrets. */
export function observabilityEvents(logger: Logger, metrics: GatewayMetrics, otlpGenAi: GenAiSink | null = null): PipelineEvents {
  const requestLog = fixedKeysLogger(logger);
  return {
    requestFinished(record: UsageRecord | null, info: FinishedInfo): void {
      const genAi = genAiObservation(record, info);
      if (genAi !== null) {
        metrics.genAi.record(genAi);
        otlpGenAi?.record(genAi);
      }
      const company = info.company ?? '';
      const route = info.route ?? 'none';
      // Label values in each metric's labelNames order (src/observability/metrics.ts).
      metrics.requests.inc(1, company, route, statusLabel(info.status), info.fault ?? '');
      metrics.duration.observe(info.durationMs / 1000, route);
      if (info.ttfbMs !== null) metrics.ttfb.observe(info.ttfbMs / 1000, route);
      if (record && record.fault === null) {
        const provider = record.provider ?? '';
        const model = record.provider_model ?? '';
        metrics.tokens.inc(record.input_tokens, company, provider, model, 'input');
        metrics.tokens.inc(record.output_tokens, company, provider, model, 'output');
        metrics.tokens.inc(record.cache_creation_input_tokens, company, provider, model, 'cache_creation');
        metrics.tokens.inc(record.cache_read_input_tokens, company, provider, model, 'cache_read');
        if (record.cost_usd !== null) metrics.cost.inc(record.cost_usd, company, provider, model);
      }
      requestLog.info(
        {
          request_id: info.requestId,
          method: info.method,
          route: info.route,
          status: info.status,
          fault: info.fault,
          address: info.address,
          model: record?.model ?? null,
          provider: record?.provider ?? null,
          credential: record?.credential ?? null,
          input_tokens: record?.input_tokens,
          output_tokens: record?.output_tokens,
          cost_usd: record?.cost_usd,
          duration_ms: info.durationMs,
          ttfb_ms: info.ttfbMs,
          outcome: info.outcome,
          // Joins the line to its trace; absent (undefined) when the request is not traced.
          trace_id: info.traceId ?? undefined,
          span_id: info.spanId ?? undefined,
        },
        'request',
      );
    },
    seatWindowExhausted(company, credential, window, resetAt) {
      metrics.seatExhausted.inc({ company, credential, window });
      logger.warn({ company, credential, window, reset_at: resetAt === null ? null : new Date(resetAt).toISOString() }, 'seat window exhausted');
    },
    redaction(company, countsByRule) {
      for (const [rule, n] of Object.entries(countsByRule)) metrics.redactions.inc({ company, rule }, n);
    },
    leaseChanged(company, credential, delta) {
      metrics.leasesInUse.add(delta, company, credential);
    },
    stateError(operation, error) {
      metrics.stateErrors.inc({ operation });
      logger.error({ operation, err: error instanceof Error ? { type: error.name, message: error.message } : String(error) }, 'state operation failed');
    },
  };
}

/** Credential health decisions → logs and metrics. Never logs the key. */
export function credentialHealthEvents(logger: Logger, metrics: GatewayMetrics): CredentialHealthEvents {
  return {
    confirmed(company, credential, status) {
      metrics.credentialUnhealthy.inc({ company, credential });
      logger.warn({ company, credential, upstream_status: status }, "credential marked unhealthy: the provider rejected it on the gateway's key check");
    },
    recovered(company, credential) {
      metrics.credentialRecovered.inc({ company, credential });
      logger.info({ company, credential }, 'credential healthy again: the provider accepted it on a recovery probe');
    },
    unconfirmed(company, credential, callerStatus, check) {
      metrics.credentialUnconfirmed.inc({ company, credential });
      logger.info(
        { company, credential, upstream_status: callerStatus, key_check: check.verdict, key_check_status: check.status },
        'a caller got 401/403 but the key check did not confirm it: credential stays healthy',
      );
    },
    error(operation, error) {
      logger.error({ operation, detail: error instanceof Error ? error.message : String(error) }, 'credential health check failed');
    },
  };
}
