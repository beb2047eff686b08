import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UsageRecord } from '../../../src/metering/usage-record.js';
import { connectRedis } from '../../../src/state/redis/connect.js';
import { RedisState } from '../../../src/state/redis/redis-state.js';
import { DEFAULT_USAGE_CONFIRM } from '../../../src/state/redis/usage-confirm.js';
import { SecretBox } from '../../../src/state/secret-box.js';
import { startRedisCluster, type TestRedisCluster } from '../../support/redis-cluster.js';
import { startSentinelSetup, type TestSentinelSetup } from '../../support/redis-sentinel.js';
import type { TestRedis } from '../../support/redis-server.js';
import { usageRecord } from '../../support/usage-records.js';

/**
 * Replicated Redis as production runs it: Redis Cluster with a replica per
 * primary, and a primary with two replicas under three Sentinels, all real
 * processes. The bad day of issue 27: the replicas fall behind (SIGSTOP),
 * records are acknowledged by the primary, the primary dies (SIGKILL) as the
 * replicas resume, a replica is promoted without those records. The data
 * plane's confirmation rounds must write them again: none is lost.
 */

const box = new SecretBox(randomBytes(32));
const LOST_WINDOW_RECORDS = 40;

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown = null;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms${lastError ? ` (last error: ${String(lastError)})` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function quiet(url: string): ReturnType<typeof connectRedis> {
  const client = connectRedis(url);
  // Connection errors are the point of these tests; the assertions say what matters.
  client.on('error', () => undefined);
  return client;
}

function confirmingState(url: string, restored: number[]): RedisState {
  return new RedisState(quiet(url), box, {
    confirm: { options: { ...DEFAULT_USAGE_CONFIRM, replicas: 1 }, connection: quiet(url), events: { onRestored: (_c, n) => restored.push(n) } },
  });
}

/**
 * A stopped replica still receives while the kernel's socket buffers have
 * room (loopback's are several MiB), and would apply it all on resume. A
 * replica that really fell behind has a primary holding the backlog in its
 * own memory: 48 MiB written first (under the replica output limit) fill
 * the buffers, so what follows stays in the primary and dies with it.
 */
async function fillReplicationBuffers(primary: TestRedis, company: string): Promise<void> {
  const raw = new Redis(primary.url);
  const chunk = 'x'.repeat(1024 * 1024);
  for (let i = 0; i < 48; i++) await raw.set(`gw:{${company}}:ballast:${i}`, chunk);
  raw.disconnect();
}

/** Request ids in the company's usage stream on the node that serves it now. */
async function streamIds(node: TestRedis, company: string): Promise<string[]> {
  const raw = new Redis(node.url);
  try {
    const entries = (await raw.xrange(`gw:{${company}}:usage`, '-', '+')) as Array<[string, string[]]>;
    return entries.map(([, fields]) => (JSON.parse(fields[1] as string) as UsageRecord).request_id);
  } finally {
    raw.disconnect();
  }
}

describe('Redis Cluster with a replica per primary', () => {
  let cluster: TestRedisCluster;
  beforeAll(async () => {
    cluster = await startRedisCluster({ replicas: 1 });
  });
  afterAll(async () => {
    await cluster?.destroy();
  });

  it('connects with the documented list of comma-separated seed hosts', async () => {
    expect(cluster.seedsUrl.split(',')).toHaveLength(6);
    const state = new RedisState(quiet(cluster.seedsUrl), box);
    await state.ready();
    await state.recordUsage(usageRecord('seeded', 1));
    expect((await state.queryLogs({ company: 'seeded' })).map((r) => r.company)).toEqual(['seeded']);
    await state.close();
  });

  it('loses no usage record when the primary dies before its lagging replica got them', async () => {
    const company = 'acme';
    const restored: number[] = [];
    const state = confirmingState(cluster.seedsUrl, restored);
    await state.ready();
    const { primary, replica } = cluster.roles(`gw:{${company}}:usage`);
    if (!replica) throw new Error('the company has no replica');
    const records = Array.from({ length: LOST_WINDOW_RECORDS }, (_, i) => usageRecord(company, i));

    replica.pause();
    await fillReplicationBuffers(primary, company);
    for (const r of records) await state.recordUsage(r);
    expect(state.bufferedRecords()).toBe(0); // the primary took every one
    expect(await streamIds(primary, company)).toHaveLength(LOST_WINDOW_RECORDS);
    await until('a round finds no replica acknowledging', async () => {
      await state.confirmNow();
      return state.heldRecords() === LOST_WINDOW_RECORDS;
    });

    await primary.kill();
    replica.resume();
    await until('the replica is promoted', async () => cluster.roles(`gw:{${company}}:usage`).primary === replica);
    const total = (): number => restored.reduce((x, y) => x + y, 0);
    await until('every record is on the new primary', async () => new Set(await streamIds(replica, company)).size === LOST_WINDOW_RECORDS);
    // The old primary comes back empty-handed as the new primary's replica, so WAIT can be answered again.
    await primary.start();
    await cluster.settled();

    await until('every held record is confirmed on a replica', async () => state.heldRecords() === 0);
    const ids = await streamIds(replica, company);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual(records.map((r) => r.request_id).sort());
    // Most were lost with the old primary and written again by the confirmation rounds, not merely found on the replica.
    expect(total()).toBeGreaterThan(LOST_WINDOW_RECORDS / 2);
    await state.close();
  }, 120_000);
});

describe('a primary with two replicas under three Sentinels', () => {
  let sentinel: TestSentinelSetup;
  beforeAll(async () => {
    sentinel = await startSentinelSetup();
  });
  afterAll(async () => {
    await sentinel?.destroy();
  });

  it('follows a promotion and loses no usage record the old primary had not replicated', async () => {
    const company = 'globex';
    const restored: number[] = [];
    const state = confirmingState(sentinel.url, restored);
    await state.ready();
    const old = sentinel.primary();
    const replicas = sentinel.nodes.filter((n) => n !== old);
    const records = Array.from({ length: LOST_WINDOW_RECORDS }, (_, i) => usageRecord(company, i));

    for (const r of replicas) r.pause();
    await fillReplicationBuffers(old, company);
    for (const r of records) await state.recordUsage(r);
    expect(state.bufferedRecords()).toBe(0);
    await until('a round finds no replica acknowledging', async () => {
      await state.confirmNow();
      return state.heldRecords() === LOST_WINDOW_RECORDS;
    });

    await old.kill();
    for (const r of replicas) r.resume();
    const promoted = await until('the sentinels promote a replica', async () => {
      const now = sentinel.primary();
      return now !== old ? now : null;
    });
    await sentinel.settled();
    expect(sentinel.primary()).toBe(promoted);
    const total = (): number => restored.reduce((x, y) => x + y, 0);
    // Restored before the old primary may come back: a primary returning with its append-only file could otherwise hand the records back itself.
    await until('every record is on the new primary', async () => new Set(await streamIds(promoted, company)).size === LOST_WINDOW_RECORDS);
    // The old primary comes back with its append-only file, believing it is a primary, until the sentinels turn it into a replica.
    await old.start();
    await sentinel.settled();
    expect(sentinel.primary()).toBe(promoted);

    await until('every held record is confirmed on a replica', async () => state.heldRecords() === 0);
    const ids = await streamIds(promoted, company);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual(records.map((r) => r.request_id).sort());
    // Most were lost with the old primary and written again by the confirmation rounds, not merely found on the replica.
    expect(total()).toBeGreaterThan(LOST_WINDOW_RECORDS / 2);
    // And the same client serves from the new primary.
    await state.recordUsage(usageRecord(company, 99));
    expect((await streamIds(promoted, company)).length).toBe(LOST_WINDOW_RECORDS + 1);
    await state.close();
  }, 120_000);
});
