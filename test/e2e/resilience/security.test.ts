import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToken, hashToken } from '../../../src/auth/token.js';
import { freePort } from '../../support/free-port.js';
import { writeGatewayConfig } from '../../support/gateway-config.js';
import { ADMIN_TOKEN, logsCaughtUp, type GatewayProcess } from '../../support/gateway-process.js';
import { startMockProvider, type MockProvider } from '../../support/mock-provider.js';
import { classify, fromFetch, logsFor, waitUntil } from '../../support/resilience.js';
import { PLANES } from './planes.js';

/**
 * Where secrets may and may not go. Two companies share one file (two
 * namespaces), each with its own credentials pointing at its own mock
 * provider. Caller tokens must never reach a provider; provider credentials
 * must never reach a caller, a log line or a metric; one company's token
 * reaches only that company's credentials; usage is read only through the
 * admin API, with the admin token.
 */

const ACME_VENDOR = 'sk-ant-api03-acme-vendor-secret-KKKKKKKKKKKKKKKKKKKKKK';
const ACME_DEAD = 'sk-or-v1-acme-dead-provider-secret-LLLLLLLLLLLLLLLL';
const ACME_REFUSED = 'sk-acme-refused-by-its-provider-OOOOOOOOOOOOOOOOOOO';
const GLOBEX_VENDOR = 'sk-ant-api03-globex-vendor-secret-MMMMMMMMMMMMMMMMMMM';
const GLOBEX_AGG = 'sk-or-v1-globex-aggregator-secret-NNNNNNNNNNNNNNNNNNN';
const SECRETS = [ACME_VENDOR, ACME_DEAD, ACME_REFUSED, GLOBEX_VENDOR, GLOBEX_AGG];

/** Globex: a second company in the same file, with a vendor key and an aggregator of its own. */
function globex(vendorUrl: string, aggUrl: string): { docs: unknown[]; token: string } {
  const token = generateToken();
  const ns = 'globex';
  const credential = (name: string, provider: string, baseUrl: string, secret: string, extra: Record<string, unknown> = {}): unknown[] => [
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: `${name}-secret`, namespace: ns, labels: { 'gw.io/secret': 'true' } }, stringData: { key: secret } },
    {
      apiVersion: 'gw.io/v1alpha1',
      kind: 'ProviderCredential',
      metadata: { name, namespace: ns },
      spec: { provider, kind: 'apiKey', secretRef: { name: `${name}-secret`, key: 'key' }, baseUrl, maxConcurrency: 20, ...extra },
    },
  ];
  return {
    token,
    docs: [
      {
        apiVersion: 'gw.io/v1alpha1',
        kind: 'GatewaySettings',
        metadata: { name: 'settings', namespace: ns },
        spec: { tokenDomain: 'globex.example', models: { provider_a: { enabled: ['z-ai/glm-4.6'] } } },
      },
      { apiVersion: 'gw.io/v1alpha1', kind: 'GatewayToken', metadata: { name: 'hank', namespace: ns }, spec: { displayName: 'hank', tokenHash: hashToken(token) } },
      ...credential('globex-vendor', 'vendor', vendorUrl, GLOBEX_VENDOR),
      ...credential('globex-agg', 'provider_a', aggUrl, GLOBEX_AGG, { authScheme: 'bearer' }),
    ],
  };
}

interface Exchange {
  readonly what: string;
  readonly status: number;
  readonly headers: string;
  readonly body: string;
}

describe.each(PLANES)('secrets and tenancy through $name', (plane) => {
  let acmeVendor: MockProvider;
  let acmeRefusing: MockProvider;
  let globexVendor: MockProvider;
  let globexAgg: MockProvider;
  let gateway: GatewayProcess;
  let alice: string;
  let bob: string;
  let hank: string;
  /** Every response a caller received in this suite (headers and body). */
  const exchanges: Exchange[] = [];

  beforeAll(async () => {
    acmeVendor = await startMockProvider();
    // A provider that refuses its key (401): the answer is relayed, and must not quote the key.
    acmeRefusing = await startMockProvider({ serveModels: false });
    acmeRefusing.behaviour = { kind: 'status', status: 401, errorType: 'authentication_error', message: 'invalid x-api-key' };
    globexVendor = await startMockProvider();
    globexAgg = await startMockProvider({ models: ['z-ai/glm-4.6'] });
    const dead = `http://127.0.0.1:${await freePort()}`;
    const g = globex(globexVendor.url, globexAgg.url);
    const config = writeGatewayConfig({
      tokens: ['alice', 'bob'],
      credentials: [
        { name: 'acme-vendor', provider: 'vendor', baseUrl: acmeVendor.url, secret: ACME_VENDOR, maxConcurrency: 20 },
        // A provider nobody listens for: its errors must not quote the key either.
        { name: 'acme-dead', provider: 'provider_b', baseUrl: dead, secret: ACME_DEAD, authScheme: 'bearer' },
        { name: 'acme-refused', provider: 'provider_c', baseUrl: acmeRefusing.url, secret: ACME_REFUSED },
      ],
      extraDocs: g.docs,
    });
    alice = config.tokens.alice as string;
    bob = config.tokens.bob as string;
    hank = g.token;
    gateway = await plane.launch(config.file);
  });

  afterAll(async () => {
    await gateway?.stop();
    await acmeVendor?.close();
    await acmeRefusing?.close();
    await globexVendor?.close();
    await globexAgg?.close();
  });

  async function send(what: string, path: string, init: RequestInit & { headers?: Record<string, string> }): Promise<Exchange & { json: () => unknown; res: Response }> {
    const res = await fetch(gateway.url + path, init);
    const body = await res.text();
    const exchange = { what, status: res.status, headers: JSON.stringify([...res.headers]), body };
    exchanges.push(exchange);
    return { ...exchange, res, json: () => JSON.parse(body) as unknown };
  }

  function messages(token: string, body: unknown, headers: Record<string, string> = {}, path = '/v1/messages'): ReturnType<typeof send> {
    return send(`${path} ${JSON.stringify(body).slice(0, 60)}`, path, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  }

  const basic = { max_tokens: 10, messages: [{ role: 'user' as const, content: 'hello' }] };

  it("never lets a caller's token reach a provider, whichever header or route it rides in", async () => {
    const sdk = new Anthropic({ baseURL: gateway.url, authToken: alice, apiKey: null, maxRetries: 0 });
    await sdk.messages.create({ model: 'claude-haiku-4-5', ...basic });
    const stream = sdk.messages.stream({ model: 'claude-haiku-4-5', ...basic });
    await stream.finalMessage();
    await sdk.messages.countTokens({ model: 'claude-haiku-4-5', messages: basic.messages });
    // The token repeated where a careless client might put it: all of these are consumed, never forwarded.
    const echo = { 'x-api-key': alice, cookie: `session=${alice}`, 'x-gw-application': alice, 'x-gw-end-user': bob, 'proxy-authorization': `Bearer ${alice}` };
    expect((await messages(alice, { model: 'claude-haiku-4-5', ...basic }, echo)).status).toBe(200);
    expect((await messages(bob, { model: 'claude-haiku-4-5', stream: true, ...basic }, { 'x-api-key': bob })).status).toBe(200);
    expect((await send('models', '/v1/models', { headers: { authorization: `Bearer ${alice}` } })).status).toBe(200);
    expect((await messages(hank, { model: 'provider_a:z-ai/glm-4.6', ...basic })).status).toBe(200);

    const seen = [...acmeVendor.seen, ...acmeRefusing.seen, ...globexVendor.seen, ...globexAgg.seen];
    expect(seen.filter((s) => s.path.includes('/v1/messages')).length).toBeGreaterThanOrEqual(6);
    for (const s of seen) {
      for (const t of [alice, bob, hank]) {
        expect(s.path).not.toContain(t);
        expect(Object.entries(s.headers).filter(([, v]) => String(v).includes(t))).toEqual([]);
        expect(s.body.toString('latin1')).not.toContain(t);
      }
      expect(s.headers.cookie).toBeUndefined();
    }
  });

  it('keeps provider credentials out of every response, log line and metric, errors included', async () => {
    // Error paths that involve a credential: the provider refuses it, or cannot be reached at all.
    const refused = await messages(alice, { model: 'provider_c:any-model', ...basic });
    expect(refused.status).toBe(401);
    expect(refused.res.headers.get('x-gw-source')).toBe('upstream');
    // The provider did get the key (in its auth header), so the check below means something.
    expect(JSON.stringify(acmeRefusing.messageRequests().at(-1)?.headers)).toContain(ACME_REFUSED);
    const unreachable = await messages(alice, { model: 'provider_b:some/model', ...basic });
    expect(unreachable.status).toBeGreaterThanOrEqual(500);
    await messages(alice, { model: 'not-a-model-at-all', ...basic });
    await messages(alice, { model: 'claude-haiku-4-5' });
    await send('models', '/v1/models', { headers: { authorization: `Bearer ${hank}` } });

    expect(exchanges.length).toBeGreaterThan(5);
    for (const e of exchanges) for (const secret of SECRETS) expect(`${e.what} ${e.headers} ${e.body}`).not.toContain(secret);
    const metrics = await (await fetch(`${gateway.adminUrl}/metrics`)).text();
    expect(metrics).toContain('gw_requests_total');
    for (const secret of SECRETS) expect(metrics).not.toContain(secret);
    const admin = await (await fetch(`${gateway.adminUrl}/admin/v1/logs?limit=1000`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).text();
    for (const secret of SECRETS) expect(admin).not.toContain(secret);
    await logsCaughtUp(gateway);
    const output = gateway.output.join('\n');
    expect(output.length).toBeGreaterThan(0);
    for (const s of [...SECRETS, alice, bob, hank, ADMIN_TOKEN]) expect(output).not.toContain(s);
  });

  it("confines each company's token to its own credentials and its own usage", async () => {
    const beforeAcme = acmeVendor.messageRequests().length;
    const beforeGlobex = globexVendor.messageRequests().length;
    const beforeAgg = globexAgg.messageRequests().length;
    for (let i = 0; i < 3; i++) {
      expect((await messages(alice, { model: 'claude-haiku-4-5', ...basic }, { 'x-gw-application': 'tenancy' })).status).toBe(200);
      expect((await messages(hank, { model: 'claude-haiku-4-5', ...basic }, { 'x-gw-application': 'tenancy' })).status).toBe(200);
    }
    // Globex's aggregator is not acme's: pinning it is refused, and nothing goes there.
    const pinned = await messages(alice, { model: 'provider_a:z-ai/glm-4.6', ...basic });
    expect(classify(fromFetch(pinned.res, pinned.body))).toBe('model_not_allowed');
    expect(acmeVendor.messageRequests().length - beforeAcme).toBe(3);
    expect(globexVendor.messageRequests().length - beforeGlobex).toBe(3);
    expect(globexAgg.messageRequests().length).toBe(beforeAgg);
    for (const s of acmeVendor.messageRequests()) expect(s.headers['x-api-key']).toBe(ACME_VENDOR);
    for (const s of globexVendor.messageRequests()) expect(s.headers['x-api-key']).toBe(GLOBEX_VENDOR);
    for (const s of globexAgg.seen) expect(s.headers.authorization).toBe(`Bearer ${GLOBEX_AGG}`);
    // GET /v1/models lists only the caller's own company's models.
    const acmeModels = (await send('models', '/v1/models', { headers: { authorization: `Bearer ${alice}` } })).json() as { data: Array<{ id: string }> };
    expect(acmeModels.data.length).toBeGreaterThan(0);
    expect(acmeModels.data.filter((m) => m.id.startsWith('provider_a:'))).toEqual([]);

    // Usage: the admin API, per company, is the only reader.
    const acme = await waitUntil('acme usage', async () => {
      const rows = (await logsFor(gateway, '&company=acme')).filter((r) => r.application === 'tenancy');
      return rows.length >= 3 ? rows : undefined;
    });
    const globexRows = (await logsFor(gateway, '&company=globex')).filter((r) => r.application === 'tenancy');
    expect(new Set(acme.map((r) => r.company))).toEqual(new Set(['acme']));
    expect(new Set(acme.map((r) => r.credential))).toEqual(new Set(['acme-vendor']));
    expect(new Set(globexRows.map((r) => r.company))).toEqual(new Set(['globex']));
    expect(new Set(globexRows.map((r) => r.credential))).toEqual(new Set(['globex-vendor']));
    for (const token of [alice, hank]) {
      for (const path of ['/admin/v1/logs', '/admin/v1/logs?company=globex', '/admin/v1/usage?company=acme']) {
        const viaAdmin = await fetch(gateway.adminUrl + path, { headers: { authorization: `Bearer ${token}` } });
        expect(viaAdmin.status).toBe(401);
        expect(await viaAdmin.text()).not.toContain('tenancy');
        // The data port serves no usage at all.
        const viaData = await send(`data port ${path}`, path, { headers: { authorization: `Bearer ${token}` } });
        expect(classify(fromFetch(viaData.res, viaData.body))).toBe('not_found');
        expect(viaData.body).not.toContain('tenancy');
      }
    }
  });

  it('refuses every admin endpoint without the admin token, with a wrong one, and with a caller token', async () => {
    const wrongs: Array<[string, Record<string, string>]> = [
      ['no header', {}],
      ['empty bearer', { authorization: 'Bearer ' }],
      ['wrong token', { authorization: 'Bearer not-the-admin-token-at-all' }],
      ['admin token one character off', { authorization: `Bearer ${ADMIN_TOKEN.slice(0, -1)}${ADMIN_TOKEN.endsWith('x') ? 'y' : 'x'}` }],
      ['admin token prefix', { authorization: `Bearer ${ADMIN_TOKEN.slice(0, 16)}` }],
      ['admin token with a suffix', { authorization: `Bearer ${ADMIN_TOKEN}x` }],
      ['admin token as x-api-key', { 'x-api-key': ADMIN_TOKEN }],
      ['admin token under Basic', { authorization: `Basic ${ADMIN_TOKEN}` }],
      ['caller token', { authorization: `Bearer ${alice}` }],
      ['other company caller token', { authorization: `Bearer ${hank}` }],
    ];
    const paths = ['/admin/v1/logs', '/admin/v1/logs?company=acme&limit=5', '/admin/v1/usage', '/admin/v1/usage?company=globex&group_by=model', '/admin/v1/anything'];
    for (const path of paths) {
      for (const [label, headers] of wrongs) {
        const res = await fetch(gateway.adminUrl + path, { headers });
        const text = await res.text();
        expect({ path, label, status: res.status }).toEqual({ path, label, status: 401 });
        expect(JSON.parse(text)).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
        expect(text).not.toContain('"data"');
      }
      const ok = await fetch(gateway.adminUrl + path, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      await ok.text();
      expect(ok.status).toBe(path === '/admin/v1/anything' ? 404 : 200);
    }
  });
});
