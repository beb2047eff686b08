import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { spendPlan, worstCaseMicros } from '../../../src/governance/spend-admission.js';
import { priceFromBase } from '../../../src/models/price.js';
import type { UsageRecord } from '../../../src/metering/usage-record.js';
import { settingsRecord } from '../../../src/reconcile/settings.js';
import { MemoryState } from '../../../src/state/memory.js';
import type { CompanyRecords, CredentialRecord } from '../../../src/state/records.js';
import { connectRedis } from '../../../src/state/redis/connect.js';
import { RedisState } from '../../../src/state/redis/redis-state.js';
import { SecretBox } from '../../../src/state/secret-box.js';
import { FencedWrite, type GatewayState, type LeaseRequest } from '../../../src/state/state.js';
import { startRedisCluster, type TestRedisCluster } from '../../support/redis-cluster.js';
import { startRedis, type TestRedis } from '../../support/redis-server.js';

/**
 * One contract, two implementations: everything the data planes rely on
 * behaves the same in memory and in Redis. Time is a test clock that both
 * implementations read, so TTLs and windows are exercised without sleeping.
 */
let clock = 1_800_000_000_000;
const now = (): number => clock;
let redisServer: TestRedis;
let redisCluster: TestRedisCluster;
const box = new SecretBox(randomBytes(32));

interface Impl {
  name: string;
  make(): Promise<GatewayState>;
}

const IMPLEMENTATIONS: Impl[] = [
  { name: 'memory', make: async () => new MemoryState(now) },
  {
    name: 'redis',
    make: async () => {
      const raw = new Redis(redisServer.url);
      await raw.flushall();
      raw.disconnect();
      const state = new RedisState(connectRedis(redisServer.url), box, { now });
      await state.ready();
      return state;
    },
  },
  {
    // Every company key carries a {company} hash tag; a Cluster proves the scripts never cross slots.
    name: 'redis cluster',
    make: async () => {
      for (const node of redisCluster.nodes) {
        const raw = new Redis(node.url);
        await raw.flushall();
        raw.disconnect();
      }
      const state = new RedisState(connectRedis(redisCluster.url), box, { now });
      await state.ready();
      return state;
    },
  },
];

beforeAll(async () => {
  redisServer = await startRedis();
  redisCluster = await startRedisCluster();
});
afterAll(async () => {
  await redisServer?.destroy();
  await redisCluster?.destroy();
});

function credential(name: string, extra: Partial<CredentialRecord> = {}): CredentialRecord {
  return {
    company: 'acme',
    name,
    provider: 'vendor',
    kind: 'apiKey',
    secret: `sk-secret-${name}`,
    baseUrl: 'http://127.0.0.1:1',
    authScheme: 'xApiKey',
    maxConcurrency: 2,
    models: null,
    priority: 0,
    ...extra,
  };
}

function company(credentials: CredentialRecord[], tokens: CompanyRecords['tokens'] = []): CompanyRecords {
  return { company: 'acme', settings: settingsRecord('acme', { tokenDomain: 'acme.example' }), tokens, credentials };
}

function leaseRequest(candidates: CredentialRecord[], requestId: string, session: string | null = null, ttlMs = 1000): LeaseRequest {
  return { company: 'acme', candidates, session, requestId, ttlMs };
}

function usageRecord(id: string, extra: Partial<UsageRecord> = {}): UsageRecord {
  return {
    request_id: id,
    time: new Date(clock).toISOString(),
    company: 'acme',
    address: 'alice@acme.example',
    endpoint: 'messages',
    model: 'claude-sonnet-4-5',
    provider: 'vendor',
    provider_model: 'claude-sonnet-4-5',
    credential: 'k1',
    input_tokens: 10,
    output_tokens: 5,
    cache_creation_input_tokens: 1,
    cache_read_input_tokens: 2,
    cost_usd: 0.5,
    status: 200,
    fault: null,
    stream: true,
    duration_ms: 3,
    ttfb_ms: 1,
    outcome: 'complete',
    ...extra,
  };
}

describe.each(IMPLEMENTATIONS)('GatewayState contract: $name', (impl) => {
  let state: GatewayState;
  beforeEach(async () => {
    clock = 1_800_000_000_000;
    state = await impl.make();
    return () => state.close();
  });

  it('stores tokens by hash and forgets revoked ones on the next replace', async () => {
    const alice = { hash: 'sha256:' + 'a'.repeat(64), company: 'acme', name: 'alice', address: 'alice@acme.example' };
    const bob = { hash: 'sha256:' + 'b'.repeat(64), company: 'acme', name: 'bob', address: 'bob@acme.example' };
    await state.replaceCompany(company([credential('k1')], [alice, bob]));
    expect(await state.findToken(alice.hash)).toEqual(alice);
    await state.replaceCompany(company([credential('k1')], [bob]));
    expect(await state.findToken(alice.hash)).toBeNull();
    expect(await state.findToken(bob.hash)).toEqual(bob);
    const records = await state.getCompany('acme');
    expect(records?.credentials[0]?.secret).toBe('sk-secret-k1');
    expect(await state.listCompanies()).toEqual(['acme']);
    await state.removeCompany('acme');
    expect(await state.findToken(bob.hash)).toBeNull();
    expect(await state.getCompany('acme')).toBeNull();
  });

  it('never lets one company take over or drop a token hash another company holds', async () => {
    const hash = 'sha256:' + 'd'.repeat(64);
    await state.replaceCompany(company([credential('k1')], [{ hash, company: 'acme', name: 'alice', address: 'alice@acme.example' }]));
    const evil: CompanyRecords = { ...company([]), company: 'evil', tokens: [{ hash, company: 'evil', name: 'copy', address: 'copy@evil' }] };
    await state.replaceCompany(evil);
    expect((await state.findToken(hash))?.company).toBe('acme');
    await state.replaceCompany({ ...evil, tokens: [] });
    await state.removeCompany('evil');
    expect((await state.findToken(hash))?.company).toBe('acme');
  });

  it('keeps a revoked hash revoked: no later replace of any company or epoch makes it live again', async () => {
    const hash = 'sha256:' + 'e'.repeat(64);
    const alice = { hash, company: 'acme', name: 'alice', address: 'alice@acme.example' };
    await state.replaceCompany(company([credential('k1')], [alice]), { epoch: 1 });
    expect(await state.findToken(hash)).toEqual(alice);
    await state.revokeTokens([{ hash, company: 'acme', name: 'alice' }]);
    expect(await state.findToken(hash)).toBeNull();
    // The same company (a stale write), a newer epoch, and another company: none revives it.
    await state.replaceCompany(company([credential('k1')], [alice]), { epoch: 1 });
    await state.replaceCompany(company([credential('k1')], [{ ...alice, name: 'alice-again' }]), { epoch: 5 });
    await state.replaceCompany({ ...company([]), company: 'other', tokens: [{ hash, company: 'other', name: 'copy', address: 'copy@other' }] });
    expect(await state.findToken(hash)).toBeNull();
    // Dropping and removing leave the revocation in place too.
    await state.replaceCompany(company([credential('k1')], []), { epoch: 5 });
    await state.removeCompany('acme', { epoch: 5 });
    expect(await state.findToken(hash)).toBeNull();
  });

  it('fences writes by epoch: once a newer epoch wrote a company, an older one is refused and changes nothing', async () => {
    const alice = { hash: 'sha256:' + '1'.repeat(64), company: 'acme', name: 'alice', address: 'alice@acme.example' };
    const bob = { hash: 'sha256:' + '2'.repeat(64), company: 'acme', name: 'bob', address: 'bob@acme.example' };
    await state.replaceCompany(company([credential('k1')], [alice]), { epoch: 3 });
    await state.replaceCompany(company([credential('k1')], [bob]), { epoch: 4 });
    await expect(state.replaceCompany(company([credential('k1'), credential('k2')], [alice, bob]), { epoch: 3 })).rejects.toBeInstanceOf(FencedWrite);
    await expect(state.removeCompany('acme', { epoch: 2 })).rejects.toBeInstanceOf(FencedWrite);
    expect(await state.findToken(alice.hash)).toBeNull();
    expect(await state.findToken(bob.hash)).toEqual(bob);
    expect((await state.getCompany('acme'))?.credentials.map((c) => c.name)).toEqual(['k1']);
    // The same and newer epochs go on writing.
    await state.replaceCompany(company([credential('k1')], [alice, bob]), { epoch: 4 });
    expect(await state.findToken(alice.hash)).toEqual(alice);
    await state.removeCompany('acme', { epoch: 6 });
    expect(await state.getCompany('acme')).toBeNull();
    expect(await state.findToken(bob.hash)).toBeNull();
  });

  it('removing a company removes its credential health with it', async () => {
    await state.replaceCompany(company([credential('k1')], []));
    await state.markCredentialUnhealthy('acme', 'k1', 'provider answered 401');
    await state.removeCompany('acme');
    expect((await state.credentialHealth('acme', 'k1')).healthy).toBe(true);
  });

  it('never lets parallel acquirers exceed maxConcurrency', async () => {
    const pool = [credential('k1', { maxConcurrency: 3 }), credential('k2', { maxConcurrency: 2 })];
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => state.acquireLease(leaseRequest(pool, `r${i}`))));
    const granted = results.filter((r) => r.ok);
    expect(granted).toHaveLength(5);
    const byName = new Map<string, number>();
    for (const r of granted) if (r.ok) byName.set(r.lease.credential.name, (byName.get(r.lease.credential.name) ?? 0) + 1);
    expect(Object.fromEntries(byName)).toEqual({ k1: 3, k2: 2 });
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.reason === 'busy')).toBe(true);
    const first = granted[0];
    if (!first?.ok) throw new Error('unreachable');
    await state.releaseLease(first.lease);
    expect((await state.acquireLease(leaseRequest(pool, 'again'))).ok).toBe(true);
  });

  it('prefers higher priority, then the least loaded, and keeps a session sticky while it has room', async () => {
    const pool = [credential('low', { priority: 0, maxConcurrency: 4 }), credential('high', { priority: 5, maxConcurrency: 1 })];
    const a = await state.acquireLease(leaseRequest(pool, 'a'));
    expect(a.ok && a.lease.credential.name).toBe('high');
    const b = await state.acquireLease(leaseRequest(pool, 'b'));
    expect(b.ok && b.lease.credential.name).toBe('low');
    const even = [credential('x', { maxConcurrency: 4 }), credential('y', { maxConcurrency: 4 })];
    const first = await state.acquireLease(leaseRequest(even, 'c1', 'session-1'));
    const firstName = first.ok ? first.lease.credential.name : '';
    const other = await state.acquireLease(leaseRequest(even, 'c2'));
    expect(other.ok && other.lease.credential.name).not.toBe(firstName);
    // The session returns to its credential although the other one is now equally loaded.
    const again = await state.acquireLease(leaseRequest(even, 'c3', 'session-1'));
    expect(again.ok && again.lease.credential.name).toBe(firstName);
  });

  it('frees a lease whose TTL ran out (a crashed process) and keeps a renewed one', async () => {
    const pool = [credential('k1', { maxConcurrency: 1 })];
    const held = await state.acquireLease(leaseRequest(pool, 'crashed', null, 1000));
    expect(held.ok).toBe(true);
    expect((await state.acquireLease(leaseRequest(pool, 'waiting'))).ok).toBe(false);
    clock += 600;
    if (held.ok) await state.renewLease(held.lease, 1000);
    clock += 600;
    expect((await state.acquireLease(leaseRequest(pool, 'still-held'))).ok).toBe(false);
    clock += 1001;
    expect((await state.acquireLease(leaseRequest(pool, 'after-ttl'))).ok).toBe(true);
  });

  it('skips a seat whose window is exhausted until the reset the upstream gave, and unhealthy credentials', async () => {
    const seat = credential('seat', { kind: 'subscriptionSeat', priority: 10 });
    const key = credential('key');
    await state.updateSeatWindows('acme', 'seat', [{ window: '5h', exhausted: true, utilization: 1, resetAt: clock + 5000 }]);
    const health = await state.credentialHealth('acme', 'seat');
    expect(health.windows).toEqual([{ window: '5h', exhausted: true, utilization: 1, resetAt: clock + 5000 }]);
    const used = await state.acquireLease(leaseRequest([seat, key], 'r1'));
    expect(used.ok && used.lease.credential.name).toBe('key');
    const onlySeat = await state.acquireLease(leaseRequest([seat], 'r2'));
    expect(onlySeat).toEqual({ ok: false, reason: 'exhausted', earliestReset: clock + 5000 });
    clock += 5001;
    const reset = await state.acquireLease(leaseRequest([seat, key], 'r3'));
    expect(reset.ok && reset.lease.credential.name).toBe('seat');
    await state.markCredentialUnhealthy('acme', 'key', 'upstream answered 401');
    expect((await state.credentialHealth('acme', 'key')).healthy).toBe(false);
    expect(await state.acquireLease(leaseRequest([key], 'r4'))).toEqual({ ok: false, reason: 'rejected', credentials: ['key'] });
    // With a seat whose window is exhausted beside it, the window's reset is the truer answer.
    await state.updateSeatWindows('acme', 'seat', [{ window: '5h', exhausted: true, utilization: 1, resetAt: clock + 5000 }]);
    expect(await state.acquireLease(leaseRequest([seat, key], 'r5'))).toEqual({ ok: false, reason: 'exhausted', earliestReset: clock + 5000 });
    // A recovered key is leased again, and the seat keeps its windows.
    await state.markCredentialHealthy('acme', 'key');
    expect(await state.credentialHealth('acme', 'key')).toMatchObject({ healthy: true, reason: null });
    const back = await state.acquireLease(leaseRequest([key], 'r6'));
    expect(back.ok && back.lease.credential.name).toBe('key');
    expect((await state.credentialHealth('acme', 'seat')).windows).toHaveLength(1);
  });

  it('caps callers, queues for a slot and gives up after the wait', async () => {
    const slot = (id: string, waitMs: number): Promise<boolean> => state.acquireCallerSlot({ company: 'acme', tokenHash: 'sha256:t', limit: 2, requestId: id, ttlMs: 60_000, waitMs });
    expect(await slot('a', 0)).toBe(true);
    expect(await slot('b', 0)).toBe(true);
    expect(await slot('c', 0)).toBe(false);
    // Real time passes for the queue wait; the test clock only decides TTLs.
    const waiting = slot('d', 5_000);
    await new Promise((r) => setTimeout(r, 30));
    await state.releaseCallerSlot('acme', 'sha256:t', 'a');
    expect(await waiting).toBe(true);
    clock += 60_001;
    expect(await slot('e', 0)).toBe(true);
  });

  it('reserves spend atomically, settles it with the usage record once, gives back once, and starts a new window with a new counter', async () => {
    const settings = settingsRecord('acme', { spendLimits: { timeZone: 'Europe/Berlin', perToken: [{ window: 'daily', usd: 1 }] } });
    const plan = spendPlan(settings, 'sha256:' + 'c'.repeat(64), clock, 100_000);
    if (!plan) throw new Error('plan expected');
    const results = await Promise.all(Array.from({ length: 25 }, (_, i) => state.reserveSpend('acme', `res_${i}`, plan.checks, plan.reservedMicros)));
    expect(results.filter((r) => r.ok)).toHaveLength(10);
    const held = results.flatMap((r, i) => (r.ok ? [`res_${i}`] : []));
    const counter = plan.checks[0]?.counter as string;
    expect(await state.spendOf('acme', counter)).toBe(1_000_000);
    // Settled by its record: the reservation is replaced by the metered cost, and a second write of the record changes nothing.
    const settled = usageRecord(held[0] as string);
    await state.recordUsage(settled, { checks: plan.checks, actualMicros: 40_000 });
    await state.recordUsage(settled, { checks: plan.checks, actualMicros: 40_000 });
    expect(await state.spendOf('acme', counter)).toBe(940_000);
    // Given back once, however often asked.
    await state.releaseReservation('acme', held[1] as string, plan.checks);
    await state.releaseReservation('acme', held[1] as string, plan.checks);
    expect(await state.spendOf('acme', counter)).toBe(840_000);
    // A record whose reservation this state never held (lost with a failed primary) adds its cost alone.
    await state.recordUsage(usageRecord('never_reserved'), { checks: plan.checks, actualMicros: 5_000 });
    expect(await state.spendOf('acme', counter)).toBe(845_000);
    expect((await state.reserveSpend('acme', 'res_more', plan.checks, 200_000)).ok).toBe(false);
    const tomorrow = spendPlan(settings, 'sha256:' + 'c'.repeat(64), plan.checks[0]!.resetAt + 1, 100_000);
    expect(tomorrow?.checks[0]?.counter).not.toBe(counter);
    expect((await state.reserveSpend('acme', 'res_tomorrow', tomorrow!.checks, 100_000)).ok).toBe(true);
    expect(worstCaseMicros(300, 100, priceFromBase(3, 15))).toBe(100 * 3 + 100 * 15);
  });

  it('writes usage once per request id and aggregates it', async () => {
    await state.recordUsage(usageRecord('req_1', { repo: 'github.com/acme/w' }));
    await state.recordUsage(usageRecord('req_1', { repo: 'github.com/acme/w' }));
    await state.recordUsage(usageRecord('req_2', { address: 'bob@acme.example', cost_usd: 0.25 }));
    const logs = await state.queryLogs({ company: 'acme' });
    expect(logs.map((r) => r.request_id).sort()).toEqual(['req_1', 'req_2']);
    expect(await state.queryLogs({ address: 'bob@acme.example' })).toHaveLength(1);
    const byAddress = await state.queryUsage({ groupBy: 'address', company: 'acme' });
    expect(byAddress).toEqual([
      { key: 'alice@acme.example', requests: 1, input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 1, cache_read_input_tokens: 2, cost_usd: 0.5 },
      { key: 'bob@acme.example', requests: 1, input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 1, cache_read_input_tokens: 2, cost_usd: 0.25 },
    ]);
    const byRepo = await state.queryUsage({ groupBy: 'repo' });
    expect(byRepo.map((t) => [t.key, t.requests])).toEqual([
      ['github.com/acme/w', 1],
      [null, 1],
    ]);
    const future = new Date(clock + 2 * 86_400_000).toISOString();
    expect(await state.queryUsage({ groupBy: 'model', since: future })).toEqual([]);
  });
});

describe('Redis specifics', () => {
  it('stores provider secrets only sealed', async () => {
    const raw = new Redis(redisServer.url);
    await raw.flushall();
    const state = new RedisState(connectRedis(redisServer.url), box, { now });
    await state.ready();
    await state.replaceCompany(company([credential('k1')]));
    const keys = await raw.keys('*');
    for (const key of keys) {
      const type = await raw.type(key);
      const value = type === 'string' ? await raw.get(key) : JSON.stringify(type === 'hash' ? await raw.hgetall(key) : await raw.smembers(key).catch(() => []));
      expect(value ?? '').not.toContain('sk-secret-k1');
    }
    expect(keys.filter((k) => k.startsWith('gw:{acme}')).length).toBeGreaterThan(0);
    raw.disconnect();
    await state.close();
  });

  it('knows whether it holds a complete picture: no generation mark after a flush, until the writer marks it again', async () => {
    const raw = new Redis(redisServer.url);
    await raw.flushall();
    const state = new RedisState(connectRedis(redisServer.url), box, { now });
    await state.ready();
    expect(await state.loaded()).toBe(false);
    await state.replaceCompany(company([credential('k1')]));
    // Records alone do not make it complete: only the writer knows when every company is written.
    expect(await state.loaded()).toBe(false);
    await state.markLoaded('gen-1');
    expect(await state.loaded()).toBe(true);
    expect(await state.generation()).toBe('gen-1');
    await raw.flushall();
    expect(await state.loaded()).toBe(false);
    expect(await state.generation()).toBeNull();
    raw.disconnect();
    await state.close();
  });
});
