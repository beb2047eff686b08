import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import pino from 'pino';
import { Registry } from 'prom-client';
import { describe, expect, test } from 'vitest';
import type { UsageStoreConfig } from '../../../src/config/usage-config.js';
import { UsageMetrics } from '../../../src/observability/usage-metrics.js';
import { UsageExportThread } from '../../../src/runtime/usage-export-thread.js';
import { connectRedis } from '../../../src/state/redis/connect.js';
import { keys } from '../../../src/state/redis/keys.js';
import { RedisState } from '../../../src/state/redis/redis-state.js';
import { SecretBox } from '../../../src/state/secret-box.js';
import { useRedisAndPostgres } from '../../support/usage-fixture.js';
import { usageRecord } from '../../support/usage-records.js';

/**
 * The exporter of `gw serve --redis --postgres` on its own thread (the
 * compiled dist/runtime/usage-export-worker.js; `npm run build` first):
 * records land exactly once, its metrics reach the main thread's registry,
 * it stops cleanly, and a thread that dies is started again.
 */

const fx = useRedisAndPostgres();

function usageConfig(): UsageStoreConfig {
  return { postgresUrl: fx.postgres.url, postgresPassword: null, retentionDays: 0, backlogMax: 1_000_000, memoryBytes: 64 * 1024 * 1024, exportLeaseMs: 1_000 };
}

interface Harness {
  readonly thread: UsageExportThread;
  readonly registry: Registry;
  readonly lines: Array<{ msg: string; level: number; detail?: string; code?: number }>;
}

function exportThread(redisUrl = fx.redis.url): Harness {
  const lines: Harness['lines'] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line) as Harness['lines'][number]);
      done();
    },
  });
  const registry = new Registry();
  const thread = new UsageExportThread({
    data: { usage: usageConfig(), redisUrl, redisTlsCa: null, redisPassword: null },
    metrics: new UsageMetrics(registry),
    logger: pino({ level: 'info' }, sink),
    restartDelayMs: 100,
    maxRestartDelayMs: 400,
  });
  fx.closers.push(() => thread.stop(0));
  return { thread, registry, lines };
}

async function dataPlane(): Promise<RedisState> {
  const client = connectRedis(fx.redis.url);
  client.on('error', () => {});
  fx.closers.push(async () => client.disconnect());
  const state = new RedisState(client, new SecretBox(randomBytes(32)));
  await state.ready();
  return state;
}

async function storedIds(): Promise<string[]> {
  const { rows } = await fx.pool.query<{ request_id: string }>('SELECT request_id FROM gw_usage');
  return rows.map((r) => r.request_id);
}

async function metric(registry: Registry, name: string, labels: Record<string, string> = {}): Promise<number> {
  const found = (await registry.getSingleMetric(name)?.get())?.values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l));
  return found?.value ?? 0;
}

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the exporter thread of gw serve', () => {
  test('records land once, its metrics are the main thread’s, and stop drains, lets go of the lease and ends the thread', async () => {
    const state = await dataPlane();
    const { thread, registry } = exportThread();
    thread.start();
    const first = Array.from({ length: 3_000 }, (_, i) => usageRecord(i % 2 ? 'acme' : 'globex', i));
    await Promise.all(first.map((r) => state.recordUsage(r)));
    await until('the first records in PostgreSQL', async () => (await storedIds()).length === first.length);
    await until('the metrics of the thread in this registry', async () => (await metric(registry, 'gw_usage_stored_total')) === first.length);
    expect(await metric(registry, 'gw_usage_exported_total')).toBe(first.length);
    expect(await metric(registry, 'gw_usage_exporter_active')).toBe(1);
    expect(thread.isActive()).toBe(true);
    await until('the backlog gauge at 0', async () => (await metric(registry, 'gw_usage_export_backlog')) === 0);

    // Written just before shutdown: drained by the stop, not left behind.
    const last = Array.from({ length: 500 }, (_, i) => usageRecord('acme', i));
    await Promise.all(last.map((r) => state.recordUsage(r)));
    const worker = thread.thread;
    expect(worker).not.toBeNull();
    const exitCode = new Promise<number>((resolve) => worker!.once('exit', resolve));
    await thread.stop(10_000);
    await exitCode;
    expect(thread.thread).toBeNull();
    const ids = await storedIds();
    expect(ids).toHaveLength(first.length + last.length);
    expect(new Set(ids).size).toBe(ids.length);
    expect(await metric(registry, 'gw_usage_exporter_active')).toBe(0);
    expect(await metric(registry, 'gw_usage_export_errors_total', { stage: 'worker' })).toBe(0);
    const redis = new Redis(fx.redis.url);
    expect(await redis.get(keys.exporterLease())).toBeNull();
    redis.disconnect();
  });

  test('records set aside in the thread are counted and logged on the main thread, with request id and reason, never content', async () => {
    const state = await dataPlane();
    const { thread, registry, lines } = exportThread();
    const good = Array.from({ length: 200 }, (_, i) => usageRecord('acme', i));
    await Promise.all(good.slice(0, 100).map((r) => state.recordUsage(r)));
    const marker = `private-${randomBytes(6).toString('hex')}`;
    const refused = usageRecord('acme', 999, { status: 99_999_999_999, repo: marker });
    await state.recordUsage(refused);
    const redis = new Redis(fx.redis.url);
    await redis.xadd(keys.usageStream('acme'), '*', 'r', JSON.stringify({ ...usageRecord('acme', 998, { request_id: 'req_bad_shape' }), input_tokens: marker }));
    redis.disconnect();
    await Promise.all(good.slice(100).map((r) => state.recordUsage(r)));
    thread.start();
    await until('the good records in PostgreSQL', async () => (await storedIds()).length === good.length);
    await until('both counted', async () => (await metric(registry, 'gw_usage_export_dead_letter_total', { company: 'acme' })) === 2);
    const logged = lines.filter((l) => l.msg.startsWith('usage record set aside'));
    expect(logged.map((l) => [(l as { request_id?: string }).request_id, (l as { reason?: string }).reason])).toEqual([
      ['req_bad_shape', 'input_tokens is not a non-negative integer'],
      [refused.request_id, 'PostgreSQL refused the row (SQLSTATE 22003)'],
    ]);
    expect(JSON.stringify(lines)).not.toContain(marker);
  });

  test('a thread that dies mid-stream is logged, counted and started again; every record lands exactly once', async () => {
    const state = await dataPlane();
    const { thread, registry, lines } = exportThread();
    thread.start();
    const records = Array.from({ length: 20_000 }, (_, i) => usageRecord(['acme', 'globex', 'initech'][i % 3] as string, i));
    let written = 0;
    const writing = (async () => {
      for (; written < records.length; written += 500) await Promise.all(records.slice(written, written + 500).map((r) => state.recordUsage(r)));
    })();
    await until('some records exported', async () => (await metric(registry, 'gw_usage_exported_total')) > 0);
    const first = thread.thread!;
    await first.terminate(); // as an uncaught error or an out-of-memory would end it: mid-batch, nothing cleaned up
    await until('a new thread', () => thread.thread !== null && thread.thread !== first);
    await writing;
    await until('every record in PostgreSQL', async () => (await storedIds()).length >= records.length, 120_000);
    const ids = await storedIds();
    expect(ids).toHaveLength(records.length);
    expect(new Set(ids)).toEqual(new Set(records.map((r) => r.request_id)));
    expect(await metric(registry, 'gw_usage_export_errors_total', { stage: 'worker' })).toBeGreaterThanOrEqual(1);
    expect(lines.some((l) => l.msg.startsWith('usage exporter thread exited') && l.level === 50)).toBe(true);
    await until('the new thread active', async () => (await metric(registry, 'gw_usage_exporter_active')) === 1);
  });

  test('a thread that cannot even start is restarted with backoff, each failure logged, until stopped', async () => {
    const { thread, registry, lines } = exportThread('not a url');
    thread.start();
    await until('three failed starts', async () => (await metric(registry, 'gw_usage_export_errors_total', { stage: 'worker' })) >= 3, 30_000);
    expect(lines.some((l) => l.msg === 'usage exporter thread failed' && /the Redis URL must start with redis:\/\//.test(l.detail ?? ''))).toBe(true);
    await thread.stop(0);
    const after = await metric(registry, 'gw_usage_export_errors_total', { stage: 'worker' });
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await metric(registry, 'gw_usage_export_errors_total', { stage: 'worker' })).toBe(after);
    expect(thread.thread).toBeNull();
  });
});
