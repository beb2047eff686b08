import type { UsageRecord } from './usage-record.js';

/** A stored record read back, or why it cannot be one (the reason names fields, never their content). */
export type ReadRecord = { readonly record: UsageRecord } | { readonly requestId: string | null; readonly reason: string };

const TOKEN_FIELDS = ['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'] as const;
const OPTIONAL_TEXT = ['model', 'provider', 'repo', 'application', 'end_user', 'requested_model'] as const;

/**
 * Parses a usage record's JSON as the data plane stored it and checks the
 * fields the durable store keeps in columns, so one malformed entry (written
 * by another version, by hand, or damaged) is told apart before it reaches
 * the store instead of failing a whole batch there.
 */
export function readUsageRecord(text: string): ReadRecord {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { requestId: null, reason: 'not JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { requestId: null, reason: 'not a JSON object' };
  const r = value as Record<string, unknown>;
  const requestId = typeof r.request_id === 'string' && r.request_id !== '' ? r.request_id : null;
  const reason = shapeProblem(r);
  return reason === null ? { record: value as UsageRecord } : { requestId, reason };
}

function shapeProblem(r: Record<string, unknown>): string | null {
  if (typeof r.request_id !== 'string' || r.request_id === '') return 'request_id is missing or not a string';
  if (typeof r.time !== 'string' || !Number.isFinite(Date.parse(r.time))) return 'time is missing or not a timestamp';
  if (typeof r.company !== 'string' || r.company === '') return 'company is missing or not a string';
  if (typeof r.address !== 'string') return 'address is missing or not a string';
  for (const f of TOKEN_FIELDS) if (!Number.isSafeInteger(r[f]) || (r[f] as number) < 0) return `${f} is not a non-negative integer`;
  for (const f of OPTIONAL_TEXT) if (r[f] !== undefined && r[f] !== null && typeof r[f] !== 'string') return `${f} is not a string`;
  if (r.cost_usd !== null && r.cost_usd !== undefined && (typeof r.cost_usd !== 'number' || !Number.isFinite(r.cost_usd))) return 'cost_usd is not a number';
  if (!Number.isInteger(r.status)) return 'status is not an integer';
  return null;
}
