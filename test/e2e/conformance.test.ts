import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
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
const AWS_KEY = 'AKIA' + 'QYLPMN5HZ2W7XK4D';

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
  /** A company with a caller cap of 1 (0.3 s queue) and a per-token daily spend limit of $0.01. */
  let strict: GatewayProcess;
  let strictTokens: Record<string, string>;

  beforeAll(async () => {
    vendor = await startMockProvider();
    aggregator = await startMockProvider({ models: ['anthropic/claude-sonnet-4.5', 'z-ai/glm-4.6'] });
    const config = writeGatewayConfig({
      settings: { secretScanning: true, models: { provider_a: { enabled: ['anthropic/claude-sonnet-4.5'] } } },
      tokens: ['alice', 'bob', 'carol', 'mallory'],
      revoked: ['mallory'],
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
    const strictConfig = writeGatewayConfig({
      namespace: 'strict',
      tokens: ['capped', 'spender', 'saver'],
      settings: { callerConcurrency: { default: 1, queueWaitSeconds: 0.3 }, spendLimits: { timeZone: 'UTC', perToken: [{ window: 'daily', usd: 0.01 }] } },
      credentials: [{ name: 'vendor-key', provider: 'vendor', baseUrl: vendor.url, secret: VENDOR_SECRET, maxConcurrency: 50 }],
    });
    strictTokens = strictConfig.tokens;
    strict = await plane.start(strictConfig.file);
  });

  afterAll(async () => {
    await gateway?.stop();
    await aggOnly?.stop();
    await strict?.stop();
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

  it('[S4.1-r2] [S7-g] an unknown bare id is "not a model" with the usable ids, also when the company has no vendor credential', async () => {
    const res = await post(aggOnly, aggOnlyToken, { model: 'gpt-17-turbo', max_tokens: 5, messages: [] });
    expect(res.status).toBe(403);
    const body = (await res.json()) as ErrorBody;
    expect(body.fault).toBe('model_not_allowed');
    expect(body.error.message).toBe('gw: "gpt-17-turbo" is not a model this gateway serves for your company; models you can use: provider_a:anthropic/claude-sonnet-4.5, provider_a:z-ai/glm-4.6');
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

  it('[S4.1-r1] [S5-d] authentication is decided from the headers before the size: a body over 32 MiB with a bad bearer gets 401 no_session, unread', async () => {
    const total = 33 * 1024 * 1024;
    const chunk = Buffer.alloc(256 * 1024, 0x61);
    for (const bearer of [null, 'gwct_not-a-real-token', tokens.mallory as string]) {
      let pulled = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (pulled >= total) return controller.close();
          pulled += chunk.length;
          controller.enqueue(chunk);
        },
      });
      const headers: Record<string, string> = { 'content-type': 'application/json', 'content-length': String(total) };
      if (bearer) headers.authorization = `Bearer ${bearer}`;
      const res = await fetch(`${gateway.url}/v1/messages`, { method: 'POST', headers, body, duplex: 'half' } as RequestInit);
      expect(res.status).toBe(401);
      expect(((await res.json()) as ErrorBody).fault).toBe('no_session');
      // gw serve answers and closes without draining the upload; behind Envoy the processor
      // answers at the headers, so no body message ever reaches it.
      if (plane.parsesHttp) expect(pulled).toBeLessThan(total / 2);
    }
    // An authenticated caller still learns the limit, before the body is sent upstream.
    const res = await post(gateway, tokens.alice as string, Buffer.alloc(total, 0x61));
    expect(res.status).toBe(413);
  });

  it('[S7-e] a provider cannot pose as the gateway: x-gw-* headers it sends are dropped, ours are set, streaming or not', async () => {
    vendor.options = { responseHeaders: { 'x-gw-source': 'gateway', 'x-gw-fault': 'no_capacity', 'x-gw-request-id': 'req_forged', 'x-gw-anything': '1' } };
    try {
      for (const stream of [false, true]) {
        const res = await post(gateway, tokens.alice as string, { model: 'claude-haiku-4-5', max_tokens: 5, stream, messages: [] });
        expect(res.status).toBe(200);
        await res.text();
        expect(res.headers.get('x-gw-source')).toBe('upstream');
        expect(res.headers.get('x-gw-fault')).toBeNull();
        expect(res.headers.get('x-gw-anything')).toBeNull();
        expect(res.headers.get('x-gw-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
        // The provider's own request-id is its own, relayed untouched.
        expect(res.headers.get('request-id')).toBe('req_mock_1');
      }
    } finally {
      vendor.options = {};
    }
  });

  it('[S2.2-e] [S4.1-e] [S4.1-f] an over-long x-gw-application or x-gw-end-user keeps its first 200 bytes and the response says so', async () => {
    const long = 'a'.repeat(150) + '\u00e9'.repeat(60);
    const res = await post(
      gateway,
      tokens.bob as string,
      { model: 'claude-haiku-4-5', max_tokens: 5, messages: [] },
      {
        'x-gw-application': Buffer.from(long, 'utf8').toString('latin1'),
        'x-gw-end-user': 'u'.repeat(300),
      },
    );
    expect(res.status).toBe(200);
    await res.text();
    expect(res.headers.get('x-gw-warning')).toBe('x-gw-application truncated to its first 200 UTF-8 bytes');
    const [record] = await waitForLogs(gateway, 1, '&address=bob@acme.example');
    expect(record?.application).toBe('a'.repeat(150) + '\u00e9'.repeat(25));
    // End-user recording is off for this company: dropped without a trace, as the specification says.
    expect(record).not.toHaveProperty('end_user');
  });

  it("[S2.3-f] [S7-h] [S8-c] over_budget says when only this request's reservation would pass the limit, and when it is spent; both give the real reset", async () => {
    const midnight = new Date();
    midnight.setUTCHours(24, 0, 0, 0);
    // Haiku 4.5 output is $5 per million: 10,000 tokens reserve $0.05, past the $0.01 limit with nothing spent.
    const early = await post(strict, strictTokens.saver as string, { model: 'claude-haiku-4-5', max_tokens: 10_000, messages: [] });
    expect(early.status).toBe(402);
    expect(early.headers.get('x-should-retry')).toBe('false');
    expect(Math.abs(Number(early.headers.get('retry-after')) - Math.ceil((midnight.getTime() - Date.now()) / 1000))).toBeLessThanOrEqual(5);
    const earlyMessage = ((await early.json()) as ErrorBody).error.message;
    expect(earlyMessage).toMatch(/^gw: this request would pass the daily per-token spend limit of \$0\.01: \$0\.00 is spent or reserved, and the request's worst case of \$0\.05/);
    expect(earlyMessage).toContain('a smaller max_tokens may fit');
    expect(earlyMessage).toContain(midnight.toISOString());
    // Spend past the limit (the provider reports 3,000 output tokens: $0.015), then the limit is reached.
    vendor.options = { usage: { input_tokens: 10, output_tokens: 3000 } };
    try {
      const spent = await post(strict, strictTokens.spender as string, { model: 'claude-haiku-4-5', max_tokens: 100, messages: [] });
      expect(spent.status).toBe(200);
      await spent.text();
    } finally {
      vendor.options = {};
    }
    await waitForLogs(strict, 1, '&address=spender@strict.example');
    const late = await post(strict, strictTokens.spender as string, { model: 'claude-haiku-4-5', max_tokens: 1, messages: [] });
    expect(late.status).toBe(402);
    expect(((await late.json()) as ErrorBody).error.message).toBe(`gw: the daily per-token spend limit of $0.01 is reached; it resets at ${midnight.toISOString()}`);
  });

  it('[S7-d] [S7-i] [S8-b] [S8-e] a 429 user_cap (per token, whatever the application) tells the SDK not to retry (one attempt, not three) and how long the queue waited; the SDK reports our request id', async () => {
    vendor.behaviour = { kind: 'slow-stream', delayMs: 60 };
    try {
      const holder = await post(strict, strictTokens.capped as string, { model: 'claude-haiku-4-5', max_tokens: 5, stream: true, messages: [] }, { 'x-gw-application': 'first-app' });
      expect(holder.status).toBe(200);
      const retrying = new Anthropic({ baseURL: strict.url, authToken: strictTokens.capped as string, apiKey: null, maxRetries: 2, defaultHeaders: { 'x-gw-application': 'second-app' } });
      const error = (await retrying.messages.create({ model: 'claude-haiku-4-5', max_tokens: 5, messages: [] }).catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>;
      expect(error).toBeInstanceOf(Anthropic.RateLimitError);
      expect(error.headers?.get('x-should-retry')).toBe('false');
      expect(error.headers?.get('retry-after-ms')).toBe('300');
      expect(error.headers?.get('retry-after')).toBe('1');
      expect(error.requestID).toMatch(/^req_/);
      expect(error.requestID).toBe(error.headers?.get('x-gw-request-id'));
      await holder.text();
    } finally {
      vendor.behaviour = { kind: 'normal' };
    }
    const capped = (await waitForLogs(strict, 2, '&address=capped@strict.example')).filter((r) => r.fault === 'user_cap');
    expect(capped).toHaveLength(1);
  });

  it('[S7-a] [S7-b] [S7-d] every gateway-made error carries request-id and retry advice (x-should-retry)', async () => {
    const cases: Array<[Response, number, string]> = [
      [await post(gateway, null, { model: 'claude-haiku-4-5', max_tokens: 5, messages: [] }), 401, 'false'],
      [await post(gateway, tokens.alice as string, '{"model":'), 400, 'false'],
      [await post(gateway, tokens.alice as string, { model: 'provider_b:x', max_tokens: 5, messages: [] }), 403, 'false'],
      [await fetch(`${gateway.url}/v1/nothing`, { method: 'POST', headers: { authorization: `Bearer ${tokens.alice}` } }), 404, 'false'],
    ];
    for (const [res, status, retry] of cases) {
      expect(res.status).toBe(status);
      const body = (await res.json()) as ErrorBody;
      expect(res.headers.get('request-id')).toBe(body.request_id);
      expect(res.headers.get('x-should-retry')).toBe(retry);
    }
  });

  it('[S4.3-a] [S8-f] a gzip, deflate or br request body is decoded, scanned and forwarded as plain JSON', async () => {
    const json = JSON.stringify({ model: 'claude-haiku-4-5', max_tokens: 5, messages: [{ role: 'user', content: `key AWS_ACCESS_KEY_ID=${AWS_KEY} here` }] });
    const encoders: Array<[string, (b: Buffer) => Buffer]> = [
      ['gzip', gzipSync],
      ['deflate', deflateSync],
      ['br', brotliCompressSync],
    ];
    for (const [encoding, encode] of encoders) {
      const before = vendor.messageRequests().length;
      const res = await post(gateway, tokens.alice as string, encode(Buffer.from(json)), { 'content-encoding': encoding });
      expect(res.status).toBe(200);
      await res.text();
      const seen = vendor.messageRequests()[before];
      expect(seen?.headers['content-encoding']).toBeUndefined();
      const sent = seen?.body.toString('utf8') ?? '';
      expect(sent).not.toContain(AWS_KEY);
      expect(sent).toMatch(/^\{"model":"claude-haiku-4-5","max_tokens":5,"messages":\[\{"role":"user","content":"key AWS_ACCESS_KEY_ID=\[REDACTED: [a-z0-9-]+\] here"\}\]\}$/);
      expect(Number(seen?.headers['content-length'])).toBe(Buffer.byteLength(sent));
    }
  });

  it('[S8-f] an unsupported or broken Content-Encoding gets 415 naming Content-Encoding; a decompression bomb stops at the size limit', async () => {
    const before = vendor.messageRequests().length;
    const zstd = await post(gateway, tokens.alice as string, Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0, 0]), { 'content-encoding': 'zstd' });
    expect(zstd.status).toBe(415);
    const zstdBody = (await zstd.json()) as ErrorBody;
    expect(zstdBody.fault).toBe('unsupported_encoding');
    expect(zstdBody.error.message).toMatch(/^gw: Content-Encoding "zstd" is not supported/);
    const broken = await post(gateway, tokens.alice as string, Buffer.from('not gzip at all'), { 'content-encoding': 'gzip' });
    expect(broken.status).toBe(415);
    expect(((await broken.json()) as ErrorBody).error.message).toBe('gw: the request body does not decode as Content-Encoding "gzip"');
    // 64 MiB of zeros compress to about 64 KiB: decoding stops at 32 MiB.
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    const big = await post(gateway, tokens.alice as string, bomb, { 'content-encoding': 'gzip' });
    expect(big.status).toBe(413);
    expect(((await big.json()) as ErrorBody).fault).toBe('request_too_large');
    expect(vendor.messageRequests().length).toBe(before);
  });

  it('[S4.4-b] /v1/models pages with limit, after_id and before_id as the upstream API does', async () => {
    const list = async (query: string): Promise<{ data: Array<{ id: string }>; has_more: boolean; first_id: string | null; last_id: string | null }> => {
      const res = await fetch(`${gateway.url}/v1/models${query}`, { headers: { authorization: `Bearer ${tokens.alice}` } });
      expect(res.status).toBe(200);
      return (await res.json()) as { data: Array<{ id: string }>; has_more: boolean; first_id: string | null; last_id: string | null };
    };
    const all = await list('?limit=1000');
    expect(all.has_more).toBe(false);
    const ids = all.data.map((m) => m.id);
    expect(ids.length).toBeGreaterThan(4);
    const first = await list('?limit=2');
    expect(first.data.map((m) => m.id)).toEqual(ids.slice(0, 2));
    expect(first).toMatchObject({ has_more: true, first_id: ids[0], last_id: ids[1] });
    const second = await list(`?limit=2&after_id=${encodeURIComponent(ids[1] as string)}`);
    expect(second.data.map((m) => m.id)).toEqual(ids.slice(2, 4));
    const back = await list(`?limit=2&before_id=${encodeURIComponent(ids[3] as string)}`);
    expect(back.data.map((m) => m.id)).toEqual(ids.slice(1, 3));
    expect(back.has_more).toBe(true);
    // The default page is 20, and the SDK's auto-pagination walks every page.
    expect((await list('')).data).toHaveLength(Math.min(20, ids.length));
    const walked: string[] = [];
    for await (const model of sdk(gateway, tokens.alice as string).models.list({ limit: 2 })) walked.push(model.id);
    expect(walked).toEqual(ids);
    const bad = await fetch(`${gateway.url}/v1/models?limit=0`, { headers: { authorization: `Bearer ${tokens.alice}` } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as ErrorBody).error.message).toBe('gw: "limit" must be an integer from 1 to 1000');
  });

  it("[S2.2-g] the application names of the vendor's own agents (gw-agent, gw-local-agent) are recorded as sent", async () => {
    for (const application of ['gw-agent', 'gw-local-agent']) {
      const res = await post(gateway, tokens.bob as string, { model: 'claude-haiku-4-5', max_tokens: 5, messages: [] }, { 'x-gw-application': application });
      expect(res.status).toBe(200);
      await res.text();
    }
    const logs = await waitForLogs(gateway, 3, '&address=bob@acme.example');
    expect(
      logs
        .slice(0, 2)
        .map((r) => r.application)
        .sort(),
    ).toEqual(['gw-agent', 'gw-local-agent']);
  });
});
