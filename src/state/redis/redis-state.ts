import { Cluster } from 'ioredis';
import type { UsageRecord } from '../../metering/usage-record.js';
import type { LogQuery, UsageQuery, UsageTotals } from '../queries.js';
import type { CompanyRecords, TokenRecord } from '../records.js';
import type { SecretBox } from '../secret-box.js';
import type {
  CallerSlotRequest,
  CredentialHealth,
  GatewayState,
  Lease,
  LeaseOutcome,
  LeaseRequest,
  RevokedToken,
  SeatWindow,
  SpendCheck,
  SpendOutcome,
  SpendSettlement,
  WriteFence,
} from '../state.js';
import { RedisCallerSlots } from './caller-slots.js';
import { clusterSlot } from './cluster-slot.js';
import { RedisCompanyWriter } from './company-writer.js';
import type { RedisClient } from './connect.js';
import { RedisCredentialHealth } from './credential-health.js';
import { RedisCredentialLeases } from './credential-leases.js';
import { defineScripts } from './script-runners.js';
import { RedisSpendLedger } from './spend-ledger.js';
import type { UnreadableListener } from '../record-version.js';
import { keys } from './keys.js';
import { RedisTokenDirectory } from './token-directory.js';
import { RedisUsageLog, type RedisUsageOptions } from './usage-log.js';

export interface RedisStateOptions extends RedisUsageOptions {
  readonly now?: () => number;
  /** Told of every record of a newer schema (or a broken one) this process met; the read itself fails closed. */
  readonly onUnreadableRecord?: UnreadableListener;
  /** A request refused because the state has not been re-applied since a failover. */
  readonly onGateRefused?: () => void;
  /** The writer re-applied the state after a failover: requests are served again. */
  readonly onGateOpened?: () => void;
  /**
   * Cluster: a token lookup was answered by another node than the slot's primary when it was sent (the client
   * followed a MOVED redirect, as after a promotion). Called before the lookup fails, so the failover watch can
   * compare the slot map and close the gate in this tick, before the next lookup reaches the promoted node.
   */
  readonly onSlotMoved?: () => void;
}

/** Thrown by token lookups between a failover and the writer's next complete picture (fails closed as 503). */
export class FailoverGateClosed extends Error {}

/**
 * GatewayState shared by every gateway process through one Redis (or Redis
 * Cluster). Each role lives in its own file over the one connection and
 * its scripts (token-directory, caller-slots, credential-leases,
 * credential-health, spend-ledger, usage-log, company-writer); this class
 * only puts them together.
 */
export class RedisState implements GatewayState {
  readonly kind = 'redis' as const;
  private readonly directory: RedisTokenDirectory;
  private readonly slots: RedisCallerSlots;
  private readonly leases: RedisCredentialLeases;
  private readonly health: RedisCredentialHealth;
  private readonly spend: RedisSpendLedger;
  private readonly usage: RedisUsageLog;
  private readonly writer: RedisCompanyWriter;
  private readonly usageConnection: RedisClient | null;
  private gateBelow: string | null = null;
  private suspended = false;
  /** Counts every closing of the gate (a failover seen, a reconnect suspected): a lookup that spans one is not trusted. */
  private gateClosures = 0;

  constructor(
    private readonly redis: RedisClient,
    box: SecretBox,
    private readonly options: RedisStateOptions = {},
  ) {
    const now = options.now ?? Date.now;
    const run = defineScripts(redis);
    this.directory = new RedisTokenDirectory(redis, box, options.onUnreadableRecord);
    this.slots = new RedisCallerSlots(redis, run, now);
    this.leases = new RedisCredentialLeases(redis, run, now);
    this.health = new RedisCredentialHealth(redis);
    this.spend = new RedisSpendLedger(redis, run);
    this.usage = new RedisUsageLog(redis, run, options);
    this.usageConnection = options.confirm?.connection ?? null;
    this.writer = new RedisCompanyWriter(redis, run, box, this.directory);
  }

  /** Resolves once connected (or rejects after `timeoutMs`). */
  async ready(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.redis.status !== 'ready' || (this.usageConnection !== null && this.usageConnection.status !== 'ready')) {
      if (Date.now() > deadline) throw new Error(`Redis not reachable within ${timeoutMs} ms (status ${this.redis.status})`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  async findToken(hash: string): Promise<TokenRecord | null> {
    if (this.suspended) {
      this.options.onGateRefused?.();
      throw new FailoverGateClosed('reconnected to Redis: checking whether the primary changed');
    }
    if (this.gateBelow !== null) await this.passGate();
    const closures = this.gateClosures;
    // Cluster: a MOVED redirect is followed inside the client and changes its slot map before any refresh event.
    const slot = this.redis instanceof Cluster ? clusterSlot(keys.token(hash)) : -1;
    const before = slot === -1 ? undefined : (this.redis as Cluster).slots[slot]?.[0];
    const found = await this.directory.findToken(hash);
    // A lookup sent to the old primary may have been answered by the promoted one, which can lack a tombstone the
    // old one acknowledged: the client resends what was unanswered when the connection moved, and follows a MOVED
    // redirect to the promoted node. If the gate closed meanwhile, or the key's slot changed node, it is not trusted.
    if (slot !== -1 && (this.redis as Cluster).slots[slot]?.[0] !== before) {
      // The watch compares the slot map in this tick and closes the gate before the next lookup reaches the promoted node.
      this.options.onSlotMoved?.();
      this.options.onGateRefused?.();
      throw new FailoverGateClosed('the token lookup was answered by another Redis node: checking for a failover');
    }
    if (this.gateClosures !== closures) {
      this.options.onGateRefused?.();
      throw new FailoverGateClosed('the Redis primary changed while the token was looked up');
    }
    return found;
  }

  /**
   * After a failover the new primary may lack revocation tombstones the old
   * one had acknowledged. Until the writer has written a complete picture
   * again (a generation mark newer than `generation`, the last one seen on
   * the old primary), no token is looked up: requests fail closed with 503
   * `unavailable`, never 401 for a valid token, never 200 for a revoked one.
   */
  closeUntilNewerThan(generation: string | null): void {
    this.gateBelow = generation ?? '';
    this.gateClosures++;
  }

  /** A reconnect may have reached another primary: refuse lookups until the failover watch has looked (or lift that). */
  suspend(suspended: boolean): void {
    this.suspended = suspended;
    if (suspended) this.gateClosures++;
  }

  /** True while requests are refused after a failover. */
  gateClosed(): boolean {
    return this.gateBelow !== null;
  }

  private async passGate(): Promise<void> {
    const below = this.gateBelow as string;
    const now = await this.directory.generation();
    // Marks begin with the writer's ISO time, so a later picture sorts after.
    if (now !== null && now > below) {
      this.gateBelow = null;
      this.options.onGateOpened?.();
      return;
    }
    this.options.onGateRefused?.();
    throw new FailoverGateClosed('the writer has not re-applied the state since the Redis failover');
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

  recordUsage(record: UsageRecord, spend?: SpendSettlement): Promise<void> {
    return this.usage.recordUsage(record, spend);
  }

  /** Records waiting for Redis to come back. */
  bufferedRecords(): number {
    return this.usage.bufferedRecords();
  }

  /** Records written but not yet known to be on a replica. */
  heldRecords(): number {
    return this.usage.heldRecords();
  }

  /** A failover was seen: restore and confirm the held records now. */
  expediteConfirmation(): void {
    this.usage.expediteConfirmation();
  }

  /** Every confirmation round now (tests). */
  confirmNow(): Promise<void> {
    return this.usage.confirmNow();
  }

  /** Writes the records buffered while Redis was away (run when it is back). */
  flush(): Promise<void> {
    return this.usage.flush();
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
    await this.usage.close();
    this.redis.disconnect();
    this.usageConnection?.disconnect();
  }
}
