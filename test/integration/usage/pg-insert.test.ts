import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { UsageRecord } from '../../../src/metering/usage-record.js';
import { connectPostgres } from '../../../src/usage/postgres/connect.js';
import { migrate } from '../../../src/usage/postgres/migrations.js';
import { PgUsageStore } from '../../../src/usage/postgres/pg-usage-store.js';
import { MemoryState } from '../../../src/state/memory.js';
import { UsageExporter } from '../../../src/usage/export/exporter.js';
import { PartlyInserted, SOLE_EXPORTER } from '../../../src/usage/export/ports.js';
import { startPostgres, type TestPostgres } from '../../support/postgres-server.js';
import { usageRecord } from '../../support/usage-records.js';

/**
 * The exporter's insert on a real PostgreSQL: a batch is cut into parts
 * committed in parallel, each sent with COPY (text format, which escapes
 * with backslashes and spells null \N) into a staging table, and rows go in
 * request-id order. None of that may change what is stored: each
 * request id once, every record byte-for-byte as written.
 */

let postgres: TestPostgres;
let pool: pg.Pool;

beforeAll(async () => {
  postgres = await startPostgres();
  pool = connectPostgres(postgres.url, { max: 6 });
  await migrate(pool);
});

afterEach(async () => {
  await pool.query('TRUNCATE gw_usage, gw_usage_company');
});

afterAll(async () => {
  await pool?.end();
  await postgres?.destroy();
});

async function storedIds(): Promise<string[]> {
  const { rows } = await pool.query<{ request_id: string }>('SELECT request_id FROM gw_usage');
  return rows.map((r) => r.request_id).sort();
}

describe('PgUsageStore.insert', () => {
  test('a batch cut into parallel parts stores every record once, and a re-delivery stores nothing', async () => {
    const store = new PgUsageStore(pool, 3);
    const records = Array.from({ length: 2_600 }, (_, i) => usageRecord(`c${i % 3}`, i));
    // The same request id twice in one batch (a writer's retry) lands once.
    const batch = [...records, records[7] as UsageRecord, records[2_000] as UsageRecord];
    expect(await store.insert(batch)).toBe(2_600);
    expect(await storedIds()).toEqual(records.map((r) => r.request_id).sort());
    expect(await store.insert(batch)).toBe(0);
    // Half already stored, half new: only the new half counts.
    const more = Array.from({ length: 1_200 }, (_, i) => usageRecord('c0', 5_000 + i));
    expect(await store.insert([...records.slice(0, 1_200), ...more])).toBe(1_200);
    expect(await store.count()).toBe(3_800);
  });

  test('two writers of overlapping batches in opposite orders at once neither deadlock nor duplicate', async () => {
    const a = new PgUsageStore(pool, 2);
    const b = new PgUsageStore(pool, 2);
    const records = Array.from({ length: 3_000 }, (_, i) => usageRecord('acme', i));
    const first = records.slice(0, 2_000);
    const second = records.slice(1_000).reverse();
    const [x, y] = await Promise.all([a.insert(first), b.insert(second)]);
    expect(x + y).toBe(3_000);
    expect(await storedIds()).toEqual(records.map((r) => r.request_id).sort());
  });

  test('records whose text holds newlines, quotes, backslashes, commas and braces come back as written', async () => {
    const store = new PgUsageStore(pool);
    const awkward = ['line\nbreak', 'tab\tand\r\nCRLF', 'quote " and \\ backslash', '{brace,comma}', 'NULL', '', 'emoji 🙂 and \u2028 separator', '\\N', '\\.', 'ends in a backslash \\'];
    const records = Array.from({ length: 1_400 }, (_, i) =>
      usageRecord('acme', i, {
        address: `${awkward[i % awkward.length]}@acme.example`,
        ...(i % 2 === 0 ? { repo: awkward[(i + 3) % awkward.length] as string, application: `app "${i}"\n` } : {}),
      }),
    );
    expect(await store.insert(records)).toBe(records.length);
    const { rows } = await pool.query<{ request_id: string; address: string; repo: string | null; record: UsageRecord; raw: string }>(
      'SELECT request_id, address, repo, record, record::text AS raw FROM gw_usage',
    );
    const byId = new Map(records.map((r) => [r.request_id, r]));
    expect(rows).toHaveLength(records.length);
    for (const row of rows) {
      const sent = byId.get(row.request_id) as UsageRecord;
      expect(row.record).toEqual(sent);
      expect(row.raw).toBe(JSON.stringify(sent));
      expect(row.address).toBe(sent.address);
      expect(row.repo).toBe(sent.repo ?? null);
    }
  });

  test('given the texts the source stored, each record column is that text (not the record serialised again)', async () => {
    const store = new PgUsageStore(pool, 2);
    // Half with characters COPY escapes (and JSON escapes, so backslashes in the text), half plain (the text goes as it is).
    const records = Array.from({ length: 1_200 }, (_, i) => usageRecord('acme', i, { address: i % 2 ? `tab\tnewline\n"quote"\\${i}@acme.example` : `plain${i}@acme.example` }));
    // A member only the text has shows which of the two was written.
    const texts = records.map((r, i) => JSON.stringify({ ...r, from_text: i }));
    expect(await store.insert(records, texts)).toBe(records.length);
    const { rows } = await pool.query<{ request_id: string; address: string; record: Record<string, unknown>; raw: string }>('SELECT request_id, address, record, record::text AS raw FROM gw_usage');
    const byId = new Map(records.map((r, i) => [r.request_id, { r, text: texts[i] as string }]));
    expect(rows).toHaveLength(records.length);
    for (const row of rows) {
      const { r, text } = byId.get(row.request_id)!;
      expect(row.record).toEqual(JSON.parse(text));
      expect(row.raw).toBe(text);
      expect(row.address).toBe(r.address);
    }
    await expect(store.insert(records, texts.slice(1))).rejects.toThrow(/texts for/);
  });

  test('an insert that fails in one part throws, and the retry stores each record once', async () => {
    const store = new PgUsageStore(pool, 2);
    const records = Array.from({ length: 1_500 }, (_, i) => usageRecord('acme', i));
    // A time PostgreSQL cannot read fails the part it falls in (rows go in request-id order).
    const sorted = [...records].sort((p, q) => (p.request_id < q.request_id ? -1 : 1));
    const bad = { ...(sorted[1_400] as UsageRecord), time: 'not a time' };
    const broken = sorted.map((r) => (r.request_id === bad.request_id ? bad : r));
    const failure = await store.insert(broken).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(PartlyInserted);
    expect((failure as Error).message).toMatch(/time/i);
    const partial = await store.count();
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(records.length);
    expect(failure).toMatchObject({ committed: partial, stored: partial });
    expect(await store.insert(records)).toBe(records.length - partial);
    expect(await storedIds()).toEqual(records.map((r) => r.request_id).sort());
  });

  test('the exporter counts what the committed parts of a failed batch stored: gw_usage_stored_total adds up over the failure and its retry', async () => {
    const store = new PgUsageStore(pool, 2);
    const records = Array.from({ length: 1_500 }, (_, i) => usageRecord('acme', i));
    const memory = new MemoryState();
    for (const r of records) await memory.recordUsage(r);
    const sorted = [...records].sort((p, q) => (p.request_id < q.request_id ? -1 : 1));
    const poisoned = (sorted[1_400] as UsageRecord).request_id;
    let calls = 0;
    const totals = { exported: 0, stored: 0, failures: 0 };
    const exporter = new UsageExporter(
      memory.usageSource(),
      {
        prepare: async () => {},
        // The first try fails in the second part only (a time PostgreSQL cannot read); the retry is clean.
        insert: (batch) => store.insert(calls++ === 0 ? batch.map((r) => (r.request_id === poisoned ? { ...r, time: 'not a time' } : r)) : batch),
        // Taken as a passing failure (as a lost connection is), so the whole batch is retried rather than split.
        refusal: () => null,
        saveTimeZones: async () => {},
        deleteOlderThan: async () => 0,
      },
      SOLE_EXPORTER,
      {
        exported: (count, stored) => {
          totals.exported += count;
          totals.stored += stored;
        },
        deadLettered: () => void totals.failures++,
        backlog: () => {},
        active: () => {},
        failed: () => void totals.failures++,
      },
      { batchSize: 2_000, idleMs: 10, maxBackoffMs: 50 },
    );
    exporter.start();
    const deadline = Date.now() + 30_000;
    while ((await store.count()) < records.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await exporter.stop(0);
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(totals.failures).toBeGreaterThanOrEqual(1);
    expect(await storedIds()).toEqual(records.map((r) => r.request_id).sort());
    expect(totals.stored).toBe(records.length);
    // The committed first part (750 of 1,500) counts twice as exported: once committed, once re-delivered and skipped.
    expect(totals.exported).toBe(records.length + 750);
  });
});
