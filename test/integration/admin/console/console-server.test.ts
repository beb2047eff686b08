import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../../../src/auth/token.js';
import { writeGatewayConfig, type TestConfig } from '../../../support/gateway-config.js';
import { ADMIN_TOKEN, adminGet, ROOT, startGateway, waitForLogs, type GatewayProcess } from '../../../support/gateway-process.js';
import { startMockProvider, type MockProvider } from '../../../support/mock-provider.js';
import { startRedis, type TestRedis } from '../../../support/redis-server.js';

/**
 * The console's HTTP surface on a real `gw serve` (spawned from dist/): what
 * is open, what a session is, how writes are guarded, and that each write
 * lands in the -f file and takes effect at the gateway.
 */
const SECRET = 'sk-ant-api03-console-test-secret-000000';

interface Client {
  cookie: string | null;
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: Record<string, unknown>; headers: Headers; text: string }>;
}

function client(gateway: GatewayProcess): Client {
  const c: Client = {
    cookie: null,
    async call(method, path, body, headers = {}) {
      const res = await fetch(`${gateway.adminUrl}/console/api/${path}`, {
        method,
        headers: {
          ...(c.cookie ? { cookie: c.cookie } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(method !== 'GET' ? { origin: gateway.adminUrl, 'x-gw-console': '1' } : {}),
          ...headers,
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const setCookie = res.headers.get('set-cookie');
      if (setCookie) c.cookie = setCookie.split(';')[0] ?? null;
      const text = await res.text();
      let parsed: Record<string, unknown> = {};
      try {
        parsed = JSON.parse(text) as Record<string, unknown>;
      } catch {
        parsed = {};
      }
      return { status: res.status, body: parsed, headers: res.headers, text };
    },
  };
  return c;
}

async function signedIn(gateway: GatewayProcess, token = ADMIN_TOKEN): Promise<Client> {
  const c = client(gateway);
  const res = await c.call('POST', 'session', { token });
  expect(res.status).toBe(200);
  return c;
}

function messages(gateway: GatewayProcess, token: string, model = 'claude-haiku-4-5'): Promise<Response> {
  return fetch(`${gateway.url}/v1/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }),
  });
}

describe('owner console on gw serve (memory state)', () => {
  let vendor: MockProvider;
  let gateway: GatewayProcess;
  let config: TestConfig;
  const scopedToken = `other-reader-${randomBytes(8).toString('hex')}`;

  beforeAll(async () => {
    vendor = await startMockProvider();
    config = writeGatewayConfig({
      settings: { repositoryAttribution: true },
      tokens: ['alice', 'bob'],
      credentials: [{ name: 'k', provider: 'vendor', baseUrl: vendor.url, secret: SECRET }],
      extraDocs: [{ apiVersion: 'gw.io/v1alpha1', kind: 'GatewaySettings', metadata: { name: 'settings', namespace: 'other' }, spec: { tokenDomain: 'other.example' } }],
    });
    const scoped = join(config.dir, 'admin-tokens.yaml');
    writeFileSync(scoped, `- name: other-finance\n  sha256: "${hashToken(scopedToken)}"\n  companies: [other]\n`);
    gateway = await startGateway(config.file, { args: ['--admin-tokens-file', scoped] });
    for (let i = 0; i < 5; i++) await (await messages(gateway, config.tokens[i % 2 === 0 ? 'alice' : 'bob'] as string, i % 2 === 0 ? 'claude-haiku-4-5' : 'claude-sonnet-4-5')).text();
    await waitForLogs(gateway, 5);
  });

  afterAll(async () => {
    await gateway?.stop();
    await vendor?.close();
  });

  it('serves the page with a strict CSP, no inline script, no other origin, and only its own files', async () => {
    const res = await fetch(`${gateway.adminUrl}/console/`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    const html = await res.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect((await fetch(`${gateway.adminUrl}/console/app.js`)).headers.get('content-type')).toMatch(/javascript/);
    expect((await fetch(`${gateway.adminUrl}/console/..%2f..%2fpackage.json`)).status).toBe(404);
    expect((await fetch(`${gateway.adminUrl}/console/app.js.map`)).status).toBe(404);
  });

  it('ships at most 150 KB of JavaScript and CSS, gzipped', () => {
    const dir = join(ROOT, 'dist', 'console');
    const shipped = readdirSync(dir).filter((f) => f.endsWith('.js') || f.endsWith('.css'));
    expect(shipped).toContain('app.js');
    const total = shipped.reduce((sum, f) => sum + gzipSync(readFileSync(join(dir, f)), { level: 9 }).length, 0);
    expect(total).toBeLessThanOrEqual(150 * 1024);
  });

  it('answers every API route with 401 without a session, and refuses an unknown or missing token', async () => {
    const anon = client(gateway);
    for (const path of ['me', 'usage?company=acme', 'logs?company=acme', 'tokens?company=acme', 'settings?company=acme', 'models?company=acme', 'credentials?company=acme']) {
      expect((await anon.call('GET', path)).status).toBe(401);
    }
    expect((await anon.call('POST', 'session', { token: 'not-an-admin-token-at-all' })).status).toBe(401);
    expect((await anon.call('POST', 'session', { token: '' })).status).toBe(400);
    expect(anon.cookie).toBeNull();
  });

  it('gives a session cookie that is HttpOnly, SameSite=Strict, path-bound, Secure only behind TLS, and ends it on Sign out', async () => {
    const plain = await fetch(`${gateway.adminUrl}/console/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: gateway.adminUrl, 'x-gw-console': '1' },
      body: JSON.stringify({ token: ADMIN_TOKEN }),
    });
    const cookie = plain.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^gw_console=[A-Za-z0-9_-]{43}; Path=\/console\/; HttpOnly; SameSite=Strict; Max-Age=\d+$/);
    expect(cookie).not.toContain(ADMIN_TOKEN);
    const tls = await fetch(`${gateway.adminUrl}/console/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: gateway.adminUrl, 'x-gw-console': '1', 'x-forwarded-proto': 'https' },
      body: JSON.stringify({ token: ADMIN_TOKEN }),
    });
    expect(tls.headers.get('set-cookie')).toContain('; Secure');
    const c = client(gateway);
    c.cookie = cookie.split(';')[0] ?? null;
    expect((await c.call('GET', 'me')).body).toMatchObject({ who: 'admin token', companies: ['acme', 'other'], writes: true });
    expect((await c.call('DELETE', 'session')).status).toBe(200);
    c.cookie = cookie.split(';')[0] ?? null;
    expect((await c.call('GET', 'me')).status).toBe(401);
  });

  it('refuses a write without the same-origin Origin or without the console header, even with the cookie', async () => {
    const c = await signedIn(gateway);
    const version = (await c.call('GET', 'tokens?company=acme')).body.version as string;
    const body = { company: 'acme', name: 'forged', version };
    expect((await c.call('POST', 'tokens', body, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await c.call('POST', 'tokens', body, { origin: '' })).status).toBe(403);
    const res = await fetch(`${gateway.adminUrl}/console/api/tokens`, {
      method: 'POST',
      headers: { cookie: c.cookie as string, origin: gateway.adminUrl, 'content-type': 'text/plain' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(403);
    expect(readFileSync(config.file, 'utf8')).not.toContain('forged');
  });

  it("decides each call with the person's own token: a scoped admin token sees only its company", async () => {
    const c = await signedIn(gateway, scopedToken);
    expect((await c.call('GET', 'me')).body).toMatchObject({ who: 'other-finance', companies: ['other'] });
    expect((await c.call('GET', 'usage?company=acme')).status).toBe(403);
    expect((await c.call('GET', 'logs?company=acme')).status).toBe(403);
    expect((await c.call('POST', 'tokens', { company: 'acme', name: 'sneaky', version: 'x' })).status).toBe(403);
    expect((await c.call('GET', 'usage?company=other')).status).toBe(200);
  });

  it('shows the same Usage numbers as the Usage API behind gw usage, in every grouping', async () => {
    const c = await signedIn(gateway);
    for (const group of ['address', 'model', 'provider', 'repo', 'application', 'end_user']) {
      const mine = await c.call('GET', `usage?company=acme&group_by=${group}&period=month`);
      const theirs = await adminGet(gateway, `/admin/v1/usage?company=acme&group_by=${group}&period=month`);
      expect(mine.body.data).toEqual((theirs.body as { data: unknown }).data);
      expect(mine.body.timeZone).toBe('UTC');
    }
    // With more groups than the page lists, the listed rows are still the API's own and the rest add up to the API's, period by period.
    const micros = (rows: { cost_usd: number }[]): number => rows.reduce((s, r) => s + Math.round(r.cost_usd * 1e6), 0);
    for (const group of ['address', 'model']) {
      type Row = { period?: string; key: string | null; requests: number; cost_usd: number; groups?: number };
      const mine = (await c.call('GET', `usage?company=acme&group_by=${group}&period=day&top=1`)).body as { data: Row[]; others: Row[]; groups: number; totals: Row };
      const theirs = ((await adminGet(gateway, `/admin/v1/usage?company=acme&group_by=${group}&period=day`)).body as { data: Row[] }).data;
      const keys = new Set(theirs.map((r) => r.key));
      expect(keys.size).toBe(2);
      expect(mine.groups).toBe(2);
      expect(new Set(mine.data.map((r) => r.key)).size).toBe(1);
      expect(mine.data).toEqual(theirs.filter((r) => r.key === mine.data[0]?.key));
      const rest = theirs.filter((r) => r.key !== mine.data[0]?.key);
      expect(mine.others.map((o) => o.period)).toEqual([...new Set(rest.map((r) => r.period))]);
      for (const o of mine.others) {
        const inPeriod = rest.filter((r) => r.period === o.period);
        expect(o).toMatchObject({ groups: inPeriod.length, requests: inPeriod.reduce((s, r) => s + r.requests, 0) });
        expect(Math.round(o.cost_usd * 1e6)).toBe(micros(inPeriod));
      }
      expect(mine.totals.requests).toBe(5);
      expect(Math.round(mine.totals.cost_usd * 1e6)).toBe(micros(theirs));
      // Download CSV is never folded: every group.
      const csv = (await c.call('GET', `usage?company=acme&group_by=${group}&period=day&top=1&format=csv`)).text;
      expect(csv.trim().split('\n').length - 1).toBe(theirs.length);
    }
    expect((await c.call('GET', 'usage?company=acme&top=0')).status).toBe(400);
    const csv = await c.call('GET', 'usage?company=acme&group_by=model&period=day&format=csv');
    expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
    expect(csv.text.split('\n')[0]).toContain('cost_usd');
  });

  it('pages Logs by keyset: the pages, joined, are exactly the log in order, in both orders', async () => {
    const c = await signedIn(gateway);
    for (const order of ['time', 'cost']) {
      const all = ((await adminGet(gateway, `/admin/v1/logs?company=acme&order=${order}&limit=1000`)).body as { data: { request_id: string }[] }).data.map((r) => r.request_id);
      const seen: string[] = [];
      let after = '';
      for (let page = 0; page < 10; page++) {
        const res = await c.call('GET', `logs?company=acme&order=${order}&limit=2${after ? `&after=${after}` : ''}`);
        seen.push(...(res.body.data as { request_id: string }[]).map((r) => r.request_id));
        if (res.body.next === null) break;
        after = res.body.next as string;
      }
      expect(seen).toEqual(all);
      expect(seen.length).toBeGreaterThanOrEqual(5);
    }
    expect((await c.call('GET', 'logs?company=acme&after=garbage')).status).toBe(400);
  });

  it('lists credentials with health and never any part of the secret', async () => {
    const c = await signedIn(gateway);
    const res = await c.call('GET', 'credentials?company=acme');
    expect(res.body.credentials).toEqual([{ name: 'k', provider: 'vendor', kind: 'apiKey', healthy: true, reason: null, windows: [] }]);
    for (const path of ['credentials', 'models', 'settings', 'tokens', 'logs', 'usage']) {
      const text = (await c.call('GET', `${path}?company=acme`)).text;
      expect(text).not.toContain(SECRET.slice(0, 16));
      expect(text).not.toContain(vendor.url);
    }
  });

  it('creates a token shown once (only its hash in the file), which works at once; revoking it gets 401; a stale page gets 409', async () => {
    const c = await signedIn(gateway);
    const before = (await c.call('GET', 'tokens?company=acme')).body.version as string;
    const created = await c.call('POST', 'tokens', { company: 'acme', name: 'ci-bot', version: before });
    expect(created.status).toBe(201);
    const token = created.body.token as string;
    expect(token).toMatch(/^gwct_/);
    const file = readFileSync(config.file, 'utf8');
    expect(file).not.toContain(token);
    expect(file).toContain(hashToken(token));
    expect((await messages(gateway, token)).status).toBe(200);
    const listed = (await c.call('GET', 'tokens?company=acme')).body.tokens as { name: string; state: string; address: string }[];
    expect(listed.find((t) => t.name === 'ci-bot')).toMatchObject({ state: 'live', address: 'ci-bot@acme.example' });
    expect(JSON.stringify(listed)).not.toContain(token);

    const stale = await c.call('POST', 'tokens', { company: 'acme', name: 'late', version: before });
    expect(stale.status).toBe(409);
    expect(stale.body.changed).toEqual(['GatewayToken acme/ci-bot added']);

    const now = (await c.call('GET', 'tokens?company=acme')).body.version as string;
    expect((await c.call('POST', 'tokens', { company: 'acme', name: 'ci-bot', version: now })).status).toBe(409);
    expect((await c.call('POST', 'tokens', { company: 'acme', name: 'Bad Name', version: now })).status).toBe(400);
    const revoked = await c.call('POST', 'tokens/revoke', { company: 'acme', name: 'ci-bot', version: now });
    expect(revoked.status).toBe(200);
    expect((await messages(gateway, token)).status).toBe(401);
    expect(gateway.output.join('\n')).not.toContain(token);
    expect(gateway.output.join('\n')).not.toContain(ADMIN_TOKEN);
  });

  it('refuses an invalid time zone with the operator’s text and writes nothing; a valid spend limit gives 402', async () => {
    const c = await signedIn(gateway);
    const version = (await c.call('GET', 'settings?company=acme')).body.version as string;
    const before = readFileSync(config.file, 'utf8');
    const bad = await c.call('PUT', 'settings', { company: 'acme', version, spendLimits: { timeZone: 'Mars/Olympus_Mons' } });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toContain('"Mars/Olympus_Mons" is not an IANA time zone (e.g. UTC, Europe/Paris, America/New_York)');
    expect(readFileSync(config.file, 'utf8')).toBe(before);
    const ok = await c.call('PUT', 'settings', { company: 'acme', version, spendLimits: { timeZone: 'Europe/Paris', perToken: [{ window: 'daily', usd: 0 }] } });
    expect(ok.status).toBe(200);
    expect((await c.call('GET', 'settings?company=acme')).body.spendLimits).toMatchObject({ timeZone: 'Europe/Paris', perToken: [{ window: 'daily', usd: 0 }] });
    expect((await messages(gateway, config.tokens.bob as string)).status).toBe(402);
    const v2 = (await c.call('GET', 'settings?company=acme')).body.version as string;
    expect((await c.call('PUT', 'settings', { company: 'acme', version: v2, spendLimits: { timeZone: 'UTC' } })).status).toBe(200);
    expect((await messages(gateway, config.tokens.bob as string)).status).toBe(200);
  });

  it("reads the page's From and To, dates alone, as days in the company's time zone: the API's answer for those instants", async () => {
    const c = await signedIn(gateway);
    // A zone whose calendar day holds the calls but whose UTC day does not: 14 h ahead late in the UTC day, 12 h behind
    // early in it, so reading the dates as UTC midnight would leave every call out.
    const now = new Date();
    const ahead = now.getUTCHours() >= 10;
    const zone = ahead ? 'Etc/GMT-14' : 'Etc/GMT+12';
    const offsetMs = (ahead ? 14 : -12) * 3_600_000;
    const localDay = new Date(now.getTime() + offsetMs).toISOString().slice(0, 10);
    const nextDay = new Date(Date.parse(localDay) + 86_400_000).toISOString().slice(0, 10);
    const version = (await c.call('GET', 'settings?company=acme')).body.version as string;
    expect((await c.call('PUT', 'settings', { company: 'acme', version, spendLimits: { timeZone: zone } })).status).toBe(200);
    try {
      const since = new Date(Date.parse(localDay) - offsetMs).toISOString();
      const until = new Date(Date.parse(nextDay) - offsetMs).toISOString();
      const mine = await c.call('GET', `usage?company=acme&group_by=model&period=day&from=${localDay}&to=${nextDay}`);
      expect(mine.status).toBe(200);
      const theirs = (await adminGet(gateway, `/admin/v1/usage?company=acme&group_by=model&period=day&since=${since}&until=${until}`)).body as { data: { requests: number }[] };
      expect(mine.body.data).toEqual(theirs.data);
      expect(theirs.data.reduce((n, r) => n + r.requests, 0)).toBeGreaterThan(0);
      const logs = await c.call('GET', `logs?company=acme&from=${localDay}&to=${nextDay}`);
      expect((logs.body.data as unknown[]).length).toBeGreaterThan(0);
    } finally {
      const v2 = (await c.call('GET', 'settings?company=acme')).body.version as string;
      expect((await c.call('PUT', 'settings', { company: 'acme', version: v2, spendLimits: { timeZone: 'UTC' } })).status).toBe(200);
    }
  });

  it('switches a model off and on: the gateway refuses it while off', async () => {
    const c = await signedIn(gateway);
    const models = await c.call('GET', 'models?company=acme');
    const vendorModels = (models.body.providers as { provider: string; models: { id: string; on: boolean }[] }[])[0];
    expect(vendorModels?.models.find((m) => m.id === 'claude-haiku-4-5-20251001')?.on).toBe(true);
    const off = await c.call('PUT', 'models', { company: 'acme', version: models.body.version, provider: 'vendor', id: 'claude-haiku-4-5-20251001', on: false });
    expect(off.status).toBe(200);
    expect((await messages(gateway, config.tokens.alice as string, 'claude-haiku-4-5')).status).toBe(403);
    const on = await c.call('PUT', 'models', { company: 'acme', version: off.body.version, provider: 'vendor', id: 'claude-haiku-4-5-20251001', on: true });
    expect(on.status).toBe(200);
    expect((await messages(gateway, config.tokens.alice as string, 'claude-haiku-4-5')).status).toBe(200);
  });

  it('keeps the file changes across a restart of gw serve', async () => {
    const c = await signedIn(gateway);
    const version = (await c.call('GET', 'tokens?company=acme')).body.version as string;
    const token = (await c.call('POST', 'tokens', { company: 'acme', name: 'survivor', version })).body.token as string;
    await gateway.stop();
    gateway = await startGateway(config.file, { args: ['--admin-tokens-file', join(config.dir, 'admin-tokens.yaml')] });
    expect((await messages(gateway, token)).status).toBe(200);
  });
});

describe('owner console with Redis: a session is valid on every replica', () => {
  let vendor: MockProvider;
  let redis: TestRedis;
  let a: GatewayProcess;
  let b: GatewayProcess;

  beforeAll(async () => {
    [vendor, redis] = await Promise.all([startMockProvider(), startRedis()]);
    const config = writeGatewayConfig({ tokens: ['alice'], credentials: [{ name: 'k', provider: 'vendor', baseUrl: vendor.url, secret: SECRET }] });
    const env = { GW_ENCRYPTION_KEY: randomBytes(32).toString('base64') };
    a = await startGateway(config.file, { args: ['--redis', redis.url], env });
    b = await startGateway(config.file, { args: ['--redis', redis.url], env });
  });

  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await redis?.stop();
    await vendor?.close();
  });

  it('signs in on one replica, is known on the other, and signing out on the other ends it everywhere', async () => {
    const onA = await signedIn(a);
    const cookie = onA.cookie;
    const onB = client(b);
    onB.cookie = cookie;
    expect((await onB.call('GET', 'me')).status).toBe(200);
    // Kept sealed: the pasted token is not readable in Redis.
    const store = new Redis(redis.url);
    const keys = await store.keys('gw:console:session:*');
    expect(keys).toHaveLength(1);
    expect(await store.get(keys[0] as string)).not.toContain(ADMIN_TOKEN);
    expect((await onB.call('DELETE', 'session')).status).toBe(200);
    expect(await store.keys('gw:console:session:*')).toEqual([]);
    store.disconnect();
    onA.cookie = cookie;
    expect((await onA.call('GET', 'me')).status).toBe(401);
  });
});
