import type { UsageRecord } from '../metering/usage-record.js';
import { normalizeModelId } from '../models/normalize.js';

export interface LogQuery {
  company?: string;
  since?: string;
  address?: string;
  model?: string;
  limit?: number;
}

export const USAGE_GROUPS = ['address', 'model', 'repo', 'application', 'end_user'] as const;
export type UsageGroup = (typeof USAGE_GROUPS)[number];

export interface UsageQuery {
  company?: string;
  since?: string;
  groupBy: UsageGroup;
}

export interface UsageTotals {
  key: string | null;
  requests: number;
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  cost_usd: number;
}

export function emptyTotals(key: string | null): UsageTotals {
  return { key, requests: 0, input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, cost_usd: 0 };
}

export function addToTotals(totals: UsageTotals, record: UsageRecord): void {
  totals.requests++;
  totals.input_tokens += record.input_tokens;
  totals.output_tokens += record.output_tokens;
  totals.cache_creation_input_tokens += record.cache_creation_input_tokens;
  totals.cache_read_input_tokens += record.cache_read_input_tokens;
  totals.cost_usd = Math.round((totals.cost_usd + (record.cost_usd ?? 0)) * 1e6) / 1e6;
}

export function groupKey(record: UsageRecord, group: UsageGroup): string | null {
  const value = record[group];
  return typeof value === 'string' ? value : null;
}

/** A `--model` filter selects a model however it is spelled (spec §2.4), by its canonical id or as requested. */
export function sameModel(record: UsageRecord, model: string): boolean {
  const wanted = normalizeModelId(model);
  return (record.model !== null && normalizeModelId(record.model) === wanted) || (record.requested_model !== undefined && normalizeModelId(record.requested_model) === wanted);
}
