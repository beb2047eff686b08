import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { describe, expect, test } from 'vitest';
import type { UsageRecord } from '../../../src/metering/usage-record.js';
import { connectRedis, type RedisClient } from '../../../src/state/redis/connect.js';
import { RedisState } from '../../../src/state/redis/redis-state.js';
import { keys } from '../../../src/state/redis/keys.js';
import { LEGACY_EXPORT_GROUP, RedisExportLease, RedisUsageSource } from '../../../src/state/redis/usage-stream-source.js';
import { SecretBox } from '../../../src/state/secret-box.js';
import { UsageExporter, type ExportObserver } from '../../../src/usage/export/exporter.js';
import type { UsageSink } from '../../../src/usage/export/ports.js';
import { connectPostgres } from '../../../src/usage/postgres/connect.js';
import { migrate } from '../../../src/usage/postgres/migrations.js';
import { PgUsageStore } from '../../../src/usage/postgres/pg-usage-store.js';
import { GW_BIN } from '../../support/gateway-process.js';
import { useRedisAndPostgres } from '../../support/usage-fixture.js';
import { usageRecord } from '../../support/usage-records.js';

/**
 * Records go from the data plane's Redis streams to PostgreSQL exactly once,
 * whatever fails on the way: PostgreSQL away, an exporter killed between its
 * commit and its acknowledgement (or as a process, mid-stream), two
 * exporters at once, Redis restarted, more records than the old stream cap.
 */

const fx = useRedisAndPostgres();

function redisClient(): RedisClient {
  const client = connectRedis(fx.redis.url);
  client.on('error', () => {});
  fx.closers.push(async () => client.disconnect());
  return client;
}

/** The data plane's own state, writing records the way a request's end does. */
async function dataPlane(): Promise<RedisState> {
  const state = new RedisState(redisClient(), new SecretBox(randomBytes(32)));
  await state.ready();
  return state;
}

interface Counting extends ExportObserver {
  exportedTotal: number;
  storedTotal: number;
  activeNow: number;
  maxActive: number;
  failures: string[];
}

/** One observer shared by the exporters of a test: how many hold the lease at once. */
function counting(): Counting {
  const c: Counting = {
    exportedTotal: 0,
    storedTotal: 0,
    activeNow: 0,
    maxActive: 0,
    failures: [],
    exported: (count, stored) => {
      c.exportedTotal += count;
      c.storedTotal += stored;
    },
    deadLettered: (company, requestId, reason) => void c.failures.push(`dead letter: ${company} ${requestId} ${reason}`),
    backlog: () => {},
    active: (active) => {
      c.activeNow += active ? 1 : -1;
      c.maxActive = Math.max(c.maxActive, c.activeNow);
    },
    failed: (stage, error) => void c.failures.push(`${stage}: ${(error as Error).message}`),
  };
  return c;
}

function pgSink(store: PgUsageStore, p: pg.Pool): UsageSink {
  return {
    prepare: async () => void (await migrate(p)),
    insert: (records) => store.insert(records),
    refusal: (error) => store.refusal(error),
    saveTimeZones: (zones) => store.saveTimeZones(zones),
    deleteOlderThan: (days) => store.deleteOlderThan(days),
  };
}

function exporter(observer: ExportObserver, sink?: (store: PgUsageStore) => UsageSink, options: { batchSize?: number; leaseTtlMs?: number } = {}): UsageExporter {
  const redis = redisClient();
  const p = connectPostgres(fx.postgres.url);
  const store = new PgUsageStore(p);
  fx.closers.push(() => store.close());
  const source = new RedisUsageSource(redis);
  const lease = new RedisExportLease(redis, options.leaseTtlMs ?? 1_500);
  const e = new UsageExporter(source, sink ? sink(store) : pgSink(store, p), lease, observer, {
    batchSize: options.batchSize ?? 500,
    idleMs: 20,
    leaseRetryMs: 100,
    leaseRenewMs: 300,
    maxBackoffMs: 300,
  });
  fx.closers.push(() => e.stop(0));
  return e;
}

async function write(state: RedisState, records: readonly UsageRecord[]): Promise<void> {
  for (let i = 0; i < records.length; i += 1_000) await Promise.all(records.slice(i, i + 1_000).map((r) => state.recordUsage(r)));
}

async function storedIds(): Promise<string[]> {
  const { rows } = await fx.pool.query<{ request_id: string }>('SELECT request_id FROM gw_usage');
  return rows.map((r) => r.request_id);
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function expectExactly(records: readonly UsageRecord[]): Promise<void> {
  const want = records.map((r) => r.request_id).sort();
  await until(`${want.length} records in PostgreSQL`, async () => (await storedIds()).length >= want.length);
  const got = (await storedIds()).sort();
  expect(got.length).toBe(want.length);
  expect(got).toEqual(want);
  // Stored as written, field for field.
  const sample = records[Math.floor(records.length / 2)] as UsageRecord;
  const { rows } = await fx.pool.query<{ record: UsageRecord }>('SELECT record FROM gw_usage WHERE request_id = $1', [sample.request_id]);
  expect(rows[0]?.record).toEqual(sample);
}

/** Failures past the lease (whose first try may meet a connection still opening): reads, writes, acknowledgements. */
function readOrWriteFailures(observer: Counting): string[] {
  return observer.failures.filter((f) => !f.startsWith('lease: '));
}

async function streamLength(company: string): Promise<number> {
  const r = new Redis(fx.redis.url);
  try {
    return await r.xlen(keys.usageStream(company));
  } finally {
    r.disconnect();
  }
}

describe('usage export from Redis to PostgreSQL', () => {
  test('more records than the old stream cap (100,000) all arrive, and the exported stream is emptied, not trimmed', async () => {
    const state = await dataPlane();
    const observer = counting();
    exporter(observer, undefined, { batchSize: 2_000 }).start();
    const first = usageRecord('bigco', 0);
    await write(state, [first]);
    await expectExactly([first]);
    const records = [first, ...Array.from({ length: 120_000 }, (_, i) => usageRecord('bigco', i + 1))];
    await write(state, records.slice(1));
    await expectExactly(records);
    await until('the stream to empty', async () => (await streamLength('bigco')) === 0);
    expect(await state.usageDropped('bigco')).toBe(0);
  }, 300_000);

  test('a company first written while no exporter runs (one ran before) is marked at once, so not even its first records are trimmed', async () => {
    const observer = counting();
    const first = exporter(observer);
    first.start();
    const state = await dataPlane();
    const early = usageRecord('acme', 0);
    await write(state, [early]);
    await expectExactly([early]);
    await first.stop(0);
    // No exporter now, and none has seen newco: the data plane itself marks its stream before the first write.
    const fresh = await dataPlane();
    const records = Array.from({ length: 2_000 }, (_, i) => usageRecord('newco', i));
    await write(fresh, records);
    const r = new Redis(fx.redis.url);
    try {
      expect(await r.exists(keys.usageExported('newco'))).toBe(1);
      expect(await r.pttl(keys.usageExported('newco'))).toBeGreaterThan(24 * 60 * 60 * 1000);
    } finally {
      r.disconnect();
    }
    exporter(observer).start();
    await expectExactly([early, ...records]);
    expect(await fresh.usageDropped('newco')).toBe(0);
  }, 120_000);

  test('PostgreSQL down for a while and back: records wait in Redis, then arrive once', async () => {
    const state = await dataPlane();
    const observer = counting();
    exporter(observer).start();
    const before = Array.from({ length: 3_000 }, (_, i) => usageRecord('acme', i));
    await write(state, before);
    await expectExactly(before);
    await fx.postgres.kill();
    const during = Array.from({ length: 5_000 }, (_, i) => usageRecord('acme', 10_000 + i));
    await write(state, during);
    await until('the exporter to notice', async () => observer.failures.length > 0);
    expect(await streamLength('acme')).toBe(during.length);
    await fx.postgres.start();
    await expectExactly([...before, ...during]);
    await until('the stream to empty', async () => (await streamLength('acme')) === 0);
  }, 180_000);

  test('an exporter that dies between its commit and its acknowledgement: the next one re-delivers, nothing is stored twice', async () => {
    const state = await dataPlane();
    const observer = counting();
    let commits = 0;
    let crashed: (() => void) | null = null;
    const crashedOnce = new Promise<void>((resolve) => (crashed = resolve));
    const dying: UsageExporter = exporter(observer, (store) => ({
      ...pgSink(store, fx.pool),
      insert: async (records) => {
        const n = await store.insert(records);
        // Committed; gone before XACK: it stops at once (no drain) and never acknowledges this batch.
        if (++commits === 2) {
          void dying.stop(0).then(() => crashed?.());
          throw new Error('crashed after commit');
        }
        return n;
      },
    }));
    dying.start();
    const records = Array.from({ length: 4_000 }, (_, i) => usageRecord('acme', i));
    const writing = write(state, records);
    await crashedOnce;
    await writing;
    const storedAtCrash = (await storedIds()).length;
    expect(storedAtCrash).toBeLessThan(records.length);
    const survivor = exporter(observer);
    survivor.start();
    await expectExactly(records);
    // The batch committed but never acknowledged came again and was skipped by request id.
    expect(observer.exportedTotal).toBeGreaterThan(observer.storedTotal);
    await until('the stream to empty', async () => (await streamLength('acme')) === 0);
  }, 120_000);

  test('two exporters started at once: one works at a time, every record is stored once', async () => {
    const state = await dataPlane();
    const observer = counting();
    const a = exporter(observer);
    const b = exporter(observer);
    a.start();
    b.start();
    const records: UsageRecord[] = [];
    for (let round = 0; round < 10; round++) {
      const batch = Array.from({ length: 500 }, (_, i) => usageRecord(round % 2 === 0 ? 'acme' : 'globex', round * 1_000 + i));
      records.push(...batch);
      await write(state, batch);
      if (round === 5) await (a.isActive() ? a : b).stop(0); // the holder goes; the other takes over
    }
    await expectExactly(records);
    expect(observer.maxActive).toBe(1);
  }, 120_000);

  test('Redis restarted: what the data plane could not write meanwhile is written after, and exported once', async () => {
    const state = await dataPlane();
    const observer = counting();
    exporter(observer).start();
    const before = Array.from({ length: 2_000 }, (_, i) => usageRecord('acme', i));
    await write(state, before);
    await fx.redis.stop();
    const during = Array.from({ length: 500 }, (_, i) => usageRecord('acme', 5_000 + i));
    await write(state, during); // buffered in the data plane
    expect(state.bufferedRecords()).toBeGreaterThan(0);
    await fx.redis.start();
    const after = Array.from({ length: 1_000 }, (_, i) => usageRecord('acme', 9_000 + i));
    await until('redis to take writes again', async () => {
      try {
        await state.listCompanies();
        return true;
      } catch {
        return false;
      }
    });
    await write(state, after);
    await expectExactly([...before, ...during, ...after]);
    expect(state.bufferedRecords()).toBe(0);
  }, 120_000);

  test('a failover brings back entries already exported (a promoted replica that never got the deletions): each is stored once and the stream empties', async () => {
    const state = await dataPlane();
    const observer = counting();
    exporter(observer).start();
    const before = Array.from({ length: 500 }, (_, i) => usageRecord('acme', i));
    await write(state, before);
    await expectExactly(before);
    await until('the exported stream to be emptied', async () => (await streamLength('acme')) === 0, 20_000);
    const r = new Redis(fx.redis.url);
    try {
      // What the promoted replica holds: the entries exported on the old primary, which it never saw deleted.
      for (const record of before) await r.xadd(keys.usageStream('acme'), '*', 'r', JSON.stringify(record));
    } finally {
      r.disconnect();
    }
    const after = Array.from({ length: 500 }, (_, i) => usageRecord('acme', 1_000 + i));
    await write(state, after);
    await expectExactly([...before, ...after]);
    await until('the stream to be emptied again', async () => (await streamLength('acme')) === 0, 20_000);
    expect(observer.storedTotal).toBe(before.length + after.length);
    expect(observer.exportedTotal).toBe(2 * before.length + after.length);
    expect(readOrWriteFailures(observer)).toEqual([]);
  }, 60_000);

  test('a promoted replica that never got the exported markers: the exporter writes them again within its refresh', async () => {
    const state = await dataPlane();
    await write(state, [usageRecord('acme', 1)]);
    const client = redisClient();
    await until('the connection to be ready', async () => client.status === 'ready', 10_000);
    const source = new RedisUsageSource(client, 300);
    await source.next(10);
    const r = new Redis(fx.redis.url);
    try {
      expect(await r.exists(keys.usageExported('acme'), keys.usageExportOn())).toBe(2);
      // What the promoted replica lacks: the markers written just before the failover.
      await r.del(keys.usageExported('acme'), keys.usageExportOn());
      await new Promise((done) => setTimeout(done, 2_500));
      await source.next(10);
      expect(await r.exists(keys.usageExported('acme'), keys.usageExportOn())).toBe(2);
    } finally {
      r.disconnect();
    }
  });

  test('a stream an older exporter read through its consumer group: entries it left pending are exported and the group is dropped', async () => {
    const state = await dataPlane();
    const records = Array.from({ length: 300 }, (_, i) => usageRecord('acme', i));
    await write(state, records);
    const r = new Redis(fx.redis.url);
    try {
      // The older exporter's state: its group, a batch delivered and never acknowledged (its process died).
      await r.xgroup('CREATE', keys.usageStream('acme'), LEGACY_EXPORT_GROUP, '0');
      await r.xreadgroup('GROUP', LEGACY_EXPORT_GROUP, 'exporter', 'COUNT', 100, 'STREAMS', keys.usageStream('acme'), '>');
      const observer = counting();
      exporter(observer).start();
      await expectExactly(records);
      await until('the stream to be emptied', async () => (await streamLength('acme')) === 0, 20_000);
      const groups = (await r.xinfo('GROUPS', keys.usageStream('acme'))) as unknown[];
      expect(groups).toEqual([]);
      expect(readOrWriteFailures(observer)).toEqual([]);
    } finally {
      r.disconnect();
    }
  }, 60_000);

  test('gw export-usage killed with SIGKILL mid-stream; a second one finishes the job exactly once', async () => {
    const state = await dataPlane();
    const records = Array.from({ length: 30_000 }, (_, i) => usageRecord('acme', i));
    // The stream must be marked exported before anything could be trimmed: let one exporter see the company first.
    const spawnExporter = () =>
      spawn(process.execPath, [GW_BIN, 'export-usage', '--redis', fx.redis.url, '--postgres', fx.postgres.url, '--admin-port', '0'], {
        env: { ...process.env, GW_USAGE_EXPORT_LEASE_MS: '1500', GW_LOG_LEVEL: 'warn' },
        stdio: 'ignore',
      });
    const first = spawnExporter();
    fx.closers.push(async () => void first.kill('SIGKILL'));
    const writing = write(state, records);
    await until('the first exporter to be mid-way', async () => (await storedIds()).length > 0);
    first.kill('SIGKILL');
    const storedAtKill = (await storedIds()).length;
    await writing;
    expect(storedAtKill).toBeLessThan(records.length);
    const second = spawnExporter();
    fx.closers.push(async () => void second.kill('SIGTERM'));
    await expectExactly(records);
  }, 180_000);
});
