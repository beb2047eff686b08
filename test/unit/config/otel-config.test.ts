import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readOtelConfig } from '../../../src/config/otel-config.js';

function read(env: NodeJS.ProcessEnv, file?: string): { config: ReturnType<typeof readOtelConfig>; problems: string[] } {
  const problems: string[] = [];
  const config = readOtelConfig(env, file, 'gw-serve', problems);
  return { config, problems };
}

function otelFile(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'gw-otel-')), 'otel.yaml');
  writeFileSync(path, text);
  return path;
}

describe('OpenTelemetry configuration', () => {
  it('is off without an endpoint', () => {
    const { config, problems } = read({});
    expect(problems).toEqual([]);
    expect(config.traces).toBeNull();
    expect(config.metrics).toBeNull();
    expect(config.serviceName).toBe('gw-serve');
  });

  it('adds the signal path to the general HTTP endpoint and uses per-signal endpoints as given', () => {
    const { config, problems } = read({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/base/',
      OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'https://metrics.example/custom',
    });
    expect(problems).toEqual([]);
    expect(config.traces).toMatchObject({ url: 'http://collector:4318/base/v1/traces', protocol: 'http/protobuf', insecure: true });
    expect(config.metrics).toMatchObject({ url: 'https://metrics.example/custom', insecure: false });
  });

  it('reads gRPC endpoints without a path, signal-specific settings winning over general ones', () => {
    const { config, problems } = read({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4317',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      OTEL_EXPORTER_OTLP_HEADERS: 'api-key=general,x-tenant=a%20b',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'api-key=traces-only',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
      OTEL_SERVICE_NAME: 'edge',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod,team=ai',
    });
    expect(problems).toEqual([]);
    expect(config.traces).toMatchObject({ url: 'http://collector:4317/', protocol: 'grpc', headers: { 'api-key': 'traces-only' } });
    expect(config.metrics?.headers).toEqual({ 'api-key': 'general', 'x-tenant': 'a b' });
    expect(config).toMatchObject({ sampler: 'parentbased_traceidratio', samplerRatio: 0.25, serviceName: 'edge', resourceAttributes: { 'deployment.environment': 'prod', team: 'ai' } });
  });

  it('turns a signal off with OTEL_<SIGNAL>_EXPORTER=none and everything off with OTEL_SDK_DISABLED', () => {
    expect(read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_METRICS_EXPORTER: 'none' }).config.metrics).toBeNull();
    const disabled = read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' }).config;
    expect([disabled.traces, disabled.metrics]).toEqual([null, null]);
  });

  it('reports every problem at once, never echoing a header value', () => {
    const { problems } = read({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'ftp://collector',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'thrift',
      OTEL_EXPORTER_OTLP_HEADERS: 'supersecretvalue',
      OTEL_TRACES_SAMPLER: 'sometimes',
      OTEL_TRACES_SAMPLER_ARG: '2',
      OTEL_EXPORTER_OTLP_CERTIFICATE: '/nonexistent/ca.pem',
    });
    const text = problems.join('\n');
    for (const fragment of [
      'http:// or https://',
      'PROTOCOL must be one of',
      'HEADERS: every entry must be key=value',
      'OTEL_TRACES_SAMPLER must be',
      'OTEL_TRACES_SAMPLER_ARG',
      'CERTIFICATE /nonexistent/ca.pem',
    ]) {
      expect(text).toContain(fragment);
    }
    expect(text).not.toContain('supersecretvalue');
  });

  it('takes the otel: mapping of a file over the environment, and rejects unknown keys', () => {
    const file = otelFile(
      'otel:\n  endpoint: http://from-file:4318\n  protocol: http/json\n  headers: { x-tenant: file }\n  traces:\n    endpoint: http://traces-file:4318/v1/traces\n  serviceName: filed\n  sampler: always_off\n',
    );
    const { config, problems } = read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://from-env:4318', OTEL_SERVICE_NAME: 'env' }, file);
    expect(problems).toEqual([]);
    expect(config.traces).toMatchObject({ url: 'http://traces-file:4318/v1/traces', protocol: 'http/json', headers: { 'x-tenant': 'file' } });
    expect(config.metrics?.url).toBe('http://from-file:4318/v1/metrics');
    expect(config).toMatchObject({ serviceName: 'filed', sampler: 'always_off' });
    expect(read({}, otelFile('otel:\n  endpoint: http://x\n  colour: blue\n')).problems).toEqual([expect.stringContaining('unknown key otel.colour')]);
  });
});
