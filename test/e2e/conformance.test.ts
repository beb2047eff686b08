import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeGatewayConfig } from '../support/gateway-config.js';
import { adminGet, waitForLogs, type GatewayProcess } from '../support/gateway-process.js';
import { startMockProvider, type MockProvider } from '../support/mock-provider.js';
import { DATA_PLANES } from './data-planes.js';

/**
 * The deviations a black-box probe found against the specification (issue 15),
 * each proved on both data planes. Test names carry the ids of the statements
 * they prove (docs/conformance.md is generated from them).
 */
const VENDOR_SECRET = 'sk-ant-api03-conformance-secret-DDDDDDDDDDDDDDDDDDDD';
const AGG_SECRET = 'sk-or-v1-conformance-aggregator-EEEEEEEEEEEEEEEEEE';

interface ErrorBody {
  type: string;
  error: { type: string; message: string };
  source: string;
  fault: string;
  request_id: string;
}

describe.each(DATA_PLANES)('specification deviations fixed, through $name', (plane) => {
  let vendor: MockProvider;
  let aggregator: MockProvider;
  let gateway: GatewayProcess;
  /** A company whose only credential is on provider_a: no vendor credential at all. */
  let aggOnly: GatewayProcess;
  let tokens: Record<string, string>;
  let aggOnlyToken: string;

  beforeAll(async () => {
    vendor = await startMockProvider();
    aggregator = await startMockProvider({ models: ['anthropic/claude-sonnet-4.5', 'z-ai/glm-4.6'] });
    const config = writeGatewayConfig({
      settings: { models: { provider_a: { enabled: ['anthropic/claude-sonnet-4.5'] } } },
      tokens: ['alice', 'bob', 'carol'],
      credentials: [
        { name: 'vendor-key', provider: 'vendor', baseUrl: vendor.url, secret: VENDOR_SECRET, maxConcurrency: 50 },
        { name: 'agg-key', provider: 'provider_a', baseUrl: aggregator.url, secret: AGG_SECRET, authScheme: 'bearer', maxConcurrency: 50 },
      ],
    });
    tokens = config.tokens;
    gateway = await plane.start(config.file);
    const aggConfig = writeGatewayConfig({
      namespace: 'aggonly',
      settings: { models: { provider_a: { enabled: ['anthropic/claude-sonnet-4.5'] } } },
      credentials: [{ name: 'agg-key', provider: 'provider_a', baseUrl: aggregator.url, secret: AGG_SECRET, authScheme: 'bearer' }],
    });
    aggOnlyToken = aggConfig.tokens.alice as string;
    aggOnly = await plane.start(aggConfig.file);
  });

  afterAll(async () => {
    await gateway?.stop();
    await aggOnly?.stop();
    await vendor?.close();
    await aggregator?.close();
  });

  const sdk = (target: GatewayProcess, token: string, extra: Partial<ConstructorParameters<typeof Anthropic>[0]> = {}): Anthropic =>
    new Anthropic({ baseURL: target.url, authToken: token, apiKey: null, maxRetries: 0, ...extra });

  async function post(target: GatewayProcess, token: string | null, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const all: Record<string, string> = { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', ...headers };
    if (token !== null) all.authorization = `Bearer ${token}`;
    return fetch(`${target.url}/v1/messages`, { method: 'POST', headers: all, body: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body) });
  }

  it('[S2.4-c] [S7-f] an unknown bare id is "not a model" with the usable ids, also when the company has no vendor credential', async () => {
    const res = await post(aggOnly, aggOnlyToken, { model: 'gpt-17-turbo', max_tokens: 5, messages: [] });
    expect(res.status).toBe(403);
    const body = (await res.json()) as ErrorBody;
    expect(body.fault).toBe('model_not_allowed');
    expect(body.error.message).toBe(
      'gw: "gpt-17-turbo" is not a model this gateway serves for your company; models you can use: provider_a:anthropic/claude-sonnet-4.5, provider_a:z-ai/glm-4.6',
    );
    // With a vendor credential the other providers' ids are offered too.
    const withVendor = (await (await post(gateway, tokens.alice as string, { model: 'gpt-17-turbo', max_tokens: 5, messages: [] })).json()) as ErrorBody;
    expect(withVendor.error.message).toMatch(/^gw: "gpt-17-turbo" is not a model this gateway serves for your company; models you can use: claude-/);
    expect(withVendor.error.message).toContain('provider_a:z-ai/glm-4.6');
  });

  it('[S2.2-a] [S2.4-c] Usage and Logs keep the canonical model id, so spellings of one model group together', async () => {
    const carol = sdk(gateway, tokens.carol as string);
    for (const model of ['Claude-Sonnet-4.5', 'claude-sonnet-4-5', 'CLAUDE.SONNET.4.5']) {
      await carol.messages.create({ model, max_tokens: 5, messages: [{ role: 'user', content: 'x' }] });
    }
    const logs = await waitForLogs(gateway, 3, '&address=carol@acme.example');
    expect(logs.map((r) => r.model)).toEqual(['claude-sonnet-4-5', 'claude-sonnet-4-5', 'claude-sonnet-4-5']);
    expect(logs.map((r) => r.requested_model ?? null).sort()).toEqual(['CLAUDE.SONNET.4.5', 'Claude-Sonnet-4.5', null]);
    // A filter finds the model however it is spelled.
    expect(await waitForLogs(gateway, 3, '&address=carol@acme.example&model=Claude-Sonnet-4.5')).toHaveLength(3);
    const usage = await adminGet(gateway, '/admin/v1/usage?group_by=model');
    const rows = (usage.body as { data: Array<{ key: string | null; requests: number }> }).data.filter((r) => /sonnet/i.test(r.key ?? ''));
    expect(rows.map((r) => r.key)).toEqual(['claude-sonnet-4-5']);
  });
});
