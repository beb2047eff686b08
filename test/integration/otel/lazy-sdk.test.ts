/**
 * With no endpoint configured the OpenTelemetry SDK is never loaded (only
 * @opentelemetry/api, which prom-client requires by itself for exemplars when
 * it is installed, and which stays a no-op: no provider is registered): the
 * runtime is started in a child process (a clean module cache) and the
 * modules it loaded are listed. The OpenTelemetry packages are CommonJS, so
 * whatever ESM imported of them sits in require.cache.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { writeGatewayConfig } from '../../support/gateway-config.js';
import { ROOT } from '../../support/gateway-process.js';

const SCRIPT = `
import { createRequire } from 'node:module';
const { readServeConfig } = await import('./dist/config/serve-config.js');
const { startRuntime } = await import('./dist/runtime/gateway-runtime.js');
const { createLogger } = await import('./dist/observability/logger.js');
const config = readServeConfig(['-f', process.argv[1], '--admin-port', '0'], process.env);
const runtime = await startRuntime(config, { logger: createLogger('silent') });
const loaded = Object.keys(createRequire(import.meta.url).cache).filter((p) => p.includes('@opentelemetry') && !p.includes('@opentelemetry/api/'));
await runtime.close();
process.stdout.write(JSON.stringify(loaded));
`;

function loadedWith(env: Record<string, string>): string[] {
  const { file } = writeGatewayConfig({ credentials: [{ name: 'k', provider: 'vendor', baseUrl: 'http://127.0.0.1:9', secret: 'sk-ant-api03-lazy-sdk-test' }] });
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OTEL_')));
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', SCRIPT, file], { cwd: ROOT, env: { ...clean, ...env }, encoding: 'utf8', timeout: 60_000 });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as string[];
}

describe('the OpenTelemetry SDK is loaded lazily', () => {
  it('loads no OpenTelemetry SDK or exporter module without an endpoint', () => {
    expect(loadedWith({})).toEqual([]);
  });

  it('loads the SDK and the configured exporter once an endpoint is set (so the check above can fail)', () => {
    const loaded = loadedWith({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
    expect(loaded.some((p) => p.includes('sdk-trace-base'))).toBe(true);
    expect(loaded.some((p) => p.includes('exporter-trace-otlp-http'))).toBe(true);
    expect(loaded.some((p) => p.includes('exporter-trace-otlp-grpc'))).toBe(false);
  });
});
