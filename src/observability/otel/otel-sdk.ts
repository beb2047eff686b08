/**
 * The OpenTelemetry SDK behind the pipeline's tracing port and the GenAI
 * instruments. Imported only by startTelemetry, and only when an endpoint is
 * configured. No global provider or context manager is registered: spans are
 * parented explicitly, so nothing else in the process is instrumented by
 * accident and no async-hooks context tracking runs.
 */
import { readFileSync } from 'node:fs';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, defaultTextMapGetter, diag, type Attributes, type DiagLogger } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { MeterProvider, PeriodicExportingMetricReader, type PushMetricExporter } from '@opentelemetry/sdk-metrics';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type Sampler,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import type { OtelConfig, OtlpExport } from '../../config/otel-config.js';
import type { RequestHead } from '../../pipeline/types.js';
import type { RequestTrace, TraceParent, TracerPort } from '../../pipeline/tracing.js';
import { GENAI_BUCKETS, type GenAiObservation, type GenAiSink } from '../genai.js';
import type { Logger } from '../logger.js';
import type { OperationTracer, Telemetry } from '../telemetry-types.js';
import { OtelRequestTrace } from './request-trace.js';

const SCOPE = 'model-gateway';

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

function sampler(config: OtelConfig): Sampler {
  const ratio = new TraceIdRatioBasedSampler(config.samplerRatio);
  switch (config.sampler) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return ratio;
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: ratio });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

async function grpcOptions(e: OtlpExport): Promise<Record<string, unknown>> {
  const grpc = await import('@grpc/grpc-js');
  const metadata = new grpc.Metadata();
  for (const [k, v] of Object.entries(e.headers)) metadata.set(k, v);
  const credentials = e.insecure
    ? grpc.credentials.createInsecure()
    : grpc.credentials.createSsl(e.ca === null ? null : Buffer.from(e.ca), e.clientKey === null ? null : Buffer.from(e.clientKey), e.clientCert === null ? null : Buffer.from(e.clientCert));
  return { url: e.url, metadata, credentials, timeoutMillis: e.timeoutMs, compression: e.compression };
}

function httpOptions(e: OtlpExport): Record<string, unknown> {
  const tls = { ...(e.ca !== null ? { ca: e.ca } : {}), ...(e.clientCert !== null ? { cert: e.clientCert } : {}), ...(e.clientKey !== null ? { key: e.clientKey } : {}) };
  return { url: e.url, headers: { ...e.headers }, timeoutMillis: e.timeoutMs, compression: e.compression, httpAgentOptions: { keepAlive: true, ...tls } };
}

async function traceExporter(e: OtlpExport): Promise<SpanExporter> {
  switch (e.protocol) {
    case 'grpc': {
      const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-grpc');
      return new OTLPTraceExporter(await grpcOptions(e));
    }
    case 'http/json': {
      const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
      return new OTLPTraceExporter(httpOptions(e));
    }
    default: {
      const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto');
      return new OTLPTraceExporter(httpOptions(e));
    }
  }
}

async function metricExporter(e: OtlpExport): Promise<PushMetricExporter> {
  switch (e.protocol) {
    case 'grpc': {
      const { OTLPMetricExporter } = await import('@opentelemetry/exporter-metrics-otlp-grpc');
      return new OTLPMetricExporter(await grpcOptions(e));
    }
    case 'http/json': {
      const { OTLPMetricExporter } = await import('@opentelemetry/exporter-metrics-otlp-http');
      return new OTLPMetricExporter(httpOptions(e));
    }
    default: {
      const { OTLPMetricExporter } = await import('@opentelemetry/exporter-metrics-otlp-proto');
      return new OTLPMetricExporter(httpOptions(e));
    }
  }
}

/** The SDK's own complaints (export failures, say) go to our log, rate-limited, without payloads. */
function diagnostics(logger: Logger): DiagLogger {
  let last = 0;
  const warn = (message: string): void => {
    if (Date.now() - last < 10_000) return;
    last = Date.now();
    logger.warn({ detail: message.slice(0, 300) }, 'opentelemetry export problem');
  };
  return { error: warn, warn, info: () => {}, debug: () => {}, verbose: () => {} };
}

class SdkTracer implements TracerPort {
  private readonly propagator = new W3CTraceContextPropagator();

  constructor(private readonly provider: BasicTracerProvider) {}

  startRequest(head: RequestHead, requestId: string, parent: TraceParent | null): RequestTrace {
    const carrier = parent ?? { traceparent: head.headers.traceparent, tracestate: head.headers.tracestate };
    // An invalid or absent traceparent yields the root context: a new trace, never an error.
    const context = carrier.traceparent === undefined ? ROOT_CONTEXT : this.propagator.extract(ROOT_CONTEXT, carrier, defaultTextMapGetter);
    const tracer = this.provider.getTracer(SCOPE);
    const queryAt = head.path.indexOf('?');
    const attributes: Attributes = {
      'http.request.method': head.method.slice(0, 16),
      'url.path': (queryAt === -1 ? head.path : head.path.slice(0, queryAt)).slice(0, 200),
      'gw.request_id': requestId,
    };
    const root = tracer.startSpan('gw.request', { kind: SpanKind.SERVER, attributes }, context);
    return new OtelRequestTrace(tracer, root);
  }
}

function operations(provider: BasicTracerProvider): OperationTracer {
  const tracer = provider.getTracer(SCOPE);
  return {
    start(name, attributes) {
      const span = tracer.startSpan(name, { kind: SpanKind.INTERNAL, attributes: attributes as Attributes }, ROOT_CONTEXT);
      return {
        end(more, error) {
          if (more) span.setAttributes(more as Attributes);
          if (error !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'error' });
          span.end();
        },
      };
    },
  };
}

function otlpGenAi(provider: MeterProvider): GenAiSink {
  const meter = provider.getMeter(SCOPE);
  const tokens = meter.createHistogram('gen_ai.client.token.usage', {
    unit: '{token}',
    description: 'Tokens per request, by token type.',
    advice: { explicitBucketBoundaries: [...GENAI_BUCKETS.tokens] },
  });
  const duration = meter.createHistogram('gen_ai.server.request.duration', {
    unit: 's',
    description: 'Whole request duration.',
    advice: { explicitBucketBoundaries: [...GENAI_BUCKETS.duration] },
  });
  const ttft = meter.createHistogram('gen_ai.server.time_to_first_token', {
    unit: 's',
    description: 'Time to the first relayed event of a successful stream.',
    advice: { explicitBucketBoundaries: [...GENAI_BUCKETS.timeToFirstToken] },
  });
  const tpot = meter.createHistogram('gen_ai.server.time_per_output_token', {
    unit: 's',
    description: 'Time per output token after the first, successful streams.',
    advice: { explicitBucketBoundaries: [...GENAI_BUCKETS.timePerOutputToken] },
  });
  return {
    record(o: GenAiObservation): void {
      const a: Attributes = {
        'gen_ai.operation.name': o.operation,
        'gen_ai.provider.name': o.provider,
        'gen_ai.request.model': o.requestModel,
        'gen_ai.response.model': o.responseModel,
      };
      if (o.inputTokens !== null) tokens.record(o.inputTokens, { ...a, 'gen_ai.token.type': 'input' });
      if (o.outputTokens !== null) tokens.record(o.outputTokens, { ...a, 'gen_ai.token.type': 'output' });
      duration.record(o.durationS, o.errorType === null ? a : { ...a, 'error.type': o.errorType });
      if (o.timeToFirstTokenS !== null) ttft.record(o.timeToFirstTokenS, a);
      if (o.timePerOutputTokenS !== null) tpot.record(o.timePerOutputTokenS, a);
    },
  };
}

export async function startOtelSdk(config: OtelConfig, logger: Logger): Promise<Telemetry> {
  diag.setLogger(diagnostics(logger));
  const resource = resourceFromAttributes({
    ...config.resourceAttributes,
    'service.name': config.serviceName,
    'service.version': packageVersion(),
  });
  let tracerProvider: BasicTracerProvider | null = null;
  if (config.traces !== null) {
    tracerProvider = new BasicTracerProvider({
      resource,
      sampler: sampler(config),
      spanProcessors: [new BatchSpanProcessor(await traceExporter(config.traces))],
    });
  }
  let meterProvider: MeterProvider | null = null;
  if (config.metrics !== null) {
    meterProvider = new MeterProvider({
      resource,
      readers: [
        new PeriodicExportingMetricReader({
          exporter: await metricExporter(config.metrics),
          exportIntervalMillis: config.metricIntervalMs,
          exportTimeoutMillis: Math.min(config.metrics.timeoutMs, config.metricIntervalMs),
        }),
      ],
    });
  }
  return {
    tracer: tracerProvider === null ? null : new SdkTracer(tracerProvider),
    operations: tracerProvider === null ? null : operations(tracerProvider),
    genAi: meterProvider === null ? null : otlpGenAi(meterProvider),
    async shutdown(): Promise<void> {
      await Promise.allSettled([tracerProvider?.shutdown(), meterProvider?.shutdown()]);
    },
  };
}
