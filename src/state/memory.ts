import type { UsageRecord } from '../metering/usage-record.js';
import { MemoryCallerSlots } from './memory/caller-slots.js';
import { MemoryCompanyWriter } from './memory/company-writer.js';
import { MemoryCredentialHealth } from './memory/credential-health.js';
import { MemoryCredentialLeases } from './memory/credential-leases.js';
import { MemorySpendLedger } from './memory/spend-ledger.js';
import { MemoryStore } from './memory/store.js';
import { MemoryTokenDirectory } from './memory/token-directory.js';
import { MemoryUsageLog } from './memory/usage-log.js';
import type { LogQuery, UsageQuery, UsageTotals } from './queries.js';
import type { CompanyRecords, TokenRecord } from './records.js';
import type { CallerSlotRequest, CredentialHealth, GatewayState, Lease, LeaseOutcome, LeaseRequest, RevokedToken, SeatWindow, SpendCheck, SpendOutcome, SpendSettlement, WriteFence } from './state.js';
import type { UsageSource } from './usage-source.js';

export interface MemoryStateOptions {
  readonly now?: () => number;
  /** Global bound of the usage records held, in bytes (GW_USAGE_MEMORY_MB). */
  readonly usageMemoryBytes?: number;
  /** Called for each record given up to stay within the bound (oldest first). */
  readonly onUsageDropped?: (record: UsageRecord) => void;
  /** A settlement pushed a spend counter further past its limit (the metered cost beyond the reservation), by `micros`. */
  readonly onSpendOvershoot?: (company: string, micros: number, requestId: string) => void;
}

/**
 * All state in this process: the one-machine gateway and the contract
 * suite's reference. Each role lives in its own file under memory/, over
 * one MemoryStore for what the roles share; this class only puts them
 * together.
 */
export class MemoryState implements GatewayState {
  readonly kind = 'memory' as const;
  private readonly directory: MemoryTokenDirectory;
  private readonly slots: MemoryCallerSlots;
  private readonly leases: MemoryCredentialLeases;
  private readonly health: MemoryCredentialHealth;
  private readonly spend = new MemorySpendLedger();
  private readonly usage: MemoryUsageLog;
  private readonly writer: MemoryCompanyWriter;

  /** Called after each new record (the in-process exporter looks at once). */
  onRecorded: (() => void) | null = null;
  private readonly onSpendOvershoot: MemoryStateOptions['onSpendOvershoot'];

  constructor(options: MemoryStateOptions | (() => number) = {}) {
    const o = typeof options === 'function' ? { now: options } : options;
    const store = new MemoryStore(o.now ?? Date.now);
    this.directory = new MemoryTokenDirectory(store);
    this.slots = new MemoryCallerSlots(store.now);
    this.leases = new MemoryCredentialLeases(store);
    this.health = new MemoryCredentialHealth(store);
    this.usage = new MemoryUsageLog(store, o.usageMemoryBytes, o.onUsageDropped, () => this.onRecorded?.());
    this.writer = new MemoryCompanyWriter(store);
    this.onSpendOvershoot = o.onSpendOvershoot;
  }

  findToken(hash: string): Promise<TokenRecord | null> {
    return this.directory.findToken(hash);
  }

  getCompany(company: string): Promise<CompanyRecords | null> {
    return this.directory.getCompany(company);
  }

  loaded(): Promise<boolean> {
    return this.directory.loaded();
  }

  generation(): Promise<string | null> {
    return this.directory.generation();
  }

  acquireCallerSlot(request: CallerSlotRequest): Promise<boolean> {
    return this.slots.acquireCallerSlot(request);
  }

  renewCallerSlot(company: string, tokenHash: string, requestId: string, ttlMs: number): Promise<void> {
    return this.slots.renewCallerSlot(company, tokenHash, requestId, ttlMs);
  }

  releaseCallerSlot(company: string, tokenHash: string, requestId: string): Promise<void> {
    return this.slots.releaseCallerSlot(company, tokenHash, requestId);
  }

  acquireLease(request: LeaseRequest): Promise<LeaseOutcome> {
    return this.leases.acquireLease(request);
  }

  renewLease(lease: Lease, ttlMs: number): Promise<void> {
    return this.leases.renewLease(lease, ttlMs);
  }

  releaseLease(lease: Lease): Promise<void> {
    return this.leases.releaseLease(lease);
  }

  reserveSpend(company: string, requestId: string, checks: readonly SpendCheck[], amountMicros: number): Promise<SpendOutcome> {
    return this.spend.reserveSpend(company, requestId, checks, amountMicros);
  }

  releaseReservation(company: string, requestId: string, checks: readonly SpendCheck[]): Promise<void> {
    return this.spend.releaseReservation(company, requestId, checks);
  }

  spendOf(company: string, counter: string): Promise<number> {
    return this.spend.spendOf(company, counter);
  }

  credentialHealth(company: string, credential: string): Promise<CredentialHealth> {
    return this.health.credentialHealth(company, credential);
  }

  markCredentialUnhealthy(company: string, credential: string, reason: string): Promise<void> {
    return this.health.markCredentialUnhealthy(company, credential, reason);
  }

  markCredentialHealthy(company: string, credential: string): Promise<void> {
    return this.health.markCredentialHealthy(company, credential);
  }

  updateSeatWindows(company: string, credential: string, windows: readonly SeatWindow[]): Promise<void> {
    return this.health.updateSeatWindows(company, credential, windows);
  }

  async recordUsage(record: UsageRecord, spend?: SpendSettlement): Promise<void> {
    // One process, one copy: settled exactly when the record is new, as the Redis script does.
    if (!this.usage.addRecord(record) || !spend) return;
    const overshoot = this.spend.settle(record.company, record.request_id, spend);
    if (overshoot > 0) this.onSpendOvershoot?.(record.company, overshoot, record.request_id);
  }

  queryLogs(query: LogQuery): Promise<UsageRecord[]> {
    return this.usage.queryLogs(query);
  }

  queryUsage(query: UsageQuery): Promise<UsageTotals[]> {
    return this.usage.queryUsage(query);
  }

  usageDropped(company: string | undefined): Promise<number> {
    return this.usage.usageDropped(company);
  }

  /** Every record held, oldest first. */
  usageRecords(): Iterable<UsageRecord> {
    return this.usage.records();
  }

  /** The records held as a source for the exporter: once stored in PostgreSQL they leave memory. */
  usageSource(): UsageSource {
    return this.usage.source();
  }

  /** Records the exporter set aside as unstorable (kept in memory, bounded, newest last). */
  usageSetAside(): ReadonlyArray<{ readonly record: UsageRecord; readonly reason: string }> {
    return this.usage.setAside();
  }

  replaceCompany(records: CompanyRecords, fence?: WriteFence): Promise<void> {
    return this.writer.replaceCompany(records, fence);
  }

  removeCompany(company: string, fence?: WriteFence): Promise<void> {
    return this.writer.removeCompany(company, fence);
  }

  listCompanies(): Promise<string[]> {
    return this.writer.listCompanies();
  }

  revokeTokens(revoked: readonly RevokedToken[]): Promise<void> {
    return this.writer.revokeTokens(revoked);
  }

  markLoaded(generation: string): Promise<void> {
    return this.writer.markLoaded(generation);
  }

  async close(): Promise<void> {
    this.slots.wakeAll();
  }
}
