import { createHash } from 'node:crypto';
import type { CredentialRecord } from '../state/records.js';
import type { CredentialHealthStore } from '../state/state.js';

/** What the provider said to the gateway's own minimal request with the key. */
export type KeyVerdict = 'accepted' | 'rejected' | 'inconclusive';
export interface KeyCheckResult {
  readonly verdict: KeyVerdict;
  /** The provider's status, or null when it could not be reached. */
  readonly status: number | null;
}
export type KeyCheck = (credential: CredentialRecord) => Promise<KeyCheckResult>;

export interface CredentialHealthEvents {
  /** The key check confirmed a rejection: the credential is now marked unhealthy. */
  confirmed(company: string, credential: string, status: number): void;
  /** A recovery probe found the key accepted again. */
  recovered(company: string, credential: string): void;
  /** A caller's 401/403 was not confirmed by the key check (the key is fine, or the check was inconclusive). */
  unconfirmed(company: string, credential: string, callerStatus: number, check: KeyCheckResult): void;
  error(operation: string, error: unknown): void;
}

export interface HealthMonitorOptions {
  /** At most one confirming check per credential within this window, whatever callers provoke. */
  readonly minCheckIntervalMs: number;
  /** First delay of the recovery probe; doubled after each rejection up to the maximum. */
  readonly probeInitialMs: number;
  readonly probeMaxMs: number;
}

export const DEFAULT_HEALTH_MONITOR_OPTIONS: HealthMonitorOptions = Object.freeze({
  minCheckIntervalMs: 10_000,
  probeInitialMs: 15_000,
  probeMaxMs: 15 * 60_000,
});

interface Probe {
  timer: NodeJS.Timeout;
  delayMs: number;
}

/**
 * Credential health changes only on evidence about the key itself (DESIGN §5).
 * A provider 401/403 to a caller's request can be provoked by the request
 * (its headers, its beta flags, its body), so it is only a suspicion: the
 * monitor then asks the provider with a minimal request of its own and marks
 * the credential unhealthy only when that is refused too. A rejected key is
 * probed again with backoff and comes back by itself once the provider
 * accepts it, on every replica that still sees it rejected.
 */
export class CredentialHealthMonitor {
  private readonly lastCheck = new Map<string, number>();
  private readonly checking = new Set<string>();
  private readonly probes = new Map<string, Probe>();
  private closed = false;

  constructor(
    private readonly state: CredentialHealthStore,
    private readonly check: KeyCheck,
    private readonly events: CredentialHealthEvents,
    private readonly options: HealthMonitorOptions = DEFAULT_HEALTH_MONITOR_OPTIONS,
    private readonly now: () => number = Date.now,
  ) {}

  suspect(credential: CredentialRecord, status: number): void {
    const key = keyOf(credential);
    if (this.closed || this.checking.has(key) || this.probes.has(key)) return;
    const last = this.lastCheck.get(key);
    if (last !== undefined && this.now() - last < this.options.minCheckIntervalMs) return;
    this.lastCheck.set(key, this.now());
    this.checking.add(key);
    void this.confirm(credential, status)
      .catch((error: unknown) => this.events.error('credential key check', error))
      .finally(() => this.checking.delete(key));
  }

  rejectedInUse(credentials: readonly CredentialRecord[]): void {
    for (const credential of credentials) this.scheduleProbe(credential, this.options.probeInitialMs);
  }

  /** Probes in flight or scheduled (for tests and the closing note's numbers). */
  probing(): number {
    return this.probes.size;
  }

  close(): void {
    this.closed = true;
    for (const probe of this.probes.values()) clearTimeout(probe.timer);
    this.probes.clear();
  }

  private async confirm(credential: CredentialRecord, callerStatus: number): Promise<void> {
    const result = await this.check(credential);
    if (result.verdict !== 'rejected') {
      this.events.unconfirmed(credential.company, credential.name, callerStatus, result);
      return;
    }
    await this.state.markCredentialUnhealthy(credential.company, credential.name, `provider answered ${result.status} to the gateway's key check`);
    this.events.confirmed(credential.company, credential.name, result.status ?? callerStatus);
    this.scheduleProbe(credential, this.options.probeInitialMs);
  }

  private scheduleProbe(credential: CredentialRecord, delayMs: number): void {
    const key = keyOf(credential);
    if (this.closed || this.probes.has(key)) return;
    const timer = setTimeout(() => {
      void this.probe(credential, key, delayMs).catch((error: unknown) => {
        this.events.error('credential recovery probe', error);
        this.reschedule(credential, key, delayMs);
      });
    }, delayMs);
    timer.unref();
    this.probes.set(key, { timer, delayMs });
  }

  private async probe(credential: CredentialRecord, key: string, delayMs: number): Promise<void> {
    // Recovered elsewhere (another replica, or the Secret changed and reconcile cleared it): nothing to do.
    const health = await this.state.credentialHealth(credential.company, credential.name);
    if (health.healthy) {
      this.probes.delete(key);
      return;
    }
    const result = await this.check(credential);
    if (result.verdict === 'accepted') {
      this.probes.delete(key);
      await this.state.markCredentialHealthy(credential.company, credential.name);
      this.events.recovered(credential.company, credential.name);
      return;
    }
    this.reschedule(credential, key, result.verdict === 'rejected' ? Math.min(delayMs * 2, this.options.probeMaxMs) : delayMs);
  }

  private reschedule(credential: CredentialRecord, key: string, delayMs: number): void {
    this.probes.delete(key);
    this.scheduleProbe(credential, delayMs);
  }
}

/** A rotated key is a different key: its own checks and probes. The digest keeps the secret out of the map. */
function keyOf(credential: CredentialRecord): string {
  const digest = createHash('sha256').update(credential.secret).digest('base64url').slice(0, 16);
  return `${credential.company}\u0000${credential.name}\u0000${digest}`;
}
