import type { OtelConfig } from '../config/otel-config.js';
import type { Logger } from './logger.js';
import type { Telemetry } from './telemetry-types.js';

export type { OperationSpan, OperationTracer, Telemetry } from './telemetry-types.js';

export const TELEMETRY_OFF: Telemetry = Object.freeze({ tracer: null, operations: null, genAi: null, shutdown: async () => {} });

/**
 * Loads the OpenTelemetry SDK only when an endpoint is configured: off (the
 * default), not one of its modules is imported, and the pipeline holds a null
 * tracer.
 */
export async function startTelemetry(config: OtelConfig, logger: Logger): Promise<Telemetry> {
  if (config.traces === null && config.metrics === null) return TELEMETRY_OFF;
  const { startOtelSdk } = await import('./otel/otel-sdk.js');
  const telemetry = await startOtelSdk(config, logger);
  logger.info(
    {
      traces: config.traces ? { url: config.traces.url, protocol: config.traces.protocol } : null,
      metrics: config.metrics ? { url: config.metrics.url, protocol: config.metrics.protocol } : null,
      sampler: config.sampler,
      service: config.serviceName,
    },
    'opentelemetry export on',
  );
  return telemetry;
}
