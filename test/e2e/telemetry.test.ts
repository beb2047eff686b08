import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToken, hashToken } from '../../src/auth/token.js';
import { startExtProcPlane } from '../support/extproc-plane.js';
import { writeGatewayConfig, type TestConfig } from '../support/gateway-config.js';
import { logsCaughtUp, startGateway, waitForLogs, type GatewayProcess } from '../support/gateway-process.js';
import { startMockProvider, type MockProvider } from '../support/mock-provider.js';
import { eventually, startOtlpReceiver, type OtlpReceiver, type ReceivedPoint, type ReceivedSpan } from '../support/otlp/otlp-receiver.js';

const VENDOR_SECRET = 'sk-ant-api03-telemetry-vendor-secret-QQQQQQQQQQQQQQQQ';
/** A credential a careless caller pastes into a prompt; secret scanning is on for acme. */
const PROMPT_CREDENTIAL = 'AKIA' + 'QYLPMN5HZ2W7XK4D';
const PROMPT_TEXT = 'the quarterly plan codename is bluefinch';

const PHASES = ['gw.authenticate', 'gw.caller_queue', 'gw.policy', 'gw.spend', 'gw.redaction', 'gw.lease', 'gw.upstream', 'gw.stream'];

interface Plane {
  readonly name: string;
  readonly protocol: 'grpc' | 'http/protobuf';
  /** Envoy (the harness) sits between caller and processor and owns the parent span. */
  readonly envoy: boolean;
  start(config: TestConfig, receiver: OtlpReceiver): Promise<GatewayProcess>;
}

function otelEnv(receiver: OtlpReceiver, protocol: 'grpc' | 'http/protobuf'): Record<string, string> {
  const base = protocol === 'grpc' ? receiver.grpcEndpoint : receiver.httpEndpoint;
  return {
    OTEL_EXPORTER_OTLP_ENDPOINT: base,
    OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
    OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-tenant=gw-tests',
    OTEL_METRIC_EXPORT_INTERVAL: '250',
    OTEL_BSP_SCHEDULE_DELAY: '50',
    OTEL_SERVICE_NAME: 'gw-under-test',
    OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=test',
  };
}

const PLANES: Plane[] = [
  { name: 'gw serve (OTLP/gRPC)', protocol: 'grpc', envoy: false, start: (c, r) => startGateway(c.file, { env: otelEnv(r, 'grpc') }) },
  {
    name: 'Envoy harness + gw extproc (OTLP/HTTP protobuf)',
    protocol: 'http/protobuf',
    envoy: true,
    start: (c, r) => startExtProcPlane(c.file, { env: otelEnv(r, 'http/protobuf'), harness: { tracing: true } }),
  },
];

function writeConfig(vendorUrl: string): TestConfig & { globexToken: string } {
  const globexToken = generateToken();
  const config = writeGatewayConfig({
    settings: { secretScanning: true, traceContextToProvider: true },
    tokens: ['alice'],
    credentials: [
      { name: 'vendor-key', provider: 'vendor', baseUrl: vendorUrl, secret: VENDOR_SECRET, maxConcurrency: 20 },
      { name: 'vendor-key', namespace: 'globex', provider: 'vendor', baseUrl: vendorUrl, secret: VENDOR_SECRET, maxConcurrency: 20 },
    ],
    extraDocs: [
      // globex keeps the default: no trace context for the provider.
      { apiVersion: 'gw.io/v1alpha1', kind: 'GatewaySettings', metadata: { name: 'settings', namespace: 'globex' }, spec: { tokenDomain: 'globex.example' } },
      { apiVersion: 'gw.io/v1alpha1', kind: 'GatewayToken', metadata: { name: 'bob', namespace: 'globex' }, spec: { tokenHash: hashToken(globexToken) } },
    ],
  });
  return { ...config, globexToken };
}

function traceparent(): { header: string; traceId: string; spanId: string } {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { header: `00-${traceId}-${spanId}-01`, traceId, spanId };
}

async function streamOnce(gateway: GatewayProcess, token: string, header: string): Promise<string> {
  const anthropic = new Anthropic({ baseURL: gateway.url, authToken: token, apiKey: null, maxRetries: 0 });
  const stream = anthropic.messages.stream(
    { model: 'claude-sonnet-4-5', max_tokens: 64, stream: true, messages: [{ role: 'user', content: `${PROMPT_TEXT}; my token is ${PROMPT_CREDENTIAL}` }] },
    { headers: { traceparent: header, tracestate: 'vendorx=opaque' } },
  );
  const final = await stream.finalMessage();
  return final.id;
}

function lastPoint(points: ReceivedPoint[], metric: string, match: Record<string, string>): ReceivedPoint | undefined {
  const found = points.filter((p) => p.metric === metric && Object.entries(match).every(([k, v]) => p.attributes[k] === v));
  return found[found.length - 1];
}

describe.each(PLANES)('OpenTelemetry through $name', (plane) => {
  let receiver: OtlpReceiver;
  let vendor: MockProvider;
  let gateway: GatewayProcess;
  let config: ReturnType<typeof writeConfig>;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    vendor = await startMockProvider();
    config = writeConfig(vendor.url);
    gateway = await plane.start(config, receiver);
  });

  afterAll(async () => {
    await gateway?.stop();
    await vendor?.close();
    await receiver?.close();
  });

  it('a streamed call is one trace continuing the caller traceparent, with every phase and the GenAI attributes', async () => {
    const caller = traceparent();
    const before = vendor.messageRequests().length;
    await streamOnce(gateway, config.tokens.alice as string, caller.header);
    const [record] = (await waitForLogs(gateway, 1, '&address=alice@acme.example')).slice(-1);
    expect(record).toBeDefined();

    const spans = await eventually(() => {
      const inTrace = receiver.spans.filter((s) => s.traceId === caller.traceId);
      expect(inTrace.map((s) => s.name).sort()).toEqual(['chat claude-sonnet-4-5', ...PHASES].sort());
      return inTrace;
    });
    expect(receiver.transports.has(plane.protocol)).toBe(true);
    const root = spans.find((s) => s.name === 'chat claude-sonnet-4-5') as ReceivedSpan;
    expect(root.kind).toBe(2); // SERVER
    // Behind Envoy the processor continues Envoy's ext_proc span (gRPC metadata), else the caller's.
    const harnessTrace = plane.envoy ? await gatewayAccessTrace(gateway) : undefined;
    expect(root.parentSpanId).toBe(plane.envoy ? harnessTrace?.extProcSpanId : caller.spanId);
    for (const s of spans) if (s !== root) expect(s.parentSpanId, s.name).toBe(root.spanId);

    expect(root.resource['service.name']).toBe('gw-under-test');
    expect(root.resource['deployment.environment']).toBe('test');
    expect(root.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude-sonnet-4-5',
      'gen_ai.response.model': 'claude-sonnet-4-5',
      'gen_ai.usage.input_tokens': Number(record?.input_tokens) + Number(record?.cache_creation_input_tokens) + Number(record?.cache_read_input_tokens),
      'gen_ai.usage.output_tokens': record?.output_tokens,
      'gw.company': 'acme',
      'gw.caller.address': 'alice@acme.example',
      'gw.request_id': record?.request_id,
      'http.response.status_code': 200,
    });
    const upstream = spans.find((s) => s.name === 'gw.upstream') as ReceivedSpan;
    expect(upstream.kind).toBe(3); // CLIENT
    expect(upstream.events.map((e) => e.name)).toEqual(['response_headers', 'first_byte']);
    const redaction = spans.find((s) => s.name === 'gw.redaction') as ReceivedSpan;
    expect(redaction.attributes['gw.redaction.count']).toBe(1);

    // acme allows it: the provider's parent is the gateway's upstream span, in the same trace.
    const seen = vendor.messageRequests()[before];
    expect(seen?.headers.traceparent).toBe(`00-${caller.traceId}-${upstream.spanId}-01`);

    // The request's log line joins the trace (pino writes asynchronously: wait for the line).
    await eventually(() => {
      const line = gateway.output.map((l) => JSON.parse(l.startsWith('{') ? l : '{}') as Record<string, unknown>).find((l) => l.msg === 'request' && l.request_id === record?.request_id);
      expect(line).toMatchObject({ trace_id: caller.traceId, span_id: root.spanId });
    });
  });

  it('without the company setting the provider receives no trace context, and the trace still continues', async () => {
    const caller = traceparent();
    const before = vendor.messageRequests().length;
    await streamOnce(gateway, config.globexToken, caller.header);
    const seen = vendor.messageRequests()[before];
    expect(seen?.headers.traceparent).toBeUndefined();
    expect(seen?.headers.tracestate).toBeUndefined();
    const root = await eventually(() => {
      const found = receiver.spans.find((s) => s.traceId === caller.traceId && s.name === 'chat claude-sonnet-4-5');
      expect(found).toBeDefined();
      return found as ReceivedSpan;
    });
    expect(root.attributes['gw.company']).toBe('globex');
  });

  it('GenAI metrics match the usage records, over OTLP and on /metrics under their Prometheus names', async () => {
    const records = (await waitForLogs(gateway, 2)).filter((r) => r.endpoint === 'messages' && r.fault === null);
    const input = records.reduce((n, r) => n + Number(r.input_tokens) + Number(r.cache_creation_input_tokens) + Number(r.cache_read_input_tokens), 0);
    const output = records.reduce((n, r) => n + Number(r.output_tokens), 0);
    const base = { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'anthropic', 'gen_ai.request.model': 'claude-sonnet-4-5' };
    await eventually(() => {
      const inTokens = lastPoint(receiver.points, 'gen_ai.client.token.usage', { ...base, 'gen_ai.token.type': 'input' });
      const outTokens = lastPoint(receiver.points, 'gen_ai.client.token.usage', { ...base, 'gen_ai.token.type': 'output' });
      expect(inTokens).toMatchObject({ unit: '{token}', count: records.length, sum: input });
      expect(outTokens).toMatchObject({ count: records.length, sum: output });
      expect(lastPoint(receiver.points, 'gen_ai.server.request.duration', base)).toMatchObject({ unit: 's', count: records.length });
      expect(lastPoint(receiver.points, 'gen_ai.server.time_to_first_token', base)?.count).toBe(records.length);
      expect(lastPoint(receiver.points, 'gen_ai.server.time_per_output_token', base)?.count).toBe(records.length);
    });
    const text = await (await fetch(`${gateway.adminUrl}/metrics`)).text();
    const labels = 'gen_ai_operation_name="chat",gen_ai_provider_name="anthropic",gen_ai_request_model="claude-sonnet-4-5",gen_ai_response_model="claude-sonnet-4-5"';
    expect(text).toContain(`gen_ai_client_token_usage_sum{${labels},gen_ai_token_type="input"} ${input}`);
    expect(text).toContain(`gen_ai_client_token_usage_sum{${labels},gen_ai_token_type="output"} ${output}`);
    expect(text).toContain(`gen_ai_server_request_duration_seconds_count{${labels},error_type=""} ${records.length}`);
    expect(text).toContain(`gen_ai_server_time_to_first_token_seconds_count{${labels}} ${records.length}`);
  });

  it('no span, metric export or log line carries a token, a key or the prompt', async () => {
    await eventually(() => expect(receiver.raw.length).toBeGreaterThan(0));
    const exported = receiver.raw.join('\n');
    await logsCaughtUp(gateway);
    const logs = gateway.output.join('\n');
    for (const secret of [config.tokens.alice as string, config.globexToken, VENDOR_SECRET, PROMPT_CREDENTIAL, PROMPT_TEXT]) {
      expect(exported).not.toContain(secret);
      expect(logs).not.toContain(secret);
    }
    // The collector header reached the receiver (so the scan above read real exports).
    expect(exported).toContain('gw-tests');
  });
});

/** The harness's record of the Envoy spans of the last request (its access log). */
async function gatewayAccessTrace(gateway: GatewayProcess): Promise<{ extProcSpanId: string } | undefined> {
  const harness = (gateway as Partial<Awaited<ReturnType<typeof startExtProcPlane>>>).harness;
  await harness?.idle();
  return harness?.accessLog[harness.accessLog.length - 1]?.trace;
}

describe('OpenTelemetry from the --otel-config file (OTLP/HTTP JSON)', () => {
  it('exports the request trace with the settings of the file', async () => {
    const receiver = await startOtlpReceiver();
    const vendor = await startMockProvider();
    const config = writeConfig(vendor.url);
    const otelFile = join(config.dir, 'otel.yaml');
    writeFileSync(otelFile, `otel:\n  endpoint: ${receiver.httpEndpoint}\n  protocol: http/json\n  serviceName: gw-from-file\n  sampler: parentbased_always_on\n  metricExportIntervalMs: 250\n`);
    const gateway = await startGateway(config.file, { args: ['--otel-config', otelFile], env: { OTEL_BSP_SCHEDULE_DELAY: '50' } });
    try {
      const caller = traceparent();
      await streamOnce(gateway, config.tokens.alice as string, caller.header);
      const root = await eventually(() => {
        const found = receiver.spans.find((s) => s.traceId === caller.traceId && s.name === 'chat claude-sonnet-4-5');
        expect(found).toBeDefined();
        return found as ReceivedSpan;
      });
      expect(receiver.transports).toEqual(new Set(['http/json']));
      expect(root.resource['service.name']).toBe('gw-from-file');
      expect(root.parentSpanId).toBe(caller.spanId);
    } finally {
      await gateway.stop();
      await vendor.close();
      await receiver.close();
    }
  });
});
