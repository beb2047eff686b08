import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { GENAI_BUCKETS, type GenAiObservation, type GenAiSink } from './genai.js';
import { CounterCells, GaugeCells, HistogramCells } from './metric-cells.js';

/**
 * Label names of the GenAI instruments: the conventions' attribute names with
 * dots as underscores, as the OpenTelemetry-to-Prometheus rules spell them.
 */
const GENAI_LABELS = ['gen_ai_operation_name', 'gen_ai_provider_name', 'gen_ai_request_model', 'gen_ai_response_model'] as const;

/** Every metric the gateway exports, on one registry per process. */
export class GatewayMetrics {
  readonly registry = new Registry();
  readonly requests = new CounterCells({
    name: 'gw_requests_total',
    help: 'Requests by route, status and gateway fault (fault="" for relayed provider answers).',
    labelNames: ['company', 'route', 'status', 'fault'],
    registers: [this.registry],
  });
  readonly tokens = new CounterCells({
    name: 'gw_tokens_total',
    help: 'Tokens metered, by company, provider, model and kind (input, output, cache_creation, cache_read).',
    labelNames: ['company', 'provider', 'model', 'kind'] as const,
    registers: [this.registry],
  });
  readonly cost = new CounterCells({
    name: 'gw_cost_usd_total',
    help: 'Cost in USD by company, provider and model.',
    labelNames: ['company', 'provider', 'model'] as const,
    registers: [this.registry],
  });
  readonly duration = new HistogramCells({
    name: 'gw_request_duration_seconds',
    help: 'Whole request duration, from its head to its last byte.',
    labelNames: ['route'] as const,
    buckets: [0.005, 0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
    registers: [this.registry],
  });
  readonly ttfb = new HistogramCells({
    name: 'gw_time_to_first_byte_seconds',
    help: 'Time from the request head to the first relayed response byte.',
    labelNames: ['route'] as const,
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  readonly inFlight = new Gauge({
    name: 'gw_requests_in_flight',
    help: 'Requests being served right now.',
    registers: [this.registry],
  });
  readonly idleCollections = new Counter({
    name: 'gw_idle_collections_total',
    help: 'Full garbage collections run because nothing had been in flight for GW_IDLE_COLLECT_AFTER_MS: V8 gives back the heap a burst of requests grew.',
    registers: [this.registry],
  });
  readonly leasesInUse = new GaugeCells({
    name: 'gw_credential_leases_in_use',
    help: 'Credential leases this process holds right now (sum over processes for the pool).',
    labelNames: ['company', 'credential'] as const,
    registers: [this.registry],
  });
  readonly unreadableRecords = new Counter({
    name: 'gw_state_unreadable_records_total',
    help: 'Records read from Redis that this build refused: reason="newer" (a schema version newer than it reads; upgrade it) or "invalid". The read failed closed.',
    labelNames: ['record', 'reason'] as const,
    registers: [this.registry],
  });
  readonly credentialUnhealthy = new Counter({
    name: 'gw_credential_unhealthy_total',
    help: "Times the provider rejected a credential on the gateway's own key check (401/403) and it was marked unhealthy.",
    labelNames: ['company', 'credential'] as const,
    registers: [this.registry],
  });
  readonly credentialRecovered = new Counter({
    name: 'gw_credential_recovered_total',
    help: 'Times a recovery probe found a rejected credential accepted again and marked it healthy.',
    labelNames: ['company', 'credential'] as const,
    registers: [this.registry],
  });
  readonly credentialUnconfirmed = new Counter({
    name: 'gw_credential_rejection_unconfirmed_total',
    help: "Times a caller's request got 401/403 from the provider but the gateway's key check did not confirm the key was rejected.",
    labelNames: ['company', 'credential'] as const,
    registers: [this.registry],
  });
  readonly seatExhausted = new Counter({
    name: 'gw_seat_window_exhausted_total',
    help: 'Times a subscription seat reported an exhausted window.',
    labelNames: ['company', 'credential', 'window'] as const,
    registers: [this.registry],
  });
  readonly redactions = new Counter({
    name: 'gw_redactions_total',
    help: 'Credentials replaced in request bodies, by rule.',
    labelNames: ['company', 'rule'] as const,
    registers: [this.registry],
  });
  readonly redactionScanSeconds = new Histogram({
    name: 'gw_redaction_scan_seconds',
    help: 'Time from handing a request body to the secret scan until it comes back redacted (inline, or in a worker thread for large bodies).',
    labelNames: ['where'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
    registers: [this.registry],
  });
  readonly stateErrors = new Counter({
    name: 'gw_state_errors_total',
    help: 'Failed state operations, by operation.',
    labelNames: ['operation'] as const,
    registers: [this.registry],
  });

  /*
   * The GenAI semantic-convention instruments under their Prometheus names
   * (unit suffix _seconds for "s"; the annotation unit {token} adds none).
   */
  readonly genAiTokenUsage = new HistogramCells({
    name: 'gen_ai_client_token_usage',
    help: 'gen_ai.client.token.usage: tokens per request, by token type (input counts cache reads and writes).',
    labelNames: [...GENAI_LABELS, 'gen_ai_token_type'] as const,
    buckets: [...GENAI_BUCKETS.tokens],
    registers: [this.registry],
  });
  readonly genAiDuration = new HistogramCells({
    name: 'gen_ai_server_request_duration_seconds',
    help: 'gen_ai.server.request.duration: whole request, head to last byte.',
    labelNames: [...GENAI_LABELS, 'error_type'] as const,
    buckets: [...GENAI_BUCKETS.duration],
    registers: [this.registry],
  });
  readonly genAiTimeToFirstToken = new HistogramCells({
    name: 'gen_ai_server_time_to_first_token_seconds',
    help: 'gen_ai.server.time_to_first_token: successful streams, to the first relayed event.',
    labelNames: GENAI_LABELS,
    buckets: [...GENAI_BUCKETS.timeToFirstToken],
    registers: [this.registry],
  });
  readonly genAiTimePerOutputToken = new HistogramCells({
    name: 'gen_ai_server_time_per_output_token_seconds',
    help: 'gen_ai.server.time_per_output_token: successful streams, time after the first token per further output token.',
    labelNames: GENAI_LABELS,
    buckets: [...GENAI_BUCKETS.timePerOutputToken],
    registers: [this.registry],
  });

  /** The Prometheus side of the GenAI instruments. */
  readonly genAi: GenAiSink = {
    record: (o: GenAiObservation): void => {
      // Label values in GENAI_LABELS' order, then the instrument's own.
      const { operation: op, provider, requestModel, responseModel } = o;
      if (o.inputTokens !== null) this.genAiTokenUsage.observe(o.inputTokens, op, provider, requestModel, responseModel, 'input');
      if (o.outputTokens !== null) this.genAiTokenUsage.observe(o.outputTokens, op, provider, requestModel, responseModel, 'output');
      this.genAiDuration.observe(o.durationS, op, provider, requestModel, responseModel, o.errorType ?? '');
      if (o.timeToFirstTokenS !== null) this.genAiTimeToFirstToken.observe(o.timeToFirstTokenS, op, provider, requestModel, responseModel);
      if (o.timePerOutputTokenS !== null) this.genAiTimePerOutputToken.observe(o.timePerOutputTokenS, op, provider, requestModel, responseModel);
    },
  };

  constructor(defaults = true) {
    if (defaults) collectDefaultMetrics({ register: this.registry });
  }
}
