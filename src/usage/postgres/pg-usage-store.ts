import type pg from 'pg';
import type { UsageRecord } from '../../metering/usage-record.js';
import { normalizeModelId } from '../../models/normalize.js';
import { PartlyInserted } from '../export/ports.js';
import { copyField, copyFrom } from './copy-in.js';
import { readFailure } from './read-failure.js';
import { ROLLUP_DIMS } from './rollup.js';
import { storableJson } from './storable-text.js';
import { sumRows, topKeys, type FoldedReport } from '../top-groups.js';
import type { OthersRow } from '../report-row.js';
import { compareRows, costMicros, type Answer, type LogsQuery, type ReportGroup, type ReportQuery, type ReportRow, type UsageReader } from '../report.js';

/** Group names are mapped to columns here and nowhere else: nothing a caller sends reaches SQL text. */
const GROUP_COLUMNS: Readonly<Record<ReportGroup, string>> = {
  address: 'u.address',
  model: 'u.model',
  provider: 'u.provider',
  repo: 'u.repo',
  application: 'u.application',
  end_user: 'u.end_user',
};

const PERIOD_UNITS = { day: 'day', week: 'week', month: 'month' } as const;

/** As sameModel: the canonical id or the caller's spelling, folded as normalizeModelId folds (capitals, dashes, dots). */
const MODEL_MATCHES = `(lower(translate(u.model, '-.', '')) = $5 OR lower(translate(u.record->>'requested_model', '-.', '')) = $5)`;

/** A part smaller than this is not worth a connection of its own. */
const MIN_PART_ROWS = 500;
const COLUMNS = `request_id, time, company, address, model, provider, repo, application, end_user,
  input_tokens, output_tokens, cache_creation_input_tokens, cache_read_input_tokens, cost_micros, status, record`;
/** Most parts hold only records never stored: copied straight in, one statement that is its own transaction. */
const DIRECT_COPY_SQL = `COPY gw_usage (${COLUMNS}) FROM STDIN`;
const UNIQUE_VIOLATION = '23505';
/**
 * SQLSTATEs that blame a row's content, not the server or the link: data exceptions (class 22), a NOT NULL or
 * CHECK the row breaks, and a row past a program limit (54000: e.g. an index entry too large for its page).
 */
const CONTENT_ERROR = /^(22[0-9A-Z]{3}|23502|23514|54000)$/;

/** The SQLSTATE of a failure, looking through PartlyInserted to its cause. */
function sqlState(error: unknown): string | undefined {
  const e = error instanceof PartlyInserted ? error.cause : error;
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
/**
 * Where a part that holds a stored request id is copied instead: a temporary table (no WAL, no indexes, this
 * session's alone) emptied at each commit. Created in every transaction if
 * missing, so a pooler that hands out another server session still works.
 */
const STAGE_SQL = `SET LOCAL client_min_messages = warning;
  CREATE TEMPORARY TABLE IF NOT EXISTS gw_usage_incoming (LIKE gw_usage) ON COMMIT DELETE ROWS`;
const COPY_SQL = `COPY gw_usage_incoming (${COLUMNS}) FROM STDIN`;
/** Named, so each connection plans it once; the name carries the text's version (a changed text needs a new name). */
const MOVE_STATEMENT = 'gw_usage_move_1';
const MOVE_SQL = `INSERT INTO gw_usage (${COLUMNS})
  SELECT ${COLUMNS} FROM gw_usage_incoming ORDER BY request_id
  ON CONFLICT (request_id) DO NOTHING`;

/** A record to write, with its JSON as stored at the source when the source kept it. */
interface Row {
  readonly r: UsageRecord;
  readonly text: string | undefined;
}

/**
 * The record's JSON as a COPY field. Most texts hold neither a backslash nor a control character: then there is no
 * JSON escape that storableJson would rewrite and nothing COPY needs escaped, and the text goes as it is after one
 * scan (it is the longest field by far: three scans of it were a tenth of the exporter's CPU).
 */
const PLAIN_JSON = /[\\\n\r\t\0]/;
function recordField(text: string): string {
  return PLAIN_JSON.test(text) ? copyField(storableJson(text)) : text;
}

/** A number column (token counts, cost, status): a number's digits need no escaping; anything else goes through copyField. */
const numberField = (value: number | null | undefined): string => (typeof value === 'number' ? String(value) : copyField(value));

/** One record as a line of COPY text, in COLUMNS' order. */
function copyLine({ r, text }: Row): string {
  return `${copyField(r.request_id)}\t${copyField(r.time)}\t${copyField(r.company)}\t${copyField(r.address)}\t${copyField(r.model)}\t${copyField(r.provider)}\t${copyField(r.repo)}\t${copyField(r.application)}\t${copyField(r.end_user)}\t${numberField(r.input_tokens)}\t${numberField(r.output_tokens)}\t${numberField(r.cache_creation_input_tokens)}\t${numberField(r.cache_read_input_tokens)}\t${numberField(costMicros(r))}\t${numberField(r.status)}\t${recordField(text ?? JSON.stringify(r))}\n`;
}

/** Records per synchronous slice of COPY text: the exporter may share its event loop with the data plane (gw serve). */
const TEXT_SLICE = 250;

/** The records as COPY text, one chunk per slice, built a slice at a time, yielding to the event loop between slices. */
async function copyText(records: readonly Row[]): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  for (let i = 0; i < records.length; i += TEXT_SLICE) {
    if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    chunks.push(
      Buffer.from(
        records
          .slice(i, i + TEXT_SLICE)
          .map(copyLine)
          .join(''),
      ),
    );
  }
  return chunks;
}

/** A report's row as PostgreSQL returns it (sums of bigint come back as numeric text). */
interface SumRow {
  period: string | null;
  key: string | null;
  requests: string;
  input_tokens: string;
  output_tokens: string;
  cache_creation_input_tokens: string;
  cache_read_input_tokens: string;
  cost_micros: string;
}

/** compareRows' order, so the final sort finds the rows in order (keys compare by bytes here, by UTF-16 units there). */
const REPORT_ORDER = 'ORDER BY g.bucket, g.cost_micros DESC, g.requests DESC, g.key COLLATE "C" NULLS LAST';

/** The start of the period holding local timestamp `local`, truncated as the report's periods are. */
const periodBucket = (query: ReportQuery, local: string): string => (query.period === undefined ? 'NULL::timestamp' : `date_trunc('${PERIOD_UNITS[query.period]}', ${local})`);

/**
 * A report's groups as SQL, before they are written out or ordered: one row per (bucket, key) with its sums, as
 * columns bucket, key, requests, input_tokens, output_tokens, cache_creation_input_tokens, cache_read_input_tokens,
 * cost_micros; and the parameters it takes.
 */
interface Grouped {
  readonly sql: string;
  readonly params: unknown[];
}

/** The groups from every record in range: what any query can be answered with. `zone`: the company's, when one company is asked for. */
function groupedFromRecords(query: ReportQuery, zone: string | undefined): Grouped {
  // One company's zone is read once, not joined to each of its (up to millions of) rows; across companies each row takes its own.
  let zoneSql = "coalesce(c.time_zone, 'UTC')";
  let join = 'LEFT JOIN gw_usage_company c ON c.company = u.company';
  const params: unknown[] = [query.company ?? null, query.since ?? null, query.until ?? null];
  if (query.period === undefined) join = '';
  else if (zone !== undefined) {
    params.push(zone);
    zoneSql = '$4::text';
    join = '';
  }
  // Grouped by the truncated local time (a timestamp, cheap to hash) and written as a date only once per group.
  const sql = `SELECT ${periodBucket(query, `u.time AT TIME ZONE ${zoneSql}`)} AS bucket, ${GROUP_COLUMNS[query.groupBy]} AS key, count(*) AS requests,
         sum(u.input_tokens) AS input_tokens, sum(u.output_tokens) AS output_tokens,
         sum(u.cache_creation_input_tokens) AS cache_creation_input_tokens, sum(u.cache_read_input_tokens) AS cache_read_input_tokens,
         sum(u.cost_micros) AS cost_micros
       FROM gw_usage u ${join}
       WHERE ($1::text IS NULL OR u.company = $1)
         AND ($2::timestamptz IS NULL OR u.time >= $2)
         AND ($3::timestamptz IS NULL OR u.time < $3)
       GROUP BY 1, 2`;
  return { sql, params };
}

/**
 * Which local days of one company the daily totals answer for a range, and which records at its edges must be
 * read instead. A day is taken whole from the totals only when every instant of it is in range; the days a bound
 * cuts are summed from their records in range. Decided by PostgreSQL on a 15-minute grid around each bound (every
 * zone's offsets and changes fall on its lines, and a day a bound cuts lies within 2 days of it), so days that
 * begin at no midnight, last 23 or 25 hours or repeat an hour of the day before are handled as the records' own
 * bucketing handles them.
 */
interface RollupPlan {
  /** Days near a bound that the range holds whole. */
  readonly whole: string[];
  /** Every day after `after` and before `before` (each null when that side is open) is whole too. */
  readonly after: string | null;
  readonly before: string | null;
  /** Days a bound cuts: their records in range come from gw_usage, inside `windows`. */
  readonly cut: string[];
  readonly windows: Array<readonly [Date, Date]>;
}

async function rollupPlan(client: pg.PoolClient, query: ReportQuery, zone: string): Promise<RollupPlan> {
  const { rows } = await client.query<{ day: string; whole: boolean; near_since: boolean; near_until: boolean; lo: Date | null; hi: Date | null }>(
    `SELECT to_char(g.day, 'YYYY-MM-DD') AS day, bool_and(g.inside) AS whole, bool_or(g.side = 's') AS near_since, bool_or(g.side = 'u') AS near_until,
       min(g.b) FILTER (WHERE NOT g.outside) AS lo, max(g.b) FILTER (WHERE NOT g.outside) + interval '15 minutes' AS hi
     FROM (
       SELECT w.side, b, (b AT TIME ZONE $3::text)::date AS day,
         ($1::timestamptz IS NULL OR b >= $1) AND ($2::timestamptz IS NULL OR b + interval '15 minutes' <= $2) AS inside,
         ($1::timestamptz IS NOT NULL AND b + interval '15 minutes' <= $1) OR ($2::timestamptz IS NOT NULL AND b >= $2) AS outside
       FROM (VALUES ('s', $1::timestamptz), ('u', $2::timestamptz)) w(side, at)
       CROSS JOIN LATERAL generate_series(
         to_timestamp(floor(extract(epoch FROM w.at) / 900) * 900) - interval '2 days',
         to_timestamp(floor(extract(epoch FROM w.at) / 900) * 900) + interval '2 days',
         interval '15 minutes') b
       WHERE w.at IS NOT NULL) g
     GROUP BY g.day`,
    [query.since ?? null, query.until ?? null, zone],
  );
  const last = (days: string[]): string | null => (days.length === 0 ? null : days.reduce((a, b) => (a > b ? a : b)));
  const first = (days: string[]): string | null => (days.length === 0 ? null : days.reduce((a, b) => (a < b ? a : b)));
  const cut = rows.filter((r) => !r.whole && r.lo !== null && r.hi !== null);
  return {
    whole: rows.filter((r) => r.whole).map((r) => r.day),
    after: query.since === undefined ? null : last(rows.filter((r) => r.near_since).map((r) => r.day)),
    before: query.until === undefined ? null : first(rows.filter((r) => r.near_until).map((r) => r.day)),
    cut: cut.map((r) => r.day),
    windows: cut.map((r) => [r.lo as Date, r.hi as Date] as const),
  };
}

/** The groups from the daily totals, and the records of the days a bound cuts: the same numbers as groupedFromRecords. */
function groupedFromRollup(query: ReportQuery, zone: string, plan: RollupPlan): Grouped {
  const params: unknown[] = [query.company, zone, ROLLUP_DIMS[query.groupBy], plan.whole, plan.after, plan.before];
  // The range of days to read, so the primary key is an index range and not the company's whole history.
  const from = [...plan.whole, ...(plan.after === null ? [] : [plan.after])].sort()[0] ?? null;
  const to = [...plan.whole, ...(plan.before === null ? [] : [plan.before])].sort().at(-1) ?? null;
  params.push(query.since === undefined ? null : from, query.until === undefined ? null : to);
  let edges = '';
  if (plan.cut.length > 0) {
    params.push(query.since ?? null, query.until ?? null, plan.cut);
    const windows = plan.windows.map(([lo, hi]) => {
      params.push(lo, hi);
      return `(u.time >= $${params.length - 1} AND u.time < $${params.length})`;
    });
    edges = `UNION ALL
      SELECT (u.time AT TIME ZONE $2::text)::date, ${GROUP_COLUMNS[query.groupBy]}, 1::bigint, u.input_tokens, u.output_tokens,
        u.cache_creation_input_tokens, u.cache_read_input_tokens, u.cost_micros
      FROM gw_usage u
      WHERE u.company = $1 AND ($9::timestamptz IS NULL OR u.time >= $9) AND ($10::timestamptz IS NULL OR u.time < $10)
        AND (${windows.join(' OR ')})
        AND (u.time AT TIME ZONE $2::text)::date = ANY($11::date[])`;
  }
  const daily = `SELECT d.day, CASE WHEN d.k = '' THEN NULL ELSE substr(d.k, 2) END AS key, d.requests, d.input_tokens, d.output_tokens,
           d.cache_creation_input_tokens, d.cache_read_input_tokens, d.cost_micros
         FROM gw_usage_daily d
         WHERE d.company = $1 AND d.zone = $2 AND d.dim = $3 AND d.requests <> 0
           AND ($7::date IS NULL OR d.day >= $7) AND ($8::date IS NULL OR d.day <= $8)
           AND (d.day = ANY($4::date[]) OR (($5::date IS NULL OR d.day > $5) AND ($6::date IS NULL OR d.day < $6)))`;
  // By day with no day cut, each total is already one group: nothing to add up again.
  const sql =
    query.period === 'day' && edges === ''
      ? `SELECT x.day AS bucket, x.key, x.requests, x.input_tokens, x.output_tokens, x.cache_creation_input_tokens, x.cache_read_input_tokens, x.cost_micros
         FROM (${daily}) x`
      : `SELECT ${periodBucket(query, 'x.day::timestamp')} AS bucket, x.key, sum(x.requests)::bigint AS requests,
             sum(x.input_tokens)::bigint AS input_tokens, sum(x.output_tokens)::bigint AS output_tokens,
             sum(x.cache_creation_input_tokens)::bigint AS cache_creation_input_tokens, sum(x.cache_read_input_tokens)::bigint AS cache_read_input_tokens,
             sum(x.cost_micros)::bigint AS cost_micros
           FROM (${daily}
             ${edges}) x(day, key, requests, input_tokens, output_tokens, cache_creation_input_tokens, cache_read_input_tokens, cost_micros)
           GROUP BY 1, 2`;
  return { sql, params };
}

/** The sums of each group, as columns, in the names SumRow reads. */
const SUM_COLUMNS = `g.requests, g.input_tokens, g.output_tokens, g.cache_creation_input_tokens, g.cache_read_input_tokens, g.cost_micros`;

/** Every group, in compareRows' order (so the final sort finds the rows in order). */
async function fullReport(client: pg.PoolClient, grouped: Grouped): Promise<SumRow[]> {
  const result = await client.query<SumRow>(`SELECT to_char(g.bucket, 'YYYY-MM-DD') AS period, g.key, ${SUM_COLUMNS} FROM (${grouped.sql}) g ${REPORT_ORDER}`, grouped.params);
  return result.rows;
}

/** A report row as the API gives it, from its sums. */
function reportRow(r: SumRow): ReportRow {
  // Object literals, not a conditional spread: V8 builds each spread object slowly (31,000 rows took 0.4 s, not 10 ms).
  const row: ReportRow = {
    period: r.period ?? undefined,
    key: r.key,
    requests: Number(r.requests),
    input_tokens: Number(r.input_tokens),
    output_tokens: Number(r.output_tokens),
    cache_creation_input_tokens: Number(r.cache_creation_input_tokens),
    cache_read_input_tokens: Number(r.cache_read_input_tokens),
    cost_usd: Number(r.cost_micros) / 1e6,
  };
  if (r.period === null) delete row.period;
  return row;
}

/** Sums of the rows of `x` (a selection of groups), in the names SumRow reads. */
const FOLDED_SUMS = `sum(x.requests) AS requests, sum(x.input_tokens) AS input_tokens, sum(x.output_tokens) AS output_tokens,
  sum(x.cache_creation_input_tokens) AS cache_creation_input_tokens, sum(x.cache_read_input_tokens) AS cache_read_input_tokens,
  sum(x.cost_micros) AS cost_micros`;

/** The groups of `source` (grouped rows with a boolean `listed`) folded: each listed group's own row, and one sum per period of the rest. */
const foldedRows = (source: string): string => `SELECT 'r' AS part, to_char(x.bucket, 'YYYY-MM-DD') AS period, x.listed, CASE WHEN x.listed THEN x.key END AS key,
    count(*) AS groups, NULL::bigint AS rank, ${FOLDED_SUMS}
  FROM (${source}) x
  GROUP BY x.bucket, x.listed, CASE WHEN x.listed THEN x.key END`;

interface FoldedRow extends SumRow {
  /** 'k': one group's totals over the range, with its rank; 't': every group's, summed; 'r': a listed group's row or a period's others. */
  part: 'k' | 't' | 'r';
  listed: boolean | null;
  groups: string | null;
  rank: string | null;
}

/**
 * What foldGroups makes of the full report, computed next to the data, so a month by end user sends a few hundred
 * rows instead of every (day, end user). One pass over the groups gives each group's totals and the rows folded by
 * PostgreSQL's ranking of them; the gateway ranks the totals again by foldGroups' own rule (its last tie-break
 * compares UTF-16 units, PostgreSQL's bytes) and, in the rare case the two pick different groups, reads the rows
 * again folded by its own pick. The numbers are the full report's: the same groups, the same integer sums.
 */
async function foldedReport(client: pg.PoolClient, grouped: Grouped, top: number): Promise<FoldedReport> {
  const n = grouped.params.length;
  // Out of every group's totals only what the re-ranking needs leaves PostgreSQL: the first `top`, any group tied on
  // cost and requests with the last of them (only a tie can be broken the other way), and one row of the sums of all.
  const { rows } = await client.query<FoldedRow>(
    `WITH g AS MATERIALIZED (${grouped.sql}),
       r AS (
         SELECT k.*, row_number() OVER (ORDER BY k.cost_micros DESC, k.requests DESC, k.key COLLATE "C" NULLS LAST) AS rank
         FROM (SELECT x.key, ${FOLDED_SUMS} FROM g x GROUP BY x.key) k),
       edge AS (SELECT r.cost_micros, r.requests FROM r WHERE r.rank = $${n + 1}),
       l AS (SELECT coalesce(array_agg(r.key) FILTER (WHERE r.key IS NOT NULL), '{}') AS keys, coalesce(bool_or(r.key IS NULL), false) AS none FROM r WHERE r.rank <= $${n + 1})
     SELECT 'k' AS part, NULL::text AS period, NULL::boolean AS listed, r.key, NULL::bigint AS groups, r.rank,
       r.requests, r.input_tokens, r.output_tokens, r.cache_creation_input_tokens, r.cache_read_input_tokens, r.cost_micros
     FROM r
     WHERE r.rank <= $${n + 1} OR EXISTS (SELECT 1 FROM edge WHERE edge.cost_micros = r.cost_micros AND edge.requests = r.requests)
     UNION ALL
     SELECT 't', NULL, NULL, NULL, count(*), NULL, ${FOLDED_SUMS} FROM r x
     UNION ALL
     ${foldedRows('SELECT g.*, CASE WHEN g.key IS NULL THEN l.none ELSE g.key = ANY(l.keys) END AS listed FROM g CROSS JOIN l')}`,
    [...grouped.params, top],
  );
  const all = rows.find((r) => r.part === 't');
  const groups = Number(all?.groups ?? 0);
  const totals = { ...sumRows(all === undefined || groups === 0 ? [] : [reportRow(all)]), groups };
  const candidates = rows.filter((r) => r.part === 'k');
  const listed = groups <= top ? null : topKeys(candidates.map(reportRow), top);
  const theirs = new Set(candidates.filter((r) => Number(r.rank) <= top).map((r) => r.key));
  let folded = rows.filter((r) => r.part === 'r');
  if (listed !== null && (listed.size !== theirs.size || [...listed].some((k) => !theirs.has(k)))) {
    const keys = [...listed].filter((k): k is string => k !== null);
    const again = await client.query<FoldedRow>(foldedRows(`SELECT g.*, CASE WHEN g.key IS NULL THEN $${n + 2}::boolean ELSE g.key = ANY($${n + 1}::text[]) END AS listed FROM (${grouped.sql}) g`), [
      ...grouped.params,
      keys,
      listed.has(null),
    ]);
    folded = again.rows;
  }
  const data: ReportRow[] = [];
  const others: OthersRow[] = [];
  for (const r of folded) {
    const row = reportRow(r);
    if (r.listed === true) data.push(row);
    else {
      const { key: _key, ...sums } = row;
      others.push({ ...sums, groups: Number(r.groups) });
    }
  }
  others.sort((a, b) => ((a.period ?? '') < (b.period ?? '') ? -1 : (a.period ?? '') > (b.period ?? '') ? 1 : 0));
  return { data: data.sort(compareRows), others, groups, totals };
}

/** The durable Usage and Logs: written by the exporter, read by the admin API and the CLI. */
export class PgUsageStore implements UsageReader {
  /** `parallel`: connections one insert may use at once (keep it below the pool's size, which readers share). */
  constructor(
    private readonly pool: pg.Pool,
    private readonly parallel = 2,
  ) {}

  /**
   * Inserts the records idempotently: a request id already stored is
   * skipped, so a batch delivered twice (an exporter killed before its
   * acknowledgement, two exporters at once) is stored once. Resolves only
   * when every record is committed; if any part fails it throws (a
   * PartlyInserted when other parts committed, with what they stored), and
   * the caller's retry skips the parts already committed.
   *
   * Why it is shaped this way (the exporter's throughput, measured in
   * docs/benchmarks.md): the batch is cut into up to `parallel` parts
   * committed at once on their own connections (PostgreSQL inserts on one
   * core per connection). Each part is sent with COPY (one text, parsed
   * column by column: the cheapest way in for both sides) straight into
   * the table; COPY is all or nothing, so a part holding a request id
   * already stored (a re-delivery, a second exporter) fails whole with a
   * unique violation and is then copied into a temporary table (no WAL, no
   * indexes) and moved by one prepared INSERT … SELECT … ON CONFLICT DO
   * NOTHING in one transaction. Rows go in request-id order both ways, so
   * two writers of the same ids wait on each other in one order and cannot
   * deadlock.
   */
  async insert(records: readonly UsageRecord[], texts?: readonly string[]): Promise<number> {
    if (records.length === 0) return 0;
    if (texts !== undefined && texts.length !== records.length) throw new Error(`insert: ${texts.length} texts for ${records.length} records`);
    const sorted: Row[] = records.map((r, i) => ({ r, text: texts?.[i] }));
    sorted.sort((a, b) => (a.r.request_id < b.r.request_id ? -1 : a.r.request_id > b.r.request_id ? 1 : 0));
    const parts = Math.max(1, Math.min(this.parallel, Math.floor(sorted.length / MIN_PART_ROWS)));
    const size = Math.ceil(sorted.length / parts);
    const slices = Array.from({ length: parts }, (_, i) => sorted.slice(i * size, (i + 1) * size));
    const settled = await Promise.allSettled(slices.map((part) => this.insertPart(part)));
    let stored = 0;
    let committed = 0;
    const failures: unknown[] = [];
    for (const [i, s] of settled.entries()) {
      if (s.status === 'rejected') failures.push(s.reason);
      else {
        stored += s.value;
        committed += slices[i]?.length ?? 0;
      }
    }
    if (failures.length === 0) return stored;
    throw committed > 0 ? new PartlyInserted(committed, stored, failures[0]) : failures[0];
  }

  /**
   * Why PostgreSQL refused a batch when it blames the content of a row
   * (the SQLSTATE only: the server's message may quote the row), or null
   * for anything else (server down, link lost, out of resources), which is
   * retried and never set aside.
   */
  refusal(error: unknown): string | null {
    const code = sqlState(error);
    return code !== undefined && CONTENT_ERROR.test(code) ? `PostgreSQL refused the row (SQLSTATE ${code})` : null;
  }

  private async insertPart(records: readonly Row[]): Promise<number> {
    if (records.length === 0) return 0;
    const data = await copyText(records);
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      try {
        return await copyFrom(client, DIRECT_COPY_SQL, data);
      } catch (error) {
        if ((error as { code?: unknown }).code !== UNIQUE_VIOLATION) throw error;
      }
      // A re-delivery or a second writer: the copy stored nothing; skip by request id what is there.
      await client.query(`BEGIN; ${STAGE_SQL}`);
      await copyFrom(client, COPY_SQL, data);
      const moved = await client.query({ name: MOVE_STATEMENT, text: MOVE_SQL });
      await client.query('COMMIT');
      return moved.rowCount ?? 0;
    } catch (error) {
      // A failed rollback means the session is gone or confused: drop it rather than hand it out again.
      await client.query('ROLLBACK').catch((e: unknown) => {
        broken = e instanceof Error ? e : new Error(String(e));
      });
      throw error;
    } finally {
      client.release(broken);
    }
  }

  /**
   * Remembers each company's time zone, so reports bucket days as the company's settings say. In company order (bytes,
   * as the triggers take their locks since schema step 4): a changed zone rebuilds that company's daily totals under a
   * lock the inserts take in the same order (rollup.ts).
   */
  async saveTimeZones(zones: ReadonlyMap<string, string>): Promise<void> {
    if (zones.size === 0) return;
    await this.pool.query(
      `INSERT INTO gw_usage_company (company, time_zone)
       SELECT t.company, t.time_zone FROM unnest($1::text[], $2::text[]) AS t(company, time_zone) ORDER BY t.company COLLATE "C"
       ON CONFLICT (company) DO UPDATE SET time_zone = EXCLUDED.time_zone, updated_at = now()
       WHERE gw_usage_company.time_zone <> EXCLUDED.time_zone`,
      [[...zones.keys()], [...zones.values()]],
    );
  }

  /** Deletes records older than `days` days, a bounded slice at a time; returns how many went. */
  async deleteOlderThan(days: number, slice = 10_000): Promise<number> {
    let total = 0;
    for (;;) {
      const result = await this.pool.query(
        `DELETE FROM gw_usage WHERE request_id IN (
           SELECT request_id FROM gw_usage WHERE time < now() - make_interval(days => $1) LIMIT $2)`,
        [days, slice],
      );
      total += result.rowCount ?? 0;
      if ((result.rowCount ?? 0) < slice) return total;
    }
  }

  async count(company?: string): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>('SELECT count(*) AS n FROM gw_usage WHERE ($1::text IS NULL OR company = $1)', [company ?? null]);
    return Number(rows[0]?.n ?? 0);
  }

  async logs(query: LogsQuery): Promise<Answer<UsageRecord[]>> {
    return this.logsOrThrow(query).catch((error: unknown) => {
      throw readFailure(error);
    });
  }

  async report(query: ReportQuery): Promise<Answer<ReportRow[]>> {
    return this.reportOrThrow(query).catch((error: unknown) => {
      throw readFailure(error);
    });
  }

  private async logsOrThrow(query: LogsQuery): Promise<Answer<UsageRecord[]>> {
    const order = query.order === 'cost' ? 'u.cost_micros DESC, u.time DESC, u.request_id COLLATE "C"' : 'u.time DESC, u.request_id COLLATE "C"';
    // Keyset paging: the rows strictly after the cursor in exactly the ORDER BY above, so a page is an index range, never an OFFSET.
    const byTime = '(u.time < $7::timestamptz OR (u.time = $7::timestamptz AND u.request_id COLLATE "C" > $8::text COLLATE "C"))';
    // The leading bound repeated on its own (u.time <= …, u.cost_micros <= …) is what the planner can start an index range at;
    // the OR alone is only a filter, and a page deep in the list would read every row before it.
    const after =
      query.after === undefined
        ? 'TRUE'
        : query.order === 'cost'
          ? `u.cost_micros <= $9::bigint AND (u.cost_micros < $9::bigint OR (u.cost_micros = $9::bigint AND ${byTime}))`
          : `u.time <= $7::timestamptz AND ${byTime}`;
    const filters = `($2::timestamptz IS NULL OR u.time >= $2)
         AND ($3::timestamptz IS NULL OR u.time < $3)
         AND ($4::text IS NULL OR u.address = $4)
         AND ($5::text IS NULL OR ${MODEL_MATCHES})
         AND ${after}`;
    // Across companies no index holds the rows in time order (schema step 5): each company's first rows in the
    // order are read from its own index range, and the pages merged; the companies are found by skipping
    // along the (company, time) index, one probe per company.
    const sql =
      query.company !== undefined
        ? `SELECT u.record FROM gw_usage u WHERE u.company = $1 AND ${filters} ORDER BY ${order} LIMIT $6`
        : `WITH RECURSIVE c(company) AS (
             (SELECT company FROM gw_usage ORDER BY company LIMIT 1)
             UNION ALL
             SELECT (SELECT n.company FROM gw_usage n WHERE n.company > c.company ORDER BY n.company LIMIT 1) FROM c WHERE c.company IS NOT NULL)
           SELECT u.record FROM c CROSS JOIN LATERAL (
             SELECT u.record, u.time, u.request_id, u.cost_micros FROM gw_usage u
             WHERE u.company = c.company AND ${filters} ORDER BY ${order} LIMIT $6) u
           WHERE c.company IS NOT NULL AND $1::text IS NULL
           ORDER BY ${order}
           LIMIT $6`;
    const { rows } = await this.pool.query<{ record: UsageRecord }>(sql, [
      query.company ?? null,
      query.since ?? null,
      query.until ?? null,
      query.address ?? null,
      query.model === undefined ? null : normalizeModelId(query.model),
      query.limit,
      ...(query.after === undefined ? [] : [query.after.time, query.after.request_id, ...(query.order === 'cost' ? [query.after.cost_micros] : [])]),
    ]);
    return { data: rows.map((r) => r.record), droppedRecords: 0 };
  }

  /** What the console's Usage page shows: foldGroups(report(query), top), with only the listed groups' rows read out. */
  async reportFolded(query: ReportQuery, top: number): Promise<Answer<FoldedReport>> {
    const data = await this.grouped(query, (client, grouped) => foldedReport(client, grouped, top)).catch((error: unknown) => {
      throw readFailure(error);
    });
    return { data, droppedRecords: 0 };
  }

  private async reportOrThrow(query: ReportQuery): Promise<Answer<ReportRow[]>> {
    const rows = await this.grouped(query, fullReport);
    // Already in this order from PostgreSQL but for keys whose byte and UTF-16 orders differ: the sort then costs one pass.
    return { data: rows.map(reportRow).sort(compareRows), droppedRecords: 0 };
  }

  /** Runs `read` over the query's groups, from the daily totals when they answer for it, in one read-only snapshot. */
  private async grouped<T>(query: ReportQuery, read: (client: pg.PoolClient, grouped: Grouped) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      // One snapshot for the zone, the daily totals and the records at the edges, so a rebuild committed between them cannot split an answer.
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      // Enough memory for the groups to be hashed rather than sorted through temporary files (a month by end user is tens of thousands).
      await client.query("SET LOCAL work_mem = '64MB'");
      let plan: RollupPlan | undefined;
      let zone: string | undefined;
      if (query.company !== undefined) {
        const found = await client.query<{ time_zone: string | null; rollup_zone: string | null; known: boolean; rollup: boolean }>(
          `SELECT c.time_zone, to_jsonb(c)->>'rollup_zone' AS rollup_zone, c.company IS NOT NULL AS known, to_regclass('gw_usage_daily') IS NOT NULL AS rollup
           FROM (SELECT 1) one LEFT JOIN gw_usage_company c ON c.company = $1`,
          [query.company],
        );
        const f = found.rows[0];
        zone = f?.time_zone ?? 'UTC';
        // The daily totals answer only when they are bucketed in the zone this report uses (an older schema has none).
        if (f?.rollup === true && (f.known ? f.rollup_zone === zone : true)) plan = await rollupPlan(client, query, zone);
      }
      const grouped = plan !== undefined && zone !== undefined ? groupedFromRollup(query, zone, plan) : groupedFromRecords(query, zone);
      const answer = await read(client, grouped);
      await client.query('COMMIT');
      return answer;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
