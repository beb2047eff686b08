import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, expect, test } from 'vitest';
import type { UsageRecord } from '../../../src/metering/usage-record.js';
import { connectRedis, type RedisClient } from '../../../src/state/redis/connect.js';
import { keys } from '../../../src/state/redis/keys.js';
import { RedisState } from '../../../src/state/redis/redis-state.js';
import { RedisExportLease, RedisUsageSource } from '../../../src/state/redis/usage-stream-source.js';
import { MemoryState } from '../../../src/state/memory.js';
import { SecretBox } from '../../../src/state/secret-box.js';
import { UsageExporter, type ExportObserver } from '../../../src/usage/export/exporter.js';
import { SOLE_EXPORTER, type UsageSink, type UsageSource } from '../../../src/usage/export/ports.js';
import { connectPostgres } from '../../../src/usage/postgres/connect.js';
import { migrate } from '../../../src/usage/postgres/migrations.js';
import { PgUsageStore } from '../../../src/usage/postgres/pg-usage-store.js';
import { useRedisAndPostgres } from '../../support/usage-fixture.js';
import { usageRecord } from '../../support/usage-records.js';

/**
 * One record that can never be stored must not hold up the others: the
 * exporter sets it aside (a per-company dead-letter stream in Redis, a
 * bounded list in memory), counts it, and the rest flows. A failure of
 * PostgreSQL itself sets nothing aside.
 */

const fx = useRedisAndPostgres();

interface Watching extends ExportObserver {
  setAside: Array<{ company: string; requestId: string | null; reason: string }>;
  failures: string[];
}

function watching(): Watching {
  const w: Watching = {
    setAside: [],
    failures: [],
    exported: () => {},
    deadLettered: (company, requestId, reason) => void w.setAside.push({ company, requestId, reason }),
    backlog: () => {},
    active: () => {},
    failed: (stage, error) => void w.failures.push(`${stage}: ${(error as Error).message}`),
  };
  return w;
}

function redisClient(): RedisClient {
  const client = connectRedis(fx.redis.url);
  client.on('error', () => {});
  fx.closers.push(async () => client.disconnect());
  return client;
}

function start(source: UsageSource, observer: ExportObserver, lease = SOLE_EXPORTER): UsageExporter {
  const p = connectPostgres(fx.postgres.url);
  const store = new PgUsageStore(p);
  fx.closers.push(() => store.close());
  const sink: UsageSink = {
    prepare: async () => void (await migrate(p)),
    insert: (records, texts) => store.insert(records, texts),
    refusal: (error) => store.refusal(error),
    saveTimeZones: (zones) => store.saveTimeZones(zones),
    deleteOlderThan: (days) => store.deleteOlderThan(days),
  };
  const e = new UsageExporter(source, sink, lease, observer, { batchSize: 100, idleMs: 20, leaseRetryMs: 100, leaseRenewMs: 300, maxBackoffMs: 300 });
  e.start();
  fx.closers.push(() => e.stop(0));
  return e;
}

function startFromRedis(observer: ExportObserver): UsageExporter {
  const redis = redisClient();
  const source = new RedisUsageSource(redis);
  return start(source, observer, new RedisExportLease(redis, 1_500));
}

async function storedIds(): Promise<string[]> {
  const { rows } = await fx.pool.query<{ request_id: string }>('SELECT request_id FROM gw_usage ORDER BY request_id');
  return rows.map((r) => r.request_id);
}

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function dataPlane(): Promise<RedisState> {
  const state = new RedisState(redisClient(), new SecretBox(randomBytes(32)));
  await state.ready();
  return state;
}

/** An entry written straight into a company's usage stream, as the data plane's script writes one. */
async function writeRaw(company: string, text: string): Promise<void> {
  const r = new Redis(fx.redis.url);
  try {
    await r.xadd(keys.usageStream(company), '*', 'r', text);
  } finally {
    r.disconnect();
  }
}

async function deadLetters(company: string): Promise<Array<Record<string, string>>> {
  const r = new Redis(fx.redis.url);
  try {
    const entries = await r.xrange(keys.usageDeadLetters(company), '-', '+');
    return entries.map(([, fields]) => Object.fromEntries(Array.from({ length: fields.length / 2 }, (_, i) => [fields[2 * i], fields[2 * i + 1]])));
  } finally {
    r.disconnect();
  }
}

async function streamLength(company: string): Promise<number> {
  const r = new Redis(fx.redis.url);
  try {
    return await r.xlen(keys.usageStream(company));
  } finally {
    r.disconnect();
  }
}

/** A record whose shape is right but which PostgreSQL refuses: status does not fit its integer column (22003). */
function refusedByPostgres(company: string): UsageRecord {
  return usageRecord(company, 999, { status: 99_999_999_999 });
}

const byId = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

describe('records that can never be stored are set aside, and the rest flows', () => {
  test('Redis: malformed entries and a row PostgreSQL refuses, between good records of two companies, go to the dead-letter streams; every good record lands once', async () => {
    const state = await dataPlane();
    const before = [...Array.from({ length: 150 }, (_, i) => usageRecord('acme', i)), ...Array.from({ length: 120 }, (_, i) => usageRecord('globex', i))];
    for (const r of before) await state.recordUsage(r);
    const refused = refusedByPostgres('acme');
    const wrongShape = { ...usageRecord('acme', 1), input_tokens: 'abc' };
    const { request_id: _dropped, ...noId } = usageRecord('globex', 2);
    await writeRaw('acme', 'this is not JSON {');
    await writeRaw('acme', JSON.stringify(wrongShape));
    await state.recordUsage(refused);
    await writeRaw('globex', JSON.stringify(noId));
    const after = [...Array.from({ length: 130 }, (_, i) => usageRecord('acme', 200 + i)), ...Array.from({ length: 90 }, (_, i) => usageRecord('globex', 200 + i))];
    for (const r of after) await state.recordUsage(r);

    const observer = watching();
    startFromRedis(observer);
    const good = [...before, ...after].map((r) => r.request_id).sort(byId);
    await until('every good record', async () => (await storedIds()).length >= good.length && observer.setAside.length >= 4);
    await until('the streams to empty', async () => (await streamLength('acme')) === 0 && (await streamLength('globex')) === 0);
    expect(await storedIds()).toEqual(good);

    const acme = await deadLetters('acme');
    expect(acme.map((d) => [d.request_id, d.reason])).toEqual([
      ['', 'not JSON'],
      [wrongShape.request_id, 'input_tokens is not a non-negative integer'],
      [refused.request_id, 'PostgreSQL refused the row (SQLSTATE 22003)'],
    ]);
    // The record is kept exactly as it was written, for inspection and replay.
    expect(acme[0]?.record).toBe('this is not JSON {');
    expect(JSON.parse(acme[2]?.record ?? '')).toEqual(refused);
    expect((await deadLetters('globex')).map((d) => [d.request_id, d.reason, d.record])).toEqual([['', 'request_id is missing or not a string', JSON.stringify(noId)]]);
    expect(observer.setAside).toHaveLength(4);
    expect(observer.setAside.filter((d) => d.company === 'acme')).toHaveLength(3);
    // (A lease try before the new connection is up may fail; reading and writing never did.)
    expect(observer.failures.filter((f) => !f.startsWith('lease:'))).toEqual([]);

    // Set aside once: nothing is re-delivered or added later.
    const more = usageRecord('acme', 500);
    await state.recordUsage(more);
    await until('a later record', async () => (await storedIds()).includes(more.request_id));
    expect(await deadLetters('acme')).toHaveLength(3);
    expect(observer.setAside).toHaveLength(4);
  }, 120_000);

  test('PostgreSQL stopped: nothing is set aside while it is away (not even the bad entries); once back, the bad entries alone are', async () => {
    const state = await dataPlane();
    const records = Array.from({ length: 300 }, (_, i) => usageRecord('acme', i));
    const observer = watching();
    startFromRedis(observer);
    for (const r of records.slice(0, 150)) await state.recordUsage(r);
    await until('the first records', async () => (await storedIds()).length === 150);

    await fx.postgres.stop();
    try {
      const refused = refusedByPostgres('acme');
      await state.recordUsage(refused);
      await writeRaw('acme', '{"broken":');
      for (const r of records.slice(150)) await state.recordUsage(r);
      // Inserting fails (the server is gone), and keeps failing: an operational failure, retried.
      await until('the exporter to fail writing', () => observer.failures.filter((f) => f.startsWith('write:')).length >= 3);
      expect(observer.setAside).toEqual([]);
      expect(await deadLetters('acme')).toEqual([]);
      expect(await streamLength('acme')).toBe(150 + 2);
    } finally {
      await fx.postgres.start();
    }
    await until('every good record', async () => (await storedIds()).length >= records.length && observer.setAside.length >= 2);
    await until('the stream to empty', async () => (await streamLength('acme')) === 0);
    expect(await storedIds()).toEqual(records.map((r) => r.request_id).sort(byId));
    expect((await deadLetters('acme')).map((d) => d.reason).sort()).toEqual(['PostgreSQL refused the row (SQLSTATE 22003)', 'not JSON']);
    expect(observer.setAside).toHaveLength(2);
  }, 120_000);

  test('memory state (gw serve --postgres without Redis): a row PostgreSQL refuses is set aside in memory and counted; the rest lands once', async () => {
    const memory = new MemoryState();
    const records = Array.from({ length: 400 }, (_, i) => usageRecord('acme', i));
    const refused = [refusedByPostgres('acme'), usageRecord('acme', 998, { time: 'not a time' })];
    for (const r of records.slice(0, 200)) await memory.recordUsage(r);
    for (const r of refused) await memory.recordUsage(r);
    for (const r of records.slice(200)) await memory.recordUsage(r);
    const observer = watching();
    start(memory.usageSource(), observer);
    await until('every good record', async () => (await storedIds()).length >= records.length && observer.setAside.length >= 2);
    await until('memory to empty', async () => (await memory.usageSource().backlog()) === 0);
    expect(await storedIds()).toEqual(records.map((r) => r.request_id).sort(byId));
    expect(memory.usageSetAside().map((d) => [d.record.request_id, d.reason])).toEqual([
      [refused[0]?.request_id, 'PostgreSQL refused the row (SQLSTATE 22003)'],
      [refused[1]?.request_id, 'PostgreSQL refused the row (SQLSTATE 22007)'],
    ]);
    expect(observer.setAside.map((d) => d.requestId)).toEqual(refused.map((r) => r.request_id));
    expect(observer.failures).toEqual([]);
  }, 120_000);
});
