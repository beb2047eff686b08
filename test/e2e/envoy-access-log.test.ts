/**
 * Envoy's access log, end to end: the harness prints one JSON line per
 * request by interpreting the json_format the generator emits (every
 * command operator in it is modelled, an unknown one fails the harness),
 * in front of a real `gw extproc`, driven by the real @anthropic-ai/sdk.
 * The line joins the processor's own request log by the gateway's request
 * id, and carries no caller token, provider key or authorization value.
 */
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessLogFormat } from '../../src/envoy/access-log.js';
import { DYNAMIC_CLUSTERS } from '../../src/envoy/cluster-name.js';
import { generatedConfigHarnessOptions } from '../support/envoy-harness/generated-config.js';
import { startEnvoyHarness, type EnvoyHarness } from '../support/envoy-harness/index.js';
import { writeGatewayConfig } from '../support/gateway-config.js';
import { spawnGw, type GatewayProcess } from '../support/gateway-process.js';
import { startMockProvider, type MockProvider } from '../support/mock-provider.js';

const PROVIDER_KEY = 'sk-ant-api03-access-log-key-00000000000';

describe('Envoy access log through the harness, from the generated json_format', () => {
  let provider: MockProvider;
  let processor: GatewayProcess;
  let harness: EnvoyHarness;
  let token: string;

  beforeAll(async () => {
    provider = await startMockProvider();
    const config = writeGatewayConfig({ credentials: [{ name: 'vendor-key', provider: 'vendor', baseUrl: provider.url, secret: PROVIDER_KEY }] });
    token = config.tokens.alice as string;
    processor = await spawnGw('extproc', config.file);
    const port = processor.output.map((l) => /listening on [^:]+:(\d+)/.exec(l)?.[1]).find(Boolean) as string;
    harness = await startEnvoyHarness({ processor: `127.0.0.1:${port}`, ...generatedConfigHarnessOptions(), messageTimeoutMs: 10_000 });
  });

  afterAll(async () => {
    await harness?.close();
    await processor?.stop();
    await provider?.close();
  });

  /** The access log line of the request the gateway answered with this id. */
  async function lineFor(requestId: string): Promise<Record<string, unknown>> {
    await harness.idle();
    const lines = harness.accessLogLines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const line = lines.find((l) => l.request_id === requestId);
    if (!line) throw new Error(`no access log line for ${requestId} in:\n${harness.accessLogLines.join('\n')}`);
    return line;
  }

  /** The processor's own "request" log line for this id (pino JSON on stdout). */
  async function processorLineFor(requestId: string): Promise<Record<string, unknown>> {
    for (let i = 0; i < 100; i++) {
      for (const text of processor.output) {
        if (!text.startsWith('{')) continue;
        const line = JSON.parse(text) as Record<string, unknown>;
        if (line.msg === 'request' && line.request_id === requestId) return line;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`the processor logged no request line for ${requestId}`);
  }

  it('writes one typed JSON line per request with the fields the generator names, joined by the gateway request id', async () => {
    const client = new Anthropic({ baseURL: harness.url, authToken: token, apiKey: null, maxRetries: 0 });
    const { data, response } = await client.messages.create({ model: 'claude-haiku-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hello' }] }).withResponse();
    const requestId = response.headers.get('x-gw-request-id') as string;
    expect(requestId).toMatch(/^req_/);
    // The provider's own request-id passes through for the SDK; the gateway's id is the join key.
    expect(response.headers.get('request-id')).not.toBe(requestId);

    const line = await lineFor(requestId);
    // Exactly the keys the generator's json_format names.
    expect(Object.keys(line).sort()).toEqual(Object.keys(accessLogFormat()).sort());
    expect(line).toMatchObject({
      request_id: requestId,
      method: 'POST',
      path: '/v1/messages',
      protocol: 'HTTP/1.1',
      status: 200,
      response_flags: '-',
      response_code_details: 'via_upstream',
      upstream_cluster: DYNAMIC_CLUSTERS.http,
      upstream_host: new URL(provider.url).host,
      upstream_failure: null,
      client_address: '127.0.0.1',
    });
    // Numbers, as a typed json_format renders them.
    const sentBody = Buffer.byteLength(JSON.stringify({ model: 'claude-haiku-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hello' }] }));
    expect(line.bytes_received).toBe(sentBody);
    expect(line.bytes_sent).toBe(Buffer.byteLength(JSON.stringify(data)));
    for (const key of ['duration_ms', 'request_duration_ms', 'response_duration_ms']) expect(typeof line[key], key).toBe('number');
    expect(line.duration_ms as number).toBeGreaterThanOrEqual(line.response_duration_ms as number);
    expect(Number.isNaN(Date.parse(line.time as string))).toBe(false);

    // The processor's request line carries the same id and status.
    const own = await processorLineFor(requestId);
    expect(own).toMatchObject({ request_id: requestId, status: 200 });
  });

  it('logs a request the processor refuses itself: its request id and status, no upstream', async () => {
    const client = new Anthropic({ baseURL: harness.url, authToken: token, apiKey: null, maxRetries: 0 });
    const err = await client.messages.create({ model: 'no-such-model-anywhere', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.APIError);
    const apiError = err as InstanceType<typeof Anthropic.APIError>;
    const requestId = apiError.headers?.get('x-gw-request-id') as string;
    expect(requestId).toMatch(/\S/);
    const line = await lineFor(requestId);
    expect(line).toMatchObject({ request_id: requestId, status: apiError.status, upstream_cluster: null, upstream_host: null, response_duration_ms: null, response_flags: '-' });
    expect(line.bytes_sent).toBeGreaterThan(0);
    expect(await processorLineFor(requestId)).toMatchObject({ request_id: requestId, status: apiError.status });
  });

  it("never logs the caller's token, the provider key or an authorization value, wherever the caller puts them", async () => {
    // Bearer token, x-api-key, and the token pasted into the query string.
    const bearer = new Anthropic({ baseURL: harness.url, authToken: token, apiKey: null, maxRetries: 0 });
    const apiKey = new Anthropic({ baseURL: harness.url, apiKey: token, maxRetries: 0 });
    const body = { model: 'claude-haiku-4-5', max_tokens: 8, messages: [{ role: 'user' as const, content: 'secret test' }] };
    await bearer.messages.create(body);
    await apiKey.messages.create(body);
    await bearer.messages.create(body, { query: { key: token } });
    // The provider got the credential's key: it exists on the wire, just not in the log.
    expect(JSON.stringify(provider.messageRequests().at(-1)?.headers)).toContain(PROVIDER_KEY);
    await harness.idle();
    expect(harness.accessLogLines.length).toBeGreaterThanOrEqual(3);
    const log = harness.accessLogLines.join('\n');
    expect(log).not.toContain(token);
    expect(log).not.toContain(token.slice(0, 12));
    expect(log).not.toContain('gwct_');
    expect(log).not.toContain(PROVIDER_KEY);
    expect(log).not.toMatch(/sk-ant-/);
    expect(log.toLowerCase()).not.toContain('bearer');
    expect(log.toLowerCase()).not.toContain('authorization');
    expect(log.toLowerCase()).not.toContain('x-api-key');
    expect(log).not.toContain('key=');
  });

  it('refuses to start on a format with a command operator the harness does not model, instead of printing "-"', async () => {
    const port = processor.output.map((l) => /listening on [^:]+:(\d+)/.exec(l)?.[1]).find(Boolean) as string;
    const options = { processor: `127.0.0.1:${port}`, ...generatedConfigHarnessOptions() };
    await expect(startEnvoyHarness({ ...options, accessLogFormat: { ...accessLogFormat(), sni: '%REQUESTED_SERVER_NAME%' } })).rejects.toThrow(/REQUESTED_SERVER_NAME.*not modelled/);
  });
});
