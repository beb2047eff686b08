// Secret scanning of request bodies (spec 4.3): every credential found is
// replaced with `[REDACTED: <rule_id>]` and the request still goes out.
// Synchronous CPU work on the request path; no I/O, no logging (a finding
// carries the rule id and offsets, never the secret).
import { performance } from 'node:perf_hooks';
import { DEFAULT_BUDGET_MS, Redactor, type RedactionResult } from './redactor.js';
import { ALL_RULES } from './rules/index.js';
import type { Rule } from './rule.js';

export type { RedactionFinding, RedactionResult } from './redactor.js';
export type { MatchContext, Rule } from './rule.js';

export interface RedactOptions {
  /** Time budget for one call, in milliseconds (default 50). */
  budgetMs?: number;
}

export const RULES: readonly Rule[] = ALL_RULES;

// Built on first use: a process where no company scans never pays for the compiled rule tables.
let redactor: Redactor | null = null;
const scanner = (): Redactor => (redactor ??= new Redactor(RULES));
const clock = (): number => performance.now();

/**
 * Redacts an Anthropic Messages request body. Only the decoded text of JSON
 * strings is scanned (base64 image/document data is skipped) and only the
 * secret's raw bytes are replaced, with the JSON-escaped placeholder; every
 * other byte is kept. A body that is not valid JSON is scanned as text.
 */
export function redactJsonBody(body: Buffer, options?: RedactOptions): RedactionResult {
  return scanner().redactJsonBody(body, options?.budgetMs ?? DEFAULT_BUDGET_MS, clock);
}

/** Redacts plain text (any bytes; credentials are ASCII). */
export function redactText(text: Buffer, options?: RedactOptions): RedactionResult {
  return scanner().redactText(text, options?.budgetMs ?? DEFAULT_BUDGET_MS, clock);
}
