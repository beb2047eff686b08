import type { CompanyRecords, TokenRecord } from '../records.js';
import type { CredentialHealth } from '../state.js';

/** A credential nothing was learned about yet. */
export const HEALTHY: CredentialHealth = Object.freeze({ healthy: true, reason: null, windows: Object.freeze([]) });

/**
 * What more than one role of the memory state reads or writes: the
 * writer's picture (companies, live tokens, generation mark) and what is
 * known of each credential (leasing reads it; a rewritten or removed
 * company clears it).
 */
export class MemoryStore {
  readonly companies = new Map<string, CompanyRecords>();
  readonly tokens = new Map<string, TokenRecord>();
  /** By credentialKey(company, credential). */
  readonly health = new Map<string, CredentialHealth>();
  generation: string | null = null;

  constructor(readonly now: () => number) {}
}

export function credentialKey(company: string, credential: string): string {
  return `${company}\u0000${credential}`;
}
