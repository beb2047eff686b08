import type { ReportGroup } from '../report.js';

/**
 * Usage totals per company, local day, grouping and group value, kept up
 * by triggers on gw_usage so that a month of Usage reads tens of thousands
 * of small rows instead of a million records (issue 25: ≤ 300 ms).
 *
 * Why local days and not UTC buckets: a month by end user has as many
 * distinct (bucket, end user) pairs as records once buckets are shorter than
 * a day, so only days in the company's own zone make the totals small. The
 * zone is the one the report reads (gw_usage_company, else UTC); a company's
 * rows are rebuilt from its records when that zone changes. Why triggers:
 * every way rows reach or leave gw_usage (the exporter's COPY and its INSERT
 * … ON CONFLICT DO NOTHING, retention deletes, a hand-run TRUNCATE) keeps
 * the totals in the same transaction, and statement-level triggers see only
 * the rows really inserted or deleted (a re-delivered record is not counted
 * again).
 *
 * Locking: a trigger holds a shared advisory lock per company it touches,
 * a zone change an exclusive one, so a rebuild never misses records written
 * under the old zone by a transaction still open. Both take them in company
 * order (since step 4, the names' byte order: COLLATE "C"), so they cannot
 * deadlock on each other.
 */

/** Each grouping's number in gw_usage_daily.dim. */
export const ROLLUP_DIMS: Readonly<Record<ReportGroup, number>> = { address: 1, model: 2, provider: 3, repo: 4, application: 5, end_user: 6 };

/**
 * One row per record with its company's rollup zone and local day; records of a company whose zone PostgreSQL
 * cannot use (rollup_zone NULL) are left out, and its reports are answered from the records.
 */
const withDay = (source: string): string => `
  SELECT u.company, z.zone, (u.time AT TIME ZONE z.zone)::date AS day, u.address, u.model, u.provider, u.repo, u.application, u.end_user,
    u.input_tokens, u.output_tokens, u.cache_creation_input_tokens, u.cache_read_input_tokens, u.cost_micros
  FROM ${source} u
  LEFT JOIN gw_usage_company c ON c.company = u.company
  CROSS JOIN LATERAL (SELECT CASE WHEN c.company IS NULL THEN 'UTC' ELSE c.rollup_zone END AS zone) z
  WHERE z.zone IS NOT NULL`;

/** A total already there is added to: what both steps' upserts do on a key they meet again. */
const ADD_TO_TOTALS = `  ON CONFLICT (company, zone, day, dim, k) DO UPDATE SET
    requests = d.requests + EXCLUDED.requests, input_tokens = d.input_tokens + EXCLUDED.input_tokens,
    output_tokens = d.output_tokens + EXCLUDED.output_tokens,
    cache_creation_input_tokens = d.cache_creation_input_tokens + EXCLUDED.cache_creation_input_tokens,
    cache_read_input_tokens = d.cache_read_input_tokens + EXCLUDED.cache_read_input_tokens,
    cost_micros = d.cost_micros + EXCLUDED.cost_micros`;

/**
 * Adds (sign 1) or takes away (sign -1) the records of `source` to the totals. A group value is stored as '=' and the
 * value, no value as '' (nothing else can be '': every value gets the prefix), so no key column is NULL. Sorted, so
 * two writers of the same totals lock them in one order.
 */
const apply = (source: string, sign: 1 | -1): string => `
  INSERT INTO gw_usage_daily AS d (company, zone, day, dim, k, requests, input_tokens, output_tokens,
    cache_creation_input_tokens, cache_read_input_tokens, cost_micros)
  SELECT r.company, r.zone, r.day, g.dim, coalesce('=' || g.value, ''), ${sign} * count(*), ${sign} * sum(r.input_tokens), ${sign} * sum(r.output_tokens),
    ${sign} * sum(r.cache_creation_input_tokens), ${sign} * sum(r.cache_read_input_tokens), ${sign} * sum(r.cost_micros)
  FROM (${withDay(source)}) r
  CROSS JOIN LATERAL (VALUES (1::smallint, r.address), (2::smallint, r.model), (3::smallint, r.provider), (4::smallint, r.repo),
    (5::smallint, r.application), (6::smallint, r.end_user)) g(dim, value)
  GROUP BY 1, 2, 3, 4, 5
  ORDER BY 1, 2, 3, 4, 5
${ADD_TO_TOTALS}`;

const lockShared = (source: string): string => `
  PERFORM pg_advisory_xact_lock_shared(hashtext('gw_usage_rollup'), hashtext(x.company))
  FROM (SELECT DISTINCT company FROM ${source} ORDER BY company) x`;

/**
 * Step 4 of the schema: the same totals, computed with less CPU per statement (the exporter's COPY of a part fires
 * the insert trigger once, and its upsert cost about a third of PostgreSQL's CPU per record; docs/benchmarks.md,
 * s13). Two changes, the sums unchanged:
 * - every text key is compared in the "C" collation (bytes): sorting and grouping in the database's collation goes
 *   through strcoll for each comparison, and the groups and the lock order need only some fixed order, not a
 *   linguistic one (equality is the same under every deterministic collation, so the groups are the same);
 * - one GROUPING SETS aggregate, hashed, instead of six rows per record (a LATERAL VALUES) sorted and grouped.
 * Locks are taken in that order too (saveTimeZones in pg-usage-store.ts uses the same order for the zone rebuild).
 */
const withDayC = (source: string): string => `
  SELECT u.company COLLATE "C" AS company, z.zone COLLATE "C" AS zone, (u.time AT TIME ZONE z.zone)::date AS day,
    u.address COLLATE "C" AS address, u.model COLLATE "C" AS model, u.provider COLLATE "C" AS provider, u.repo COLLATE "C" AS repo,
    u.application COLLATE "C" AS application, u.end_user COLLATE "C" AS end_user,
    u.input_tokens, u.output_tokens, u.cache_creation_input_tokens, u.cache_read_input_tokens, u.cost_micros
  FROM ${source} u
  LEFT JOIN gw_usage_company c ON c.company = u.company
  CROSS JOIN LATERAL (SELECT CASE WHEN c.company IS NULL THEN 'UTC' ELSE c.rollup_zone END AS zone) z
  WHERE z.zone IS NOT NULL`;

/** grouping() of the six dimensions is a bit mask, 1 for each left out: the one kept names the set (address 011111 = 31, …). */
const GROUPING = 'grouping(r.address, r.model, r.provider, r.repo, r.application, r.end_user)';

const applyGrouped = (source: string, sign: 1 | -1): string => `
  INSERT INTO gw_usage_daily AS d (company, zone, day, dim, k, requests, input_tokens, output_tokens,
    cache_creation_input_tokens, cache_read_input_tokens, cost_micros)
  SELECT s.company, s.zone, s.day, s.dim, s.k, s.requests, s.input_tokens, s.output_tokens, s.cache_creation_input_tokens, s.cache_read_input_tokens, s.cost_micros
  FROM (
    SELECT r.company, r.zone, r.day,
      (CASE ${GROUPING} WHEN 31 THEN 1 WHEN 47 THEN 2 WHEN 55 THEN 3 WHEN 59 THEN 4 WHEN 61 THEN 5 WHEN 62 THEN 6 END)::smallint AS dim,
      coalesce('=' || CASE ${GROUPING} WHEN 31 THEN r.address WHEN 47 THEN r.model WHEN 55 THEN r.provider WHEN 59 THEN r.repo
        WHEN 61 THEN r.application WHEN 62 THEN r.end_user END, '') AS k,
      ${sign} * count(*) AS requests, ${sign} * sum(r.input_tokens) AS input_tokens, ${sign} * sum(r.output_tokens) AS output_tokens,
      ${sign} * sum(r.cache_creation_input_tokens) AS cache_creation_input_tokens, ${sign} * sum(r.cache_read_input_tokens) AS cache_read_input_tokens,
      ${sign} * sum(r.cost_micros) AS cost_micros
    FROM (${withDayC(source)}) r
    GROUP BY GROUPING SETS ((r.company, r.zone, r.day, r.address), (r.company, r.zone, r.day, r.model), (r.company, r.zone, r.day, r.provider),
      (r.company, r.zone, r.day, r.repo), (r.company, r.zone, r.day, r.application), (r.company, r.zone, r.day, r.end_user))) s
  ORDER BY s.company COLLATE "C", s.zone COLLATE "C", s.day, s.dim, s.k COLLATE "C"
${ADD_TO_TOTALS}`;

const lockSharedC = (source: string): string => `
  PERFORM pg_advisory_xact_lock_shared(hashtext('gw_usage_rollup'), hashtext(x.company))
  FROM (SELECT DISTINCT company COLLATE "C" AS company FROM ${source} ORDER BY 1) x`;

const dropEmptyDays = (source: string): string => `
  DELETE FROM gw_usage_daily d USING (SELECT DISTINCT r.company, r.zone, r.day FROM (${withDayC(source)}) r) x
  WHERE d.company = x.company AND d.zone = x.zone AND d.day = x.day AND d.requests = 0`;

/** A company's totals rebuilt from its records when its zone changed (or was first saved: until then they were in UTC). */
const rebuildCompany = (add: (source: string, sign: 1 | -1) => string): string => `    IF (CASE WHEN TG_OP = 'INSERT' THEN 'UTC' ELSE OLD.rollup_zone END) IS NOT DISTINCT FROM NEW.rollup_zone THEN
      RETURN NULL;
    END IF;
    PERFORM pg_advisory_xact_lock(hashtext('gw_usage_rollup'), hashtext(NEW.company));
    DELETE FROM gw_usage_daily WHERE company = NEW.company;
    ${add('(SELECT * FROM gw_usage WHERE company = NEW.company)', 1)};
    RETURN NULL;`;

export const ROLLUP_GROUPED_MIGRATION = `
  CREATE OR REPLACE FUNCTION gw_usage_rollup_insert() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    ${lockSharedC('new_rows')};
    ${applyGrouped('new_rows', 1)};
    RETURN NULL;
  END $$;

  CREATE OR REPLACE FUNCTION gw_usage_rollup_delete() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    ${lockSharedC('old_rows')};
    ${applyGrouped('old_rows', -1)};
    ${dropEmptyDays('old_rows')};
    RETURN NULL;
  END $$;

  CREATE OR REPLACE FUNCTION gw_usage_rollup_update() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM pg_advisory_xact_lock_shared(hashtext('gw_usage_rollup'), hashtext(x.company))
    FROM (SELECT company COLLATE "C" AS company FROM old_rows UNION SELECT company FROM new_rows ORDER BY 1) x;
    ${applyGrouped('old_rows', -1)};
    ${applyGrouped('new_rows', 1)};
    ${dropEmptyDays('old_rows')};
    RETURN NULL;
  END $$;

  CREATE OR REPLACE FUNCTION gw_usage_company_rebuild() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
${rebuildCompany(applyGrouped)}
  END $$;
`;

/** Step 3 (released: never edited; step 4 replaces its trigger functions). */
export const ROLLUP_MIGRATION = `
  ALTER TABLE gw_usage_company ADD COLUMN rollup_zone text;
  CREATE TABLE gw_usage_daily (
    company text NOT NULL,
    zone text NOT NULL,
    day date NOT NULL,
    dim smallint NOT NULL,
    k text NOT NULL,
    requests bigint NOT NULL,
    input_tokens bigint NOT NULL,
    output_tokens bigint NOT NULL,
    cache_creation_input_tokens bigint NOT NULL,
    cache_read_input_tokens bigint NOT NULL,
    cost_micros bigint NOT NULL,
    PRIMARY KEY (company, zone, day, dim, k)
  ) WITH (fillfactor = 70);

  -- The zone as the report would use it, or NULL when PostgreSQL does not know it (the report then fails as before,
  -- and inserts must not).
  CREATE FUNCTION gw_usage_usable_zone(zone text) RETURNS text LANGUAGE plpgsql STABLE AS $$
  BEGIN
    PERFORM now() AT TIME ZONE zone;
    RETURN zone;
  EXCEPTION WHEN invalid_parameter_value THEN
    RETURN NULL;
  END $$;

  CREATE FUNCTION gw_usage_rollup_insert() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    ${lockShared('new_rows')};
    ${apply('new_rows', 1)};
    RETURN NULL;
  END $$;

  CREATE FUNCTION gw_usage_rollup_delete() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    ${lockShared('old_rows')};
    ${apply('old_rows', -1)};
    DELETE FROM gw_usage_daily d USING (SELECT DISTINCT r.company, r.zone, r.day FROM (${withDay('old_rows')}) r) x
    WHERE d.company = x.company AND d.zone = x.zone AND d.day = x.day AND d.requests = 0;
    RETURN NULL;
  END $$;

  CREATE FUNCTION gw_usage_rollup_update() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM pg_advisory_xact_lock_shared(hashtext('gw_usage_rollup'), hashtext(x.company))
    FROM (SELECT company FROM old_rows UNION SELECT company FROM new_rows ORDER BY company) x;
    ${apply('old_rows', -1)};
    ${apply('new_rows', 1)};
    DELETE FROM gw_usage_daily d USING (SELECT DISTINCT r.company, r.zone, r.day FROM (${withDay('old_rows')}) r) x
    WHERE d.company = x.company AND d.zone = x.zone AND d.day = x.day AND d.requests = 0;
    RETURN NULL;
  END $$;

  CREATE FUNCTION gw_usage_rollup_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    DELETE FROM gw_usage_daily;
    RETURN NULL;
  END $$;

  CREATE FUNCTION gw_usage_company_zone() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    NEW.rollup_zone := gw_usage_usable_zone(NEW.time_zone);
    RETURN NEW;
  END $$;

  -- A company's zone changed (or was first saved: until then its totals were in UTC): its totals are rebuilt from its records.
  CREATE FUNCTION gw_usage_company_rebuild() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
${rebuildCompany(apply)}
  END $$;

  CREATE TRIGGER gw_usage_rollup_insert AFTER INSERT ON gw_usage REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION gw_usage_rollup_insert();
  CREATE TRIGGER gw_usage_rollup_delete AFTER DELETE ON gw_usage REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION gw_usage_rollup_delete();
  CREATE TRIGGER gw_usage_rollup_update AFTER UPDATE ON gw_usage REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION gw_usage_rollup_update();
  CREATE TRIGGER gw_usage_rollup_truncate AFTER TRUNCATE ON gw_usage
    FOR EACH STATEMENT EXECUTE FUNCTION gw_usage_rollup_truncate();
  CREATE TRIGGER gw_usage_company_zone BEFORE INSERT OR UPDATE OF time_zone ON gw_usage_company
    FOR EACH ROW EXECUTE FUNCTION gw_usage_company_zone();
  CREATE TRIGGER gw_usage_company_rebuild AFTER INSERT OR UPDATE OF time_zone ON gw_usage_company
    FOR EACH ROW EXECUTE FUNCTION gw_usage_company_rebuild();

  -- The records already stored (the triggers above hold the table from here on, so none is missed or counted twice).
  UPDATE gw_usage_company SET rollup_zone = gw_usage_usable_zone(time_zone);
  ${apply('gw_usage', 1)};
`;
