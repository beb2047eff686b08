import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToken, hashToken } from '../../../src/auth/token.js';
import { settingsRecord } from '../../../src/reconcile/settings.js';
import { RECORD_VERSION, UnreadableRecord } from '../../../src/state/record-version.js';
import type { CompanyRecords } from '../../../src/state/records.js';
import { connectRedis } from '../../../src/state/redis/connect.js';
import { RedisState } from '../../../src/state/redis/redis-state.js';
import { SecretBox } from '../../../src/state/secret-box.js';
import { startMockProvider, type MockProvider } from '../../support/mock-provider.js';
import { startReaderGateway, type ReaderGateway } from '../../support/operator-process.js';
import { startRedis, type TestRedis } from '../../support/redis-server.js';

// Every record the writer leaves for the data planes (company records, token
// keys) carries a schema version; a reader refuses one newer than it reads,
// says so and fails closed. Real redis-server; the last case through a real
// `gw serve --redis` (npm run build first).
const ENCRYPTION_KEY = randomBytes(32).toString('base64');
const BOX = SecretBox.fromBase64(ENCRYPTION_KEY);

let redis: TestRedis;
let raw: Redis;
let mock: MockProvider;
let gateway: ReaderGateway | null = null;

beforeAll(async () => {
  redis = await startRedis();
  raw = new Redis(redis.url);
  mock = await startMockProvider();
}, 120_000);

afterAll(async () => {
  await gateway?.stop('SIGKILL');
  raw?.disconnect();
  await mock?.close();
  await redis?.destroy();
});

function records(company: string, token: string, baseUrl = 'https://vendor.example'): CompanyRecords {
  return {
    company,
    settings: settingsRecord(company, {}),
    tokens: [{ hash: hashToken(token), company, name: 'ci', address: `ci@${company}` }],
    credentials: [{ company, name: 'vendor', provider: 'vendor', kind: 'apiKey', secret: 'sk-ant-version', baseUrl, authScheme: 'xApiKey', maxConcurrency: 4, models: null, priority: 0 }],
  };
}

async function stateWith(seen: UnreadableRecord[]): Promise<RedisState> {
  const state = new RedisState(connectRedis(redis.url), BOX, { onUnreadableRecord: (e) => seen.push(e) });
  await state.ready();
  return state;
}

describe('versioned records', () => {
  it('writes the version into company records, live tokens and tombstones, and reads them back', async () => {
    const state = await stateWith([]);
    try {
      const token = generateToken();
      const company = `v-${randomBytes(2).toString('hex')}`;
      await state.replaceCompany(records(company, token));
      expect(JSON.parse((await raw.get(`gw:{${company}}:records`)) as string)).toMatchObject({ v: RECORD_VERSION, company });
      expect(JSON.parse((await raw.get(`gw:token:${hashToken(token)}`)) as string)).toMatchObject({ v: RECORD_VERSION, name: 'ci' });
      expect(await state.getCompany(company)).toEqual(records(company, token));
      await state.revokeTokens([{ hash: hashToken(token), company, name: 'ci' }]);
      expect(JSON.parse((await raw.get(`gw:token:${hashToken(token)}`)) as string)).toEqual({ v: RECORD_VERSION, hash: hashToken(token), company, name: 'ci', revoked: true });
      expect(await state.findToken(hashToken(token))).toBeNull();
    } finally {
      await state.close();
    }
  });

  it('reads the records of the build before versions (no v) as version 1', async () => {
    const state = await stateWith([]);
    try {
      const token = generateToken();
      const company = `legacy-${randomBytes(2).toString('hex')}`;
      const legacy = records(company, token);
      // As that build wrote them: the same JSON with no version field.
      await raw.set(`gw:{${company}}:records`, JSON.stringify({ ...legacy, credentials: legacy.credentials.map((c) => ({ ...c, secret: BOX.seal(c.secret, `${company}/vendor`) })) }));
      await raw.set(`gw:token:${hashToken(token)}`, JSON.stringify({ ...legacy.tokens[0], epoch: 0 }));
      expect(await state.getCompany(company)).toEqual(legacy);
      expect(await state.findToken(hashToken(token))).toEqual(legacy.tokens[0]);
    } finally {
      await state.close();
    }
  });

  it('refuses a newer company record or token, live or revoked, and a malformed one: it throws and tells the listener, never reads it as absent', async () => {
    const seen: UnreadableRecord[] = [];
    const state = await stateWith(seen);
    try {
      const company = `newer-${randomBytes(2).toString('hex')}`;
      const token = generateToken();
      const next = RECORD_VERSION + 1;
      await raw.set(`gw:{${company}}:records`, JSON.stringify({ v: next, company, settings: {}, tokens: [], credentials: [] }));
      await raw.set(`gw:token:${hashToken(token)}`, JSON.stringify({ v: next, hash: hashToken(token), company, name: 'ci', address: 'ci@x' }));
      const revoked = generateToken();
      await raw.set(`gw:token:${hashToken(revoked)}`, JSON.stringify({ v: next, hash: hashToken(revoked), company, name: 'old', revoked: true }));
      const broken = generateToken();
      await raw.set(`gw:token:${hashToken(broken)}`, JSON.stringify({ v: RECORD_VERSION, hash: hashToken(broken), company }));

      await expect(state.getCompany(company)).rejects.toMatchObject({ name: 'UnreadableRecord', record: 'company', reason: 'newer', version: next });
      await expect(state.findToken(hashToken(token))).rejects.toMatchObject({ record: 'token', reason: 'newer', version: next });
      await expect(state.findToken(hashToken(revoked))).rejects.toMatchObject({ record: 'token', reason: 'newer' });
      await expect(state.findToken(hashToken(broken))).rejects.toMatchObject({ record: 'token', reason: 'invalid' });
      expect(seen.map((e) => `${e.record}/${e.reason}`)).toEqual(['company/newer', 'token/newer', 'token/newer', 'token/invalid']);
      expect(seen[0]?.message).toContain(`schema version ${next}, newer than the ${RECORD_VERSION} this build reads`);
      // A token key is named by the start of its hash only.
      expect(seen[1]?.key).not.toContain(hashToken(token));
    } finally {
      await state.close();
    }
  });

  it('a data plane meeting a newer record answers 503 unavailable (not 401, not a forward) and logs why', { timeout: 120_000 }, async () => {
    const writer = await stateWith([]);
    try {
      const company = `dp-${randomBytes(2).toString('hex')}`;
      const token = generateToken();
      await writer.replaceCompany(records(company, token, mock.url));
      await writer.markLoaded('test-generation');
      gateway = await startReaderGateway(redis.url, ENCRYPTION_KEY);
      const ask = async (): Promise<{ status: number; body: { fault?: string; error?: { message?: string } } }> => {
        const res = await fetch(`${gateway?.url}/v1/messages`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
          body: JSON.stringify({ model: 'claude-haiku-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
        });
        return { status: res.status, body: (await res.json()) as { fault?: string; error?: { message?: string } } };
      };
      expect((await ask()).status).toBe(200);
      const forwarded = mock.messageRequests().length;

      // A newer writer rewrote the token (an operator upgraded before the data planes).
      const key = `gw:token:${hashToken(token)}`;
      await raw.set(key, JSON.stringify({ ...(JSON.parse((await raw.get(key)) as string) as object), v: RECORD_VERSION + 1 }));
      const refused = await ask();
      expect(refused.status).toBe(503);
      expect(refused.body.fault).toBe('unavailable');
      expect(refused.body.error?.message).toContain('written by a newer version than this gateway reads');
      expect(mock.messageRequests()).toHaveLength(forwarded);
      // The log is written asynchronously: polled, bounded.
      const logged = (): boolean => (gateway?.output ?? []).some((l) => l.includes('"reason":"newer"') && l.includes('newer than the 1 this build reads'));
      for (let i = 0; i < 100 && !logged(); i++) await new Promise((r) => setTimeout(r, 100));
      expect(logged()).toBe(true);
    } finally {
      await writer.close();
    }
  });
});
