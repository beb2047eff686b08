import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Registry } from 'prom-client';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { globalTokenAccess } from '../../../src/admin/admin-access.js';
import { createAdminServer } from '../../../src/admin/admin-server.js';
import { MemoryState } from '../../../src/state/memory.js';
import { connectPostgres } from '../../../src/usage/postgres/connect.js';
import { migrate } from '../../../src/usage/postgres/migrations.js';
import { PgUsageStore } from '../../../src/usage/postgres/pg-usage-store.js';
import { readFailure } from '../../../src/usage/postgres/read-failure.js';
import { UsageStoreUnavailable } from '../../../src/usage/report.js';
import { startPostgres, type TestPostgres } from '../../support/postgres-server.js';

/**
 * A usage store that does not exist yet (no exporter has migrated it) or
 * cannot be reached is an outage a reader can wait out: the Usage and Logs
 * API answers 503 with a fixed text and logs the reason, never 500, and a
 * real defect still answers 500.
 */

const TOKEN = 'admin-read-failure-token';
let postgres: TestPostgres;
let pool: pg.Pool;
let server: Server;
let base: string;
const logged: Array<{ fields: object; message: string }> = [];

beforeAll(async () => {
  postgres = await startPostgres();
  pool = connectPostgres(postgres.url, { max: 2 });
  server = createAdminServer({
    state: new MemoryState(),
    usage: new PgUsageStore(pool),
    registry: new Registry(),
    access: globalTokenAccess(TOKEN),
    ready: () => true,
    log: { error: (fields, message) => logged.push({ fields, message }) },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await pool?.end();
  await postgres?.destroy();
});

async function ask(path: string): Promise<{ status: number; body: { error?: { type: string; message: string }; data?: unknown[] } }> {
  const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
  return { status: res.status, body: (await res.json()) as { error?: { type: string; message: string }; data?: unknown[] } };
}

describe('reading a usage store that cannot answer', () => {
  test('before any exporter created the tables: 503 naming why, for logs and for usage; the log has the reason', async () => {
    for (const path of ['/admin/v1/logs?company=acme', '/admin/v1/usage?company=acme&group_by=model']) {
      const { status, body } = await ask(path);
      expect(status).toBe(503);
      expect(body.error?.type).toBe('api_error');
      expect(body.error?.message).toBe('gw: the usage store cannot answer: its tables do not exist yet: no usage exporter has started against this database');
    }
    expect(logged.at(-1)).toEqual({ fields: { path: '/admin/v1/usage', err: 'its tables do not exist yet: no usage exporter has started against this database' }, message: 'admin request failed' });
  });

  test('once the schema exists the same requests answer 200', async () => {
    await migrate(pool);
    expect(await ask('/admin/v1/logs?company=acme')).toEqual({ status: 200, body: expect.objectContaining({ data: [] }) });
    expect((await ask('/admin/v1/usage?company=acme&group_by=model')).status).toBe(200);
  });

  test('PostgreSQL stopped: 503 "cannot be reached"; started again: 200', async () => {
    await postgres.stop();
    try {
      const { status, body } = await ask('/admin/v1/logs?company=acme');
      expect(status).toBe(503);
      expect(body.error?.message).toBe('gw: the usage store cannot answer: PostgreSQL cannot be reached');
    } finally {
      await postgres.start();
    }
    let status = 0;
    // The pool may hand out a connection the restart cut once more; the next one is fresh.
    for (let tries = 0; tries < 20 && status !== 200; tries++) status = (await ask('/admin/v1/logs?company=acme')).status;
    expect(status).toBe(200);
  });
});

describe('readFailure', () => {
  test('passes a defect on unchanged (not every failure is an outage)', () => {
    const syntax = Object.assign(new Error('syntax error at or near "x"'), { code: '42601' });
    expect(readFailure(syntax)).toBe(syntax);
    const plain = new TypeError('x is not a function');
    expect(readFailure(plain)).toBe(plain);
    expect(readFailure('text')).toBe('text');
  });

  test('names the deployment conditions it knows', () => {
    const reached = (code: string): unknown => readFailure(Object.assign(new Error('x'), { code }));
    for (const code of ['08006', '08001', '53300', '57P01', '57P03', 'ECONNREFUSED', 'ECONNRESET']) expect(reached(code)).toEqual(new UsageStoreUnavailable('PostgreSQL cannot be reached'));
    expect(readFailure(new Error('timeout exceeded when trying to connect'))).toBeInstanceOf(UsageStoreUnavailable);
    expect((reached('42P01') as UsageStoreUnavailable).reason).toMatch(/tables do not exist yet/);
  });
});
