import { describe, expect, it } from 'vitest';
import { CENSORED_PATHS, createLogger } from '../../../src/observability/logger.js';
import { GatewayMetrics } from '../../../src/observability/metrics.js';
import { observabilityEvents } from '../../../src/observability/pipeline-events.js';
import type { FinishedInfo } from '../../../src/pipeline/events.js';
import { usageRecord } from '../../support/usage-records.js';

function capture(): { lines: Array<Record<string, unknown>>; destination: { write(line: string): void } } {
  const lines: Array<Record<string, unknown>> = [];
  return { lines, destination: { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) } };
}

const info: FinishedInfo = {
  requestId: 'req_1',
  route: 'messages',
  method: 'POST',
  status: 200,
  fault: null,
  company: 'acme',
  address: 'alice@acme.example',
  durationMs: 12,
  ttfbMs: 3,
  outcome: 'complete',
  traceId: '0af7651916cd43dd8448eb211c80319c',
  spanId: 'b7ad6b7169203331',
  responseModel: 'claude-sonnet-4-5-20250929',
};

describe('the request line', () => {
  it('has no key a censored path names and no nested object, so writing it without the censoring changes nothing', () => {
    const { lines, destination } = capture();
    const events = observabilityEvents(createLogger('info', destination), new GatewayMetrics(false));
    events.requestFinished(usageRecord('acme', 0, { repo: 'github.com/acme/a', application: 'app', end_user: 'u1', redactions: { 'anthropic-api-key': 1 } }), info);
    events.requestFinished(null, { ...info, status: 401, fault: 'unauthenticated', traceId: null, spanId: null });
    expect(lines).toHaveLength(2);
    // A path's first step is a key the line must not have; a wildcard first step matches any key whose value is an object.
    const firstSteps = CENSORED_PATHS.map((p) => /^[^.[]+/.exec(p)?.[0] as string);
    for (const line of lines) {
      expect(line.msg).toBe('request');
      expect(line.svc).toBe('gw');
      for (const [key, value] of Object.entries(line)) {
        expect(firstSteps).not.toContain(key);
        if (firstSteps.includes('*')) expect(typeof value === 'object' && value !== null).toBe(false);
      }
    }
  });

  it('leaves the censoring on for every other line of the same logger', () => {
    const { lines, destination } = capture();
    const logger = createLogger('info', destination);
    observabilityEvents(logger, new GatewayMetrics(false));
    logger.info({ token: 'gwct_secret_value', nested: { secret: 'x' } }, 'other');
    expect(lines[0]).toMatchObject({ token: '[censored]', nested: { secret: '[censored]' } });
  });
});
