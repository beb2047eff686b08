import type { CredentialRecord } from './records.js';
import type { CredentialHealth, LeaseOutcome } from './state.js';

export interface CandidateLoad {
  readonly credential: CredentialRecord;
  readonly inUse: number;
  readonly health: CredentialHealth;
}

export type Choice = { readonly ok: true; readonly credential: CredentialRecord } | Exclude<LeaseOutcome, { ok: true }>;

/**
 * The pool rule, shared by every state implementation (the Redis Lua script
 * mirrors it and the contract suite holds both to it): skip unhealthy
 * credentials (the outcome names them when nothing else is left) and seats inside an exhausted window; keep a caller session on
 * the credential it used if that one has room (prompt caches keep hitting);
 * otherwise the highest priority, then the least loaded relative to its size.
 */
export function chooseCredential(loads: readonly CandidateLoad[], stickyName: string | null, now: number): Choice {
  let usable = 0;
  let earliestReset: number | null = null;
  let best: CandidateLoad | null = null;
  const rejected: string[] = [];
  for (const load of loads) {
    if (!load.health.healthy) {
      rejected.push(load.credential.name);
      continue;
    }
    const blockedUntil = exhaustedUntil(load.health, now);
    if (blockedUntil !== null) {
      if (earliestReset === null || blockedUntil < earliestReset) earliestReset = blockedUntil;
      continue;
    }
    usable++;
    if (load.inUse >= load.credential.maxConcurrency) continue;
    if (stickyName !== null && load.credential.name === stickyName) return { ok: true, credential: load.credential };
    if (best === null || better(load, best)) best = load;
  }
  if (best) return { ok: true, credential: best.credential };
  if (usable > 0) return { ok: false, reason: 'busy' };
  // Windows with no known reset block until MAX_SAFE_INTEGER, which is no instant to report (nor a valid Date).
  if (earliestReset !== null) return { ok: false, reason: 'exhausted', earliestReset: earliestReset >= Number.MAX_SAFE_INTEGER ? null : earliestReset };
  // Nothing busy and nothing waiting for a window: only rejected keys are left, and waiting frees none of them.
  if (rejected.length > 0) return { ok: false, reason: 'rejected', credentials: rejected };
  return { ok: false, reason: 'busy' };
}

function better(a: CandidateLoad, b: CandidateLoad): boolean {
  if (a.credential.priority !== b.credential.priority) return a.credential.priority > b.credential.priority;
  return a.inUse / a.credential.maxConcurrency < b.inUse / b.credential.maxConcurrency;
}

/** Epoch ms until which the credential's windows block it, or null if none does. */
export function exhaustedUntil(health: CredentialHealth, now: number): number | null {
  let until: number | null = null;
  for (const w of health.windows) {
    if (!w.exhausted) continue;
    // A window with no reset stays blocked until the upstream says otherwise.
    const reset = w.resetAt ?? Number.MAX_SAFE_INTEGER;
    if (reset <= now) continue;
    if (until === null || reset > until) until = reset;
  }
  return until;
}
