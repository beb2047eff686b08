import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api';
import type { UsageRecord } from '../../metering/usage-record.js';
import type { FinishedInfo } from '../../pipeline/events.js';
import type { PhaseSpan, RequestTrace, TraceAttributes, TracedModel, TracePhase } from '../../pipeline/tracing.js';
import { genAiProviderName } from '../genai.js';

/** Span names of the phases, under the gateway's own namespace. */
const PHASE_NAMES: Readonly<Record<TracePhase, string>> = {
  authenticate: 'gw.authenticate',
  caller_queue: 'gw.caller_queue',
  policy: 'gw.policy',
  spend: 'gw.spend',
  redaction: 'gw.redaction',
  lease: 'gw.lease',
  upstream: 'gw.upstream',
  stream: 'gw.stream',
};

function traceparentOf(span: Span): string {
  const c = span.spanContext();
  return `00-${c.traceId}-${c.spanId}-${(c.traceFlags & 1) === 1 ? '01' : '00'}`;
}

class Phase implements PhaseSpan {
  constructor(
    private readonly span: Span,
    private readonly open: Set<Phase>,
  ) {}

  event(name: string, attributes?: TraceAttributes): void {
    this.span.addEvent(name, attributes as Attributes | undefined);
  }

  end(attributes?: TraceAttributes): void {
    if (!this.open.delete(this)) return;
    if (attributes) this.span.setAttributes(attributes as Attributes);
    this.span.end();
  }

  /** Ended by the request's end, not by its phase: the request stopped inside it. */
  abandon(): void {
    this.span.setAttribute('gw.phase.unfinished', true);
    this.span.end();
  }

  traceparent(): string {
    return traceparentOf(this.span);
  }
}

/**
 * One request's spans. Attributes come from named fields only: never a
 * header, a body, a prompt, a token or a key.
 */
export class OtelRequestTrace implements RequestTrace {
  readonly traceId: string;
  readonly spanId: string;
  private readonly context: Context;
  private readonly open = new Set<Phase>();

  constructor(
    private readonly tracer: Tracer,
    private readonly root: Span,
  ) {
    const c = root.spanContext();
    this.traceId = c.traceId;
    this.spanId = c.spanId;
    this.context = trace.setSpan(ROOT_CONTEXT, root);
  }

  phase(name: TracePhase, attributes?: TraceAttributes): PhaseSpan {
    const kind = name === 'upstream' ? SpanKind.CLIENT : SpanKind.INTERNAL;
    const span = this.tracer.startSpan(PHASE_NAMES[name], { kind, ...(attributes ? { attributes: attributes as Attributes } : {}) }, this.context);
    const phase = new Phase(span, this.open);
    this.open.add(phase);
    return phase;
  }

  end(record: UsageRecord | null, info: FinishedInfo, model: TracedModel | null): void {
    for (const phase of [...this.open]) phase.abandon();
    this.open.clear();
    const root = this.root;
    const a: Attributes = {
      'http.response.status_code': info.status,
      'gw.outcome': info.outcome,
    };
    if (info.company !== null) a['gw.company'] = info.company;
    if (info.address !== null) a['gw.caller.address'] = info.address;
    if (info.fault !== null) {
      a['gw.fault'] = info.fault;
      a['error.type'] = info.fault;
    }
    if (info.route !== null) a['gw.route'] = info.route;
    if (model !== null) {
      a['gen_ai.operation.name'] = model.operation;
      a['gen_ai.provider.name'] = genAiProviderName(model.provider);
      if (model.requestModel !== null) a['gen_ai.request.model'] = model.requestModel;
      if (model.responseModel !== null) a['gen_ai.response.model'] = model.responseModel;
      root.updateName(model.requestModel !== null ? `${model.operation} ${model.requestModel}` : model.operation);
    } else {
      root.updateName(`${info.method} ${info.route ?? 'unrouted'}`);
    }
    if (record !== null) {
      if (record.credential !== null) a['gw.credential'] = record.credential;
      a['gw.stream'] = record.stream;
      if (record.fault === null) {
        a['gen_ai.usage.input_tokens'] = record.input_tokens + record.cache_creation_input_tokens + record.cache_read_input_tokens;
        a['gen_ai.usage.output_tokens'] = record.output_tokens;
        a['gen_ai.usage.cache_read.input_tokens'] = record.cache_read_input_tokens;
        a['gen_ai.usage.cache_creation.input_tokens'] = record.cache_creation_input_tokens;
        if (record.cost_usd !== null) a['gw.cost_usd'] = record.cost_usd;
      }
      if (record.repo !== undefined) a['gw.repo'] = record.repo;
      if (record.application !== undefined) a['gw.application'] = record.application;
    }
    root.setAttributes(a);
    if (info.fault !== null || info.status >= 500 || (info.outcome !== 'complete' && info.outcome !== 'client_disconnect')) {
      root.setStatus({ code: SpanStatusCode.ERROR, message: info.fault ?? info.outcome });
    }
    root.end();
  }
}
