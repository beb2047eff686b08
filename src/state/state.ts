import type { UsageRecord } from '../metering/usage-record.js';
import type { CompanyRecords, CredentialRecord, TokenRecord } from './records.js';
import type { LogQuery, UsageQuery, UsageTotals } from './queries.js';

/** The leadership epoch of the writer (the Lease's transition count for the operator). */
export interface WriteFence {
  readonly epoch: number;
}

/** A writer of a newer epoch has written here: this writer lost its leadership and must stop. */
export class FencedWrite extends Error {
  constructor(
    readonly epoch: number,
    readonly current: number,
  ) {
    super(`write refused: epoch ${epoch} is older than ${current} (another leader has written since)`);
  }
}

export interface RevokedToken {
  readonly hash: string;
  readonly company: string;
  readonly name: string;
}

/** A credential lease held for the length of one request. */
export interface Lease {
  readonly id: string;
  readonly company: string;
  readonly credential: CredentialRecord;
}

export interface LeaseRequest {
  readonly company: string;
  /** Candidates already filtered by provider, model and health, best priority first. */
  readonly candidates: readonly CredentialRecord[];
  /** Sticky key (caller session) or null. */
  readonly session: string | null;
  readonly requestId: string;
  readonly ttlMs: number;
}

export type LeaseOutcome =
  | { readonly ok: true; readonly lease: Lease }
  | { readonly ok: false; readonly reason: 'busy' }
  /** Every candidate is marked unhealthy (its key was rejected on the gateway's key check); names them. */
  | { readonly ok: false; readonly reason: 'rejected'; readonly credentials: readonly string[] }
  | { readonly ok: false; readonly reason: 'exhausted'; readonly earliestReset: number | null };

export interface SeatWindow {
  /** `5h` or `7d`. */
  readonly window: string;
  readonly exhausted: boolean;
  readonly utilization: number | null;
  /** Epoch ms of the reset the upstream gave. */
  readonly resetAt: number | null;
}

export interface CredentialHealth {
  readonly healthy: boolean;
  readonly reason: string | null;
  readonly windows: readonly SeatWindow[];
}

/** One spend counter a request must fit under (ids are company-relative; the state adds the company). */
export interface SpendCheck {
  readonly counter: string;
  readonly limitMicros: number;
  /** Epoch ms of the window's real reset; counters expire after it. */
  readonly resetAt: number;
  /** For the 402 message. */
  readonly label: string;
}

export type SpendOutcome = { readonly ok: true } | { readonly ok: false; readonly failed: SpendCheck };

/**
 * A request's spend, settled with its usage record in the same write: the
 * reservation it still holds in `checks` is replaced by `actualMicros`,
 * once per request id however often the record is written.
 */
export interface SpendSettlement {
  readonly checks: readonly SpendCheck[];
  readonly actualMicros: number;
}

export interface CallerSlotRequest {
  readonly company: string;
  readonly tokenHash: string;
  readonly limit: number;
  readonly requestId: string;
  readonly ttlMs: number;
  /** How long to wait for a slot to free before giving up. */
  readonly waitMs: number;
}

/**
 * What the data plane reads of the writer's picture: tokens, company
 * records, and whether the picture is complete.
 */
export interface TokenDirectory {
  findToken(hash: string): Promise<TokenRecord | null>;
  getCompany(company: string): Promise<CompanyRecords | null>;
  /**
   * Whether the state holds a complete picture written by its writer. False
   * after a data loss (e.g. a flushed Redis) until the writer rebuilt it: a
   * token missing then is not known to be dead, so it is not a 401.
   */
  loaded(): Promise<boolean>;
  /** The writer's mark of a complete picture, or null when there is none (never written, or lost). */
  generation(): Promise<string | null>;
}

/** Per-token concurrency: one slot per request in flight, held under a TTL the request renews. */
export interface CallerSlots {
  acquireCallerSlot(request: CallerSlotRequest): Promise<boolean>;
  renewCallerSlot(company: string, tokenHash: string, requestId: string, ttlMs: number): Promise<void>;
  releaseCallerSlot(company: string, tokenHash: string, requestId: string): Promise<void>;
}

/** Per-credential concurrency and session stickiness: one lease per request on the credential chosen. */
export interface CredentialLeases {
  acquireLease(request: LeaseRequest): Promise<LeaseOutcome>;
  renewLease(lease: Lease, ttlMs: number): Promise<void>;
  releaseLease(lease: Lease): Promise<void>;
}

/** What is known of each credential: whether its key is accepted, and its seat windows. */
export interface CredentialHealthStore {
  credentialHealth(company: string, credential: string): Promise<CredentialHealth>;
  markCredentialUnhealthy(company: string, credential: string, reason: string): Promise<void>;
  /** The key is accepted again (a recovery probe succeeded); seat windows are kept. */
  markCredentialHealthy(company: string, credential: string): Promise<void>;
  updateSeatWindows(company: string, credential: string, windows: readonly SeatWindow[]): Promise<void>;
}

/** Spend counters per company and window, reserved before a request and settled after it. */
export interface SpendLedger {
  /** Atomically add `amountMicros` to every counter if none would pass its limit, held as `requestId`'s reservation. */
  reserveSpend(company: string, requestId: string, checks: readonly SpendCheck[], amountMicros: number): Promise<SpendOutcome>;
  /** Give `requestId`'s reservation back (the request was not forwarded); a no-op when it is gone. Settling with a usage record is recordUsage's. */
  releaseReservation(company: string, requestId: string, checks: readonly SpendCheck[]): Promise<void>;
  spendOf(company: string, counter: string): Promise<number>;
}

/** The data plane's side of usage: one record per finished request. */
export interface UsageRecorder {
  /**
   * Idempotent by request_id: a second write of the same id changes nothing.
   * With `spend`, the first write also settles the request's spend.
   */
  recordUsage(record: UsageRecord, spend?: SpendSettlement): Promise<void>;
}

/** Usage as this state holds it, for the readers (gw logs / gw usage without a usage store). */
export interface UsageLog {
  queryLogs(query: LogQuery): Promise<UsageRecord[]>;
  queryUsage(query: UsageQuery): Promise<UsageTotals[]>;
  /** Usage records of `company` (or all) this state no longer holds and never handed on: said, never hidden. */
  usageDropped(company: string | undefined): Promise<number>;
}

/** The writer's side (reconcile: the operator, or gw serve applying its file). */
export interface CompanyWriter {
  /**
   * Replace everything one company has. With a fence, the write is refused
   * (FencedWrite) when a writer of a newer leadership epoch has written this
   * company already.
   */
  replaceCompany(records: CompanyRecords, fence?: WriteFence): Promise<void>;
  /** Removes the company's records, its tokens and its runtime keys (usage history stays). */
  removeCompany(company: string, fence?: WriteFence): Promise<void>;
  listCompanies(): Promise<string[]>;
  /**
   * Revocation is monotonic: a revoked hash never authenticates again, and
   * no later replaceCompany (of any epoch or company) makes it live.
   */
  revokeTokens(revoked: readonly RevokedToken[]): Promise<void>;
  /** Marks the picture complete (see TokenDirectory.loaded). */
  markLoaded(generation: string): Promise<void>;
}

/**
 * The operator ↔ data-plane contract: every role above. One implementation
 * keeps everything in this process (gw serve on one machine); the Redis one
 * shares it between processes. A single contract test suite runs against
 * both. Callers declare the roles they use, not the whole of it.
 */
export interface GatewayState extends TokenDirectory, CallerSlots, CredentialLeases, CredentialHealthStore, SpendLedger, UsageRecorder, UsageLog, CompanyWriter {
  readonly kind: 'memory' | 'redis';
  close(): Promise<void>;
}
