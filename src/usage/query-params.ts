import { USAGE_QUERY_MESSAGES as M } from '../errors/messages.js';
import { PERIODS, REPORT_GROUPS, type LogsCursor, type LogsQuery, type Period, type ReportGroup, type ReportQuery } from './report.js';

/**
 * The one reader of a Usage or Logs query, shared by `gw logs` / `gw usage`,
 * the Usage and Logs API and the owner console: each names the fields its own
 * way (`--by`, `group_by`, `from`) and says how a problem names them; the
 * rules and the texts are here once (texts in src/errors/messages.ts).
 */
export type QueryField = 'company' | 'since' | 'until' | 'limit' | 'order' | 'address' | 'model' | 'groupBy' | 'period' | 'after';

export interface QuerySource {
  /** The raw value of a field as this caller received it; undefined (or '') when not given. */
  value(field: QueryField): string | undefined;
  /** How this caller names the field in a problem: `--by`, `"group_by"`. */
  label(field: QueryField): string;
}

/** The Usage and Logs API's parameter names. */
export const API_QUERY_PARAMS: Readonly<Record<QueryField, string>> = Object.freeze({
  company: 'company',
  since: 'since',
  until: 'until',
  limit: 'limit',
  order: 'order',
  address: 'address',
  model: 'model',
  groupBy: 'group_by',
  period: 'period',
  after: 'after',
});

export interface QueryLimits {
  /** Records a Logs page may ask for. */
  readonly maxLimit: number;
  readonly defaultLimit: number;
  /** The period when none is asked for (null: one row per group, no period). */
  readonly defaultPeriod: Period | null;
}

/** The API and the CLI: up to 100,000 records, no period unless asked. */
export const API_QUERY_LIMITS: QueryLimits = Object.freeze({ maxLimit: 100_000, defaultLimit: 100, defaultPeriod: null });

const given = (src: QuerySource, field: QueryField): string | undefined => {
  const v = src.value(field);
  return v === undefined || v === '' ? undefined : v;
};

function date(src: QuerySource, field: 'since' | 'until', problems: string[]): string | undefined {
  const raw = given(src, field);
  if (raw === undefined) return undefined;
  const t = Date.parse(raw);
  if (Number.isNaN(t)) {
    problems.push(M.notADate(src.label(field), raw));
    return undefined;
  }
  return new Date(t).toISOString();
}

/** The company and the time range every query has. */
export function readRange(src: QuerySource, problems: string[]): { company?: string; since?: string; until?: string } {
  const company = given(src, 'company');
  const since = date(src, 'since', problems);
  const until = date(src, 'until', problems);
  return { ...(company !== undefined ? { company } : {}), ...(since !== undefined ? { since } : {}), ...(until !== undefined ? { until } : {}) };
}

/** A page mark as the console hands it out (base64url of the last record's sort key). */
export function encodeCursor(cursor: LogsCursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function cursor(src: QuerySource, problems: string[]): LogsCursor | undefined {
  const raw = given(src, 'after');
  if (raw === undefined) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as LogsCursor;
    if (typeof parsed.time === 'string' && typeof parsed.request_id === 'string' && typeof parsed.cost_micros === 'number') return parsed;
  } catch {
    // Falls through to the problem below.
  }
  problems.push(M.badCursor(src.label('after')));
  return undefined;
}

export function readLogsQuery(src: QuerySource, problems: string[], limits: QueryLimits = API_QUERY_LIMITS): LogsQuery {
  const range = readRange(src, problems);
  const limitRaw = given(src, 'limit');
  const limit = limitRaw === undefined ? limits.defaultLimit : Number(limitRaw);
  if (!Number.isInteger(limit) || limit < 1 || limit > limits.maxLimit) problems.push(M.badLimit(src.label('limit'), limits.maxLimit));
  const order = given(src, 'order') ?? 'time';
  if (order !== 'time' && order !== 'cost') problems.push(M.badOrder(src.label('order')));
  const address = given(src, 'address');
  const model = given(src, 'model');
  const after = cursor(src, problems);
  return {
    ...range,
    limit,
    order: order === 'cost' ? 'cost' : 'time',
    ...(address !== undefined ? { address } : {}),
    ...(model !== undefined ? { model } : {}),
    ...(after !== undefined ? { after } : {}),
  };
}

export function readReportQuery(src: QuerySource, problems: string[], limits: QueryLimits = API_QUERY_LIMITS): ReportQuery {
  const range = readRange(src, problems);
  const groupBy = (given(src, 'groupBy') ?? 'address') as ReportGroup;
  if (!REPORT_GROUPS.includes(groupBy)) problems.push(M.oneOf(src.label('groupBy'), REPORT_GROUPS));
  const periodRaw = given(src, 'period');
  const period = (periodRaw ?? limits.defaultPeriod ?? undefined) as Period | undefined;
  if (period !== undefined && !PERIODS.includes(period)) problems.push(M.oneOf(src.label('period'), PERIODS));
  return { ...range, groupBy, ...(period !== undefined ? { period } : {}) };
}

/** A source over URL query parameters, with the names this caller uses. */
export function searchParamsSource(params: URLSearchParams, names: Partial<Record<QueryField, string>> = {}): QuerySource {
  const name = (field: QueryField): string => names[field] ?? API_QUERY_PARAMS[field];
  return { value: (field) => params.get(name(field)) ?? undefined, label: (field) => `"${name(field)}"` };
}
