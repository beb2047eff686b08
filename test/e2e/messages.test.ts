import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToken } from '../../src/auth/token.js';
import { writeGatewayConfig } from '../support/gateway-config.js';
import { waitForLogs, type GatewayProcess } from '../support/gateway-process.js';
import { DEFAULT_DELTAS, DEFAULT_USAGE, startMockProvider, type MockProvider } from '../support/mock-provider.js';
import { DATA_PLANES } from './data-planes.js';

const VENDOR_SECRET = 'sk-ant-api03-vendor-test-secret-AAAAAAAAAAAAAAAAAAAA';
const AGG_SECRET = 'sk-or-v1-aggregator-test-secret-BBBBBBBBBBBBBBBBBB';

function client(gateway: GatewayProcess, token: string, extra: Partial<ConstructorParameters<typeof Anthropic>[0]> = {}): Anthropic {
  return new Anthropic({ baseURL: gateway.url, authToken: token, apiKey: null, maxRetries: 0, ...extra });
}

describe.each(DATA_PLANES)('Messages API through $name', (plane) => {
  let vendor: MockProvider;
  let aggregator: MockProvider;
  let gateway: GatewayProcess;
  let tokens: Record<string, string>;

  beforeAll(async () => {
    vendor = await startMockProvider();
    aggregator = await startMockProvider({ models: ['anthropic/claude-sonnet-4.5', 'z-ai/glm-4.6'] });
    const config = writeGatewayConfig({
      settings: {
        repositoryAttribution: true,
        endUserRecording: true,
        models: { vendor: { enabled: ['claude-sonnet-4-5', 'claude-haiku-4-5'] }, provider_a: { enabled: ['anthropic/claude-sonnet-4.5'] } },
      },
      tokens: ['alice', 'bob', 'mallory'],
      revoked: ['mallory'],
      credentials: [
        { name: 'vendor-key', provider: 'vendor', baseUrl: vendor.url, secret: VENDOR_SECRET, maxConcurrency: 50 },
        { name: 'agg-key', provider: 'provider_a', baseUrl: aggregator.url, secret: AGG_SECRET, authScheme: 'bearer', maxConcurrency: 50 },
      ],
    });
    tokens = config.tokens;
    gateway = await plane.start(config.file, { args: ['--prefix', '/api'] });
  });

  afterAll(async () => {
    await gateway?.stop();
    await vendor?.close();
    await aggregator?.close();
  });

  it('[S1-a] [S1-d] [S2.4-a] [S4.1-a] [S4.1-c] [S4.1-j] [S5-a] [S5-c] [S5-g] creates a message; the provider sees the company credential, never the caller token, and the exact body', async () => {
    const before = vendor.messageRequests().length;
    const anthropic = client(gateway, tokens.alice as string);
    const message = await anthropic.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'hello' }] });
    expect(message.content[0]).toEqual({ type: 'text', text: DEFAULT_DELTAS.join('') });
    const seen = vendor.messageRequests()[before];
    expect(seen).toBeDefined();
    expect(seen?.headers['x-api-key']).toBe(VENDOR_SECRET);
    expect(seen?.headers.authorization).toBeUndefined();
    expect(JSON.stringify(seen?.headers)).not.toContain(tokens.alice);
    expect(seen?.body.toString('utf8')).toBe('{"model":"claude-sonnet-4-5","max_tokens":100,"messages":[{"role":"user","content":"hello"}]}');
    expect(seen?.headers['anthropic-version']).toBeDefined();
  });

  it('[S1-c] [S4.1-i] [S9-c] relays a raw body byte for byte, unknown fields and system-role messages included', async () => {
    const raw =
      '{ "model" : "claude-sonnet-4-5",\n "max_tokens":5, "messages":[{"role":"user","content":"é\\u00e9 \\ud83d\\ude00"},{"role":"system","content":"mid"}], "future_field": {"x": [1,2,3]} , "metadata":{"user_id":"{\\"session_id\\":\\"s1\\"}"}}';
    const before = vendor.messageRequests().length;
    const res = await fetch(`${gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.alice}`, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: raw,
    });
    expect(res.status).toBe(200);
    expect(vendor.messageRequests()[before]?.body.toString('utf8')).toBe(raw);
  });

  it('[S4.1-h] [S4.1-k] [S6-a] streams text deltas in order and the final message', async () => {
    const anthropic = client(gateway, tokens.alice as string);
    const stream = anthropic.messages.stream({ model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
    const texts: string[] = [];
    stream.on('text', (t) => texts.push(t));
    const final = await stream.finalMessage();
    expect(texts.join('')).toBe(DEFAULT_DELTAS.join(''));
    expect(final.usage.output_tokens).toBe(DEFAULT_USAGE.output_tokens);
    expect(final.usage.input_tokens).toBe(DEFAULT_USAGE.input_tokens);
  });

  it('[S4.4-b] [S2.3-e] counts tokens and lists models', async () => {
    const anthropic = client(gateway, tokens.alice as string);
    const counted = await anthropic.messages.countTokens({ model: 'claude-haiku-4-5', messages: [{ role: 'user', content: 'hi' }] });
    expect(counted.input_tokens).toBe(42);
    const ids: string[] = [];
    for await (const model of anthropic.models.list()) ids.push(model.id);
    expect(ids).toContain('claude-sonnet-4-5-20250929');
    expect(ids).toContain('claude-opus-4-8');
    expect(ids).toContain('provider_a:anthropic/claude-sonnet-4.5');
    expect(ids).toContain('provider_a:z-ai/glm-4.6');
    // Switched off for this company: not offered.
    expect(ids).not.toContain('claude-opus-4-1-20250805');
  });

  it('[S1-g] [S4.1-b] [S9-a] [S9-b] [S9-d] serves at the prefix and at the root, keeps the query string, and answers HEAD without auth', async () => {
    const before = vendor.messageRequests().length;
    const res = await fetch(`${gateway.url}/api/v1/messages?beta=true`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.alice}`, 'content-type': 'application/json', 'provider-version': '2023-06-01' },
      body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 5, messages: [] }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-gw-source')).toBe('upstream');
    expect(res.headers.get('x-gw-request-id')).toMatch(/^req_/);
    const seen = vendor.messageRequests()[before];
    expect(seen?.path).toBe('/v1/messages?beta=true');
    expect(seen?.headers['anthropic-version']).toBe('2023-06-01');
    expect(seen?.headers['provider-version']).toBeUndefined();
    for (const path of ['/api', '/']) {
      const head = await fetch(gateway.url + path, { method: 'HEAD' });
      expect(head.status).toBe(200);
    }
    expect(vendor.messageRequests().length).toBe(before + 1);
  });

  it('[S1-b] [S2.4-b] [S2.4-c] [S2.4-e] [S2.3-e] selects models ignoring capitals, dashes and dots; forwards provider model ids unchanged; serves models newer than the catalogue', async () => {
    const anthropic = client(gateway, tokens.alice as string);
    let before = vendor.messageRequests().length;
    await anthropic.messages.create({ model: 'Claude-Sonnet-4.5', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] });
    expect(JSON.parse(vendor.messageRequests()[before]?.body.toString('utf8') ?? '{}').model).toBe('claude-sonnet-4-5');
    before = vendor.messageRequests().length;
    await anthropic.messages.create({ model: 'claude-opus-4-8', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] });
    expect(JSON.parse(vendor.messageRequests()[before]?.body.toString('utf8') ?? '{}').model).toBe('claude-opus-4-8');
    const aggBefore = aggregator.messageRequests().length;
    await anthropic.messages.create({ model: 'provider_a:anthropic/claude-sonnet-4.5', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] });
    const seen = aggregator.messageRequests()[aggBefore];
    expect(JSON.parse(seen?.body.toString('utf8') ?? '{}').model).toBe('anthropic/claude-sonnet-4.5');
    expect(seen?.headers.authorization).toBe(`Bearer ${AGG_SECRET}`);
    expect(seen?.headers['x-api-key']).toBeUndefined();
    await anthropic.messages.create({ model: 'provider_a:z-ai/glm-4.6', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] });
    expect(JSON.parse(aggregator.messageRequests()[aggBefore + 1]?.body.toString('utf8') ?? '{}').model).toBe('z-ai/glm-4.6');
  });

  it('[S7-c] [S7-e] [S7-k] relays provider errors (429 and 529) untouched with x-gw-source: upstream and no fault', async () => {
    const anthropic = client(gateway, tokens.alice as string);
    for (const [status, type] of [
      [429, 'rate_limit_error'],
      [529, 'overloaded_error'],
    ] as const) {
      vendor.behaviour = { kind: 'status', status, errorType: type, message: `provider says ${status}`, headers: { 'retry-after': '7' } };
      try {
        const error = await anthropic.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }).then(
          () => null,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(Anthropic.APIError);
        const apiError = error as InstanceType<typeof Anthropic.APIError>;
        expect(apiError.status).toBe(status);
        expect(apiError.headers?.get('x-gw-source')).toBe('upstream');
        expect(apiError.headers?.get('x-gw-fault')).toBeNull();
        expect(apiError.headers?.get('retry-after')).toBe('7');
        expect(apiError.message).toContain(`provider says ${status}`);
        expect(apiError.message).not.toContain('gw:');
      } finally {
        vendor.behaviour = { kind: 'normal' };
      }
    }
  });

  async function post(path: string, init: { headers?: Record<string, string>; body?: string | Buffer; token?: string | null } = {}): Promise<Response> {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', ...(init.headers ?? {}) };
    if (init.token !== null) headers.authorization = `Bearer ${init.token ?? tokens.alice}`;
    return fetch(gateway.url + path, { method: 'POST', headers, body: init.body ?? JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 5, messages: [] }) });
  }

  async function expectGatewayError(res: Response, status: number, fault: string, message: string | RegExp): Promise<void> {
    expect(res.status).toBe(status);
    expect(res.headers.get('x-gw-source')).toBe('gateway');
    expect(res.headers.get('x-gw-fault')).toBe(fault);
    const requestId = res.headers.get('x-gw-request-id');
    expect(requestId).toMatch(/^req_/);
    const body = (await res.json()) as { type: string; error: { type: string; message: string }; source: string; fault: string; request_id: string };
    expect(body.type).toBe('error');
    expect(body.source).toBe('gateway');
    expect(body.fault).toBe(fault);
    expect(body.request_id).toBe(requestId);
    expect(body.error.message.startsWith('gw:')).toBe(true);
    if (typeof message === 'string') expect(body.error.message).toBe(message);
    else expect(body.error.message).toMatch(message);
  }

  it('[S2.1-a] [S2.1-e] [S3-b] [S4.1-r1] [S5-d] [S5-e] [S7-a] [S7-b] [S7-f] answers 401 no_session for missing, malformed, unknown and revoked tokens without reaching the provider', async () => {
    const before = vendor.seen.length;
    await expectGatewayError(await post('/v1/messages', { token: null }), 401, 'no_session', /^gw: no bearer token/);
    await expectGatewayError(await post('/v1/messages', { token: 'gwct_short' }), 401, 'no_session', /not a well-formed gwct_ token/);
    const flipped = (tokens.alice as string).slice(0, -1) + ((tokens.alice as string).endsWith('A') ? 'B' : 'A');
    await expectGatewayError(await post('/v1/messages', { token: flipped }), 401, 'no_session', /not a well-formed gwct_ token/);
    await expectGatewayError(await post('/v1/messages', { token: generateToken() }), 401, 'no_session', /matches no live token/);
    await expectGatewayError(await post('/v1/messages', { token: tokens.mallory }), 401, 'no_session', /matches no live token/);
    expect(vendor.seen.length).toBe(before);
  });

  it('[S4.1-a] [S4.1-d] [S5-b] [S7-f] never authenticates with x-api-key: 401 with a message on how to configure the client, and the provider sees nothing', async () => {
    const before = vendor.seen.length;
    const res = await post('/v1/messages', { token: null, headers: { 'x-api-key': tokens.alice as string } });
    await expectGatewayError(res, 401, 'no_session', /x-api-key header is never read.*authToken.*ANTHROPIC_AUTH_TOKEN/);
    // The SDK configured with apiKey in 0.x style sends x-api-key only.
    const sdkWithKey = new Anthropic({ baseURL: gateway.url, apiKey: tokens.alice as string, authToken: null, maxRetries: 0, defaultHeaders: { authorization: null } });
    const error = await sdkWithKey.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 5, messages: [] }).catch((e: unknown) => e);
    expect((error as InstanceType<typeof Anthropic.APIError>).status).toBe(401);
    expect(vendor.seen.length).toBe(before);
  });

  it('[S2.3-d] [S2.3-e] [S2.4-d] [S4.1-r2] [S7-c] [S7-g] answers 403 model_not_allowed with the specification messages', async () => {
    const body = (model: string): string => JSON.stringify({ model, max_tokens: 5, messages: [] });
    await expectGatewayError(
      await post('/v1/messages', { body: body('claude-opus-4-1') }),
      403,
      'model_not_allowed',
      'gw: "claude-opus-4-1" is switched off for your company, an owner can switch it on in Models',
    );
    await expectGatewayError(
      await post('/v1/messages', { body: body('provider_a:anthropic/claude-opus-4.5') }),
      403,
      'model_not_allowed',
      'gw: "provider_a:anthropic/claude-opus-4.5" is switched off for your company, an owner can switch it on in Models',
    );
    const res = await post('/v1/messages', { body: body('gpt-17-turbo') });
    await expectGatewayError(res.clone(), 403, 'model_not_allowed', /^gw: "gpt-17-turbo" is not a model /);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain('claude-opus-4-8');
    await expectGatewayError(await post('/v1/messages', { body: body('provider_b:some-model') }), 403, 'model_not_allowed', /provider "provider_b" is not connected/);
    await expectGatewayError(await post('/v1/messages', { body: body('provider_a:no/such-model') }), 403, 'model_not_allowed', /^gw: "provider_a:no\/such-model" is not a model provider_a serves/);
    await expectGatewayError(await post('/v1/messages', { body: body('openai:gpt-5') }), 403, 'model_not_allowed', /"openai" is not a provider/);
  });

  it('[S4.1-g] [S7-a] [S7-b] [S7-l] [S8-f] answers 400, 404 and 413 gateway errors', async () => {
    await expectGatewayError(await post('/v1/messages', { body: '{"model": "claude-sonnet-4-5", ' }), 400, 'invalid_request', 'gw: the request body is not valid JSON');
    await expectGatewayError(await post('/v1/messages', { body: '[1,2]' }), 400, 'invalid_request', 'gw: the request body must be a JSON object');
    await expectGatewayError(await post('/v1/messages', { body: '{"model": 7, "max_tokens": 5, "messages": []}' }), 400, 'invalid_request', /"model" is required/);
    await expectGatewayError(await post('/v1/messages', { body: '{"model": "claude-sonnet-4-5", "max_tokens": "many", "messages": []}' }), 400, 'invalid_request', /"max_tokens" is required/);
    await expectGatewayError(await post('/v1/messages', { body: '{"model": "claude-sonnet-4-5", "max_tokens": 5}' }), 400, 'invalid_request', /"messages" is required/);
    await expectGatewayError(
      await post('/v1/messages', { body: '{"model": "claude-sonnet-4-5", "max_tokens": 5, "messages": [], "stream": "yes"}' }),
      400,
      'invalid_request',
      /"stream" must be a boolean/,
    );
    await expectGatewayError(await post('/v1/complete'), 404, 'not_found', /^gw: no route for POST \/v1\/complete/);
    const big = Buffer.alloc(33 * 1024 * 1024, 0x61);
    await expectGatewayError(await post('/v1/messages', { body: big }), 413, 'request_too_large', /larger than the gateway's limit of 32 MiB/);
    // The gateway is still up and serving.
    expect((await post('/v1/messages')).status).toBe(200);
  });

  it('[S1-f] [S2.1-c] [S2.2-d] [S2.2-e] [S2.2-f] [S2.3-a] [S4.1-e] [S4.1-f] [S4.1-r5] [S4.1-r5n] [S4.2-a] [S4.2-d] [S4.2-f] [S4.2-g] records x-gw-repo, x-gw-application and x-gw-end-user when the settings allow, and never forwards them', async () => {
    const before = vendor.messageRequests().length;
    const anthropic = client(gateway, tokens.bob as string, {
      defaultHeaders: { 'x-gw-repo': 'github.com/acme/widgets', 'x-gw-application': 'billing-bot', 'x-gw-end-user': 'customer-42' },
    });
    await anthropic.messages.create({ model: 'claude-haiku-4-5', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] });
    const seen = vendor.messageRequests()[before];
    expect(Object.keys(seen?.headers ?? {}).filter((h) => h.startsWith('x-gw-'))).toEqual([]);
    const logs = await waitForLogs(gateway, 1, '&address=bob@acme.example');
    expect(logs[0]).toMatchObject({ address: 'bob@acme.example', repo: 'github.com/acme/widgets', application: 'billing-bot', end_user: 'customer-42' });
    // An invalid slug is neither recorded nor forwarded; the request still succeeds with a warning.
    const res = await post('/v1/messages', { token: tokens.bob, headers: { 'x-gw-repo': 'https://github.com/acme/widgets.git' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-gw-warning')).toMatch(/x-gw-repo ignored/);
    const latest = await waitForLogs(gateway, 2, '&address=bob@acme.example');
    expect(latest[0]?.repo).toBeUndefined();
  });

  it('[S1-e] [S2.2-a] [S2.2-b] [S2.2-c] [S4.1-r4] meters usage and cost from the provider numbers and the price table', async () => {
    const anthropic = client(gateway, tokens.bob as string);
    const stream = anthropic.messages.stream({ model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
    await stream.finalMessage();
    const records = await waitForLogs(gateway, 3, '&address=bob@acme.example');
    const record = records[0] as Record<string, unknown>;
    expect(record).toMatchObject({
      model: 'claude-sonnet-4-5',
      provider: 'vendor',
      provider_model: 'claude-sonnet-4-5',
      input_tokens: 1200,
      output_tokens: 37,
      cache_creation_input_tokens: 300,
      cache_read_input_tokens: 5000,
      stream: true,
      status: 200,
      fault: null,
    });
    // Sonnet: $3 in, $15 out, $3.75 5m write, $6 1h write, $0.30 read per million.
    const expected = (1200 * 3 + 37 * 15 + 200 * 3.75 + 100 * 6 + 5000 * 0.3) / 1e6;
    expect(record.cost_usd).toBeCloseTo(expected, 9);
  });
});
