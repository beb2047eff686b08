import type { UsageRecord } from '../metering/usage-record.js';
import type { ReportRow } from './report.js';

export const LOG_CSV_COLUMNS = [
  'time',
  'request_id',
  'company',
  'address',
  'endpoint',
  'model',
  'provider',
  'provider_model',
  'credential',
  'status',
  'fault',
  'outcome',
  'stream',
  'input_tokens',
  'output_tokens',
  'cache_creation_input_tokens',
  'cache_read_input_tokens',
  'cost_usd',
  'duration_ms',
  'ttfb_ms',
  'repo',
  'application',
  'end_user',
] as const;

export const REPORT_CSV_COLUMNS = ['period', 'key', 'requests', 'input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens', 'cost_usd'] as const;

/** RFC 4180: quoted when it holds a comma, quote or line break; a leading =+-@ is quoted and prefixed so a spreadsheet never runs it. */
function field(value: unknown): string {
  if (value === undefined || value === null) return '';
  let text = typeof value === 'string' ? value : String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n']/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csv(columns: readonly string[], rows: readonly Record<string, unknown>[]): string {
  return [columns.join(','), ...rows.map((r) => columns.map((c) => field(r[c])).join(','))].join('\r\n') + '\r\n';
}

export function logsCsv(records: readonly UsageRecord[]): string {
  return csv(LOG_CSV_COLUMNS, records as unknown as Record<string, unknown>[]);
}

export function reportCsv(rows: readonly ReportRow[]): string {
  return csv(REPORT_CSV_COLUMNS, rows as unknown as Record<string, unknown>[]);
}
