import { Redis } from 'ioredis';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { connectPostgres } from '../../src/usage/postgres/connect.js';
import { migrate } from '../../src/usage/postgres/migrations.js';
import { startPostgres, type TestPostgres } from './postgres-server.js';
import { startRedis, type TestRedis } from './redis-server.js';

/** A Redis and a migrated PostgreSQL for one test file, emptied after every test. */
export interface UsageFixture {
  readonly redis: TestRedis;
  readonly postgres: TestPostgres;
  /** A pool on the usage store, for the test's own queries. */
  readonly pool: pg.Pool;
  /** Run (newest first) after each test, before the stores are emptied: exporters, clients, threads the test opened. */
  readonly closers: Array<() => Promise<void>>;
}

/**
 * Registers the file's hooks (start both servers and migrate once; after each
 * test close what it opened, flush Redis and truncate the usage tables; stop
 * both at the end) and returns the fixture, whose fields are set once the
 * beforeAll hook has run.
 */
export function useRedisAndPostgres(): UsageFixture {
  const closers: Array<() => Promise<void>> = [];
  let redis: TestRedis | undefined;
  let postgres: TestPostgres | undefined;
  let pool: pg.Pool | undefined;
  const started = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`the usage fixture's ${name} is read before its beforeAll hook ran`);
    return value;
  };

  beforeAll(async () => {
    [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
    pool = connectPostgres(postgres.url);
    await migrate(pool);
  });

  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    const r = new Redis(started(redis, 'redis').url);
    await r.flushall();
    r.disconnect();
    await started(pool, 'pool').query('TRUNCATE gw_usage, gw_usage_company');
  });

  afterAll(async () => {
    await pool?.end();
    await redis?.destroy();
    await postgres?.destroy();
  });

  return {
    get redis() {
      return started(redis, 'redis');
    },
    get postgres() {
      return started(postgres, 'postgres');
    },
    get pool() {
      return started(pool, 'pool');
    },
    closers,
  };
}
