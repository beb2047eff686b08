import type pg from 'pg';
import { ROLLUP_GROUPED_MIGRATION, ROLLUP_MIGRATION } from './rollup.js';

/**
 * The usage schema, one migration per step, applied in order inside one
 * transaction under an advisory lock, so two exporters starting at once
 * neither race nor apply a step twice. Never edit a step once released:
 * add the next one.
 */
const MIGRATIONS: readonly string[] = [
  // 1: one row per request, keyed by its id (re-delivery changes nothing); the record as written, and
  //    the columns the reports filter and group by, with cost as whole micro-dollars so sums are exact.
  `CREATE TABLE gw_usage (
     request_id text PRIMARY KEY,
     time timestamptz NOT NULL,
     company text NOT NULL,
     address text NOT NULL,
     model text,
     provider text,
     repo text,
     application text,
     end_user text,
     input_tokens bigint NOT NULL,
     output_tokens bigint NOT NULL,
     cache_creation_input_tokens bigint NOT NULL,
     cache_read_input_tokens bigint NOT NULL,
     cost_micros bigint NOT NULL,
     status integer NOT NULL,
     record json NOT NULL
   );
   CREATE INDEX gw_usage_company_time ON gw_usage (company, time DESC);
   CREATE INDEX gw_usage_company_cost ON gw_usage (company, cost_micros DESC);
   CREATE INDEX gw_usage_company_address_time ON gw_usage (company, address, time DESC);
   CREATE INDEX gw_usage_company_model_time ON gw_usage (company, model, time DESC);
   CREATE INDEX gw_usage_time ON gw_usage (time);
   CREATE TABLE gw_usage_company (
     company text PRIMARY KEY,
     time_zone text NOT NULL,
     updated_at timestamptz NOT NULL DEFAULT now()
   );`,
  // 2: the model filter compares a folded spelling (lower/translate, or the requested model in the
  //    record), which this index never served; every index is paid on each of the exporter's inserts.
  `DROP INDEX IF EXISTS gw_usage_company_model_time;`,
  // 3: per-day totals in each company's time zone, kept by triggers, so a month of Usage reads tens of
  //    thousands of small rows instead of every record (see rollup.ts).
  ROLLUP_MIGRATION,
  // 4: the same totals for less CPU per insert: keys compared as bytes, one hashed GROUPING SETS aggregate (rollup.ts).
  ROLLUP_GROUPED_MIGRATION,
  // 5: time alone is read only in ranges (retention, reports across companies): a block-range index answers those for
  //    almost nothing per insert (rows arrive in about time order), where the B-tree cost every insert a descent and WAL.
  //    Logs across companies merge each company's (company, time) range instead (pg-usage-store.ts).
  `DROP INDEX IF EXISTS gw_usage_time;
   CREATE INDEX gw_usage_time_brin ON gw_usage USING brin (time);`,
  // 6: the keys the indexes compare, as bytes. In a database whose locale is not C or POSIX (en_US.UTF-8, C.UTF-8 before
  //    PostgreSQL 17) every comparison in a B-tree descent went through strcoll, without abbreviated keys; each insert
  //    makes a few dozen (primary key, company, address). Equality is the same in every deterministic collation; the one
  //    order these columns give a reader (request ids breaking ties in Logs) was already bytes (COLLATE "C" in the query).
  //    The totals' and companies' keys too, so no join compares a byte-ordered column with an index in another order.
  //    The table is not rewritten (text to text), but every index on these columns is rebuilt, under the migration's lock.
  `ALTER TABLE gw_usage ALTER COLUMN request_id TYPE text COLLATE "C", ALTER COLUMN company TYPE text COLLATE "C",
     ALTER COLUMN address TYPE text COLLATE "C";
   ALTER TABLE gw_usage_company ALTER COLUMN company TYPE text COLLATE "C";
   ALTER TABLE gw_usage_daily ALTER COLUMN company TYPE text COLLATE "C", ALTER COLUMN zone TYPE text COLLATE "C",
     ALTER COLUMN k TYPE text COLLATE "C";`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Brings the schema to SCHEMA_VERSION (or to `upTo`, for tests of a later step's upgrade); returns the steps applied. */
export async function migrate(pool: pg.Pool, upTo = MIGRATIONS.length): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query("SELECT pg_advisory_xact_lock(hashtext('gw_usage_migrations'))");
    await client.query('CREATE TABLE IF NOT EXISTS gw_schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    const { rows } = await client.query<{ v: number | null }>('SELECT max(version) AS v FROM gw_schema_migrations');
    const current = rows[0]?.v ?? 0;
    if (current > MIGRATIONS.length) throw new Error(`the usage schema is at version ${current}, newer than this gateway knows (${MIGRATIONS.length}): upgrade the gateway`);
    for (let v = current + 1; v <= upTo; v++) {
      await client.query(MIGRATIONS[v - 1] as string);
      await client.query('INSERT INTO gw_schema_migrations (version) VALUES ($1)', [v]);
    }
    await client.query('COMMIT');
    return Math.max(0, upTo - current);
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
