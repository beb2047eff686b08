import type { UsageRecord } from '../metering/usage-record.js';
import type { FoldedReport, ReportRow } from './report-row.js';
import { sameModel } from '../state/queries.js';

/**
 * The questions a finance team asks of Usage and Logs, answered the same way
 * by every store: totals grouped by one dimension, optionally per day, week
 * (starting Monday) or month in the company's time zone, and the most
 * expensive requests.
 */
export const REPORT_GROUPS = ['address', 'model', 'provider', 'repo', 'application', 'end_user'] as const;
export type ReportGroup = (typeof REPORT_GROUPS)[number];

export const PERIODS = ['day', 'week', 'month'] as const;
export type Period = (typeof PERIODS)[number];

export interface ReportQuery {
  readonly company?: string;
  /** ISO date-time, inclusive. */
  readonly since?: string;
  /** ISO date-time, exclusive. */
  readonly until?: string;
  readonly groupBy: ReportGroup;
  readonly period?: Period;
}

export interface LogsQuery {
  readonly company?: string;
  readonly since?: string;
  readonly until?: string;
  readonly address?: string;
  readonly model?: string;
  readonly limit: number;
  /** `time`: newest first (Logs); `cost`: most expensive first. */
  readonly order: 'time' | 'cost';
  /** Keyset paging: only records after this one in `order` (the last record of the page before). */
  readonly after?: LogsCursor;
}

/** Where a page of Logs ended: the last record's sort key, whatever the order. */
export interface LogsCursor {
  readonly time: string;
  readonly request_id: string;
  readonly cost_micros: number;
}

export function cursorOf(record: UsageRecord): LogsCursor {
  return { time: record.time, request_id: record.request_id, cost_micros: costMicros(record) };
}

export type { ReportRow } from './report-row.js';

/** What a store answers, and how many older records it no longer holds (never hidden). */
export interface Answer<T> {
  readonly data: T;
  readonly droppedRecords: number;
}

/** Reads Usage and Logs: PostgreSQL when configured, else the gateway state (Redis or memory). */
/** The store behind a UsageReader cannot answer now (not created yet, or out of reach); the reason is safe to show. */
export class UsageStoreUnavailable extends Error {
  constructor(readonly reason: string) {
    super(`the usage store cannot answer: ${reason}`);
  }
}

export interface UsageReader {
  logs(query: LogsQuery): Promise<Answer<UsageRecord[]>>;
  report(query: ReportQuery): Promise<Answer<ReportRow[]>>;
  /**
   * The console's folded report (top-groups.ts), when the store can compute it without reading every group out;
   * it must equal foldGroups(report(query), top).
   */
  reportFolded?(query: ReportQuery, top: number): Promise<Answer<FoldedReport>>;
}

/** Cost in whole micro-dollars: every store sums integers, so every store gives the same total. */
export function costMicros(record: Pick<UsageRecord, 'cost_usd'>): number {
  return Math.round((record.cost_usd ?? 0) * 1e6);
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar day of `time` in `timeZone`, as YYYY-MM-DD. */
export function localDay(time: string, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  return format.format(new Date(time));
}

/** First day of the period holding `time`, in `timeZone` (weeks start on Monday, as ISO weeks do). */
export function periodStart(time: string, period: Period, timeZone: string): string {
  const day = localDay(time, timeZone);
  if (period === 'day') return day;
  if (period === 'month') return `${day.slice(0, 8)}01`;
  const d = new Date(`${day}T00:00:00Z`);
  const back = (d.getUTCDay() + 6) % 7;
  return new Date(d.getTime() - back * 86_400_000).toISOString().slice(0, 10);
}

function groupValue(record: UsageRecord, group: ReportGroup): string | null {
  const value = record[group];
  return typeof value === 'string' ? value : null;
}

/** Code-point order with null last: the order PostgreSQL gives under COLLATE "C" with NULLS LAST. */
export function compareKeys(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}

/** Periods oldest first; within one, the most expensive first, then most requests, then by key. */
export function compareRows(a: ReportRow, b: ReportRow): number {
  if (a.period !== b.period) return (a.period ?? '') < (b.period ?? '') ? -1 : 1;
  return b.cost_usd - a.cost_usd || b.requests - a.requests || compareKeys(a.key, b.key);
}

/** Most expensive first, newest first among equals, then by request id: the same order in every store. */
export function compareByCost(a: UsageRecord, b: UsageRecord): number {
  return costMicros(b) - costMicros(a) || (a.time < b.time ? 1 : a.time > b.time ? -1 : 0) || (a.request_id < b.request_id ? -1 : a.request_id > b.request_id ? 1 : 0);
}

export function compareByTime(a: UsageRecord, b: UsageRecord): number {
  return (a.time < b.time ? 1 : a.time > b.time ? -1 : 0) || (a.request_id < b.request_id ? -1 : a.request_id > b.request_id ? 1 : 0);
}

export function inRange(record: UsageRecord, since: string | undefined, until: string | undefined): boolean {
  const t = Date.parse(record.time);
  return (since === undefined || t >= Date.parse(since)) && (until === undefined || t < Date.parse(until));
}

/** The report over records a store holds in memory (memory state, a Redis stream). */
export function reportOf(records: Iterable<UsageRecord>, query: ReportQuery, timeZoneOf: (company: string) => string): ReportRow[] {
  const rows = new Map<string, ReportRow & { micros: number }>();
  for (const record of records) {
    if (query.company !== undefined && record.company !== query.company) continue;
    if (!inRange(record, query.since, query.until)) continue;
    const key = groupValue(record, query.groupBy);
    const period = query.period === undefined ? undefined : periodStart(record.time, query.period, timeZoneOf(record.company));
    const id = `${period ?? ''}\u0000${key === null ? '\u0001' : `=${key}`}`;
    let row = rows.get(id);
    if (!row) {
      row = { ...(period !== undefined ? { period } : {}), key, requests: 0, input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, cost_usd: 0, micros: 0 };
      rows.set(id, row);
    }
    row.requests++;
    row.input_tokens += record.input_tokens;
    row.output_tokens += record.output_tokens;
    row.cache_creation_input_tokens += record.cache_creation_input_tokens;
    row.cache_read_input_tokens += record.cache_read_input_tokens;
    row.micros += costMicros(record);
  }
  const out: ReportRow[] = [];
  for (const { micros, ...row } of rows.values()) out.push({ ...row, cost_usd: micros / 1e6 });
  return out.sort(compareRows);
}

/** Logs over records held in memory, filtered and ordered as every store does. */
export function logsOf(records: Iterable<UsageRecord>, query: LogsQuery): UsageRecord[] {
  const out: UsageRecord[] = [];
  for (const record of records) {
    if (query.company !== undefined && record.company !== query.company) continue;
    if (!inRange(record, query.since, query.until)) continue;
    if (query.address !== undefined && record.address !== query.address) continue;
    if (query.model !== undefined && !sameModel(record, query.model)) continue;
    if (query.after !== undefined && !isAfter(record, query.after, query.order)) continue;
    out.push(record);
  }
  out.sort(query.order === 'cost' ? compareByCost : compareByTime);
  return out.slice(0, query.limit);
}

/** Whether `record` comes after the cursor in the order the logs are listed (the same comparison as the sort). */
export function isAfter(record: UsageRecord, cursor: LogsCursor, order: 'time' | 'cost'): boolean {
  const at = { time: cursor.time, request_id: cursor.request_id, cost_usd: cursor.cost_micros / 1e6 } as UsageRecord;
  return (order === 'cost' ? compareByCost(record, at) : compareByTime(record, at)) > 0;
}
