import { createHash } from 'node:crypto';
import type { Logger } from '../observability/logger.js';
import { notReady, type ResourceCondition } from '../reconcile/conditions.js';
import { desiredState, GENERATED_TOKEN_KEY, generatedTokenSecretName, olderFirst } from '../reconcile/desired-records.js';
import type { Secret } from '../resources/types.js';
import type { CompanyRecords, CompanySettings } from '../state/records.js';
import { hashToken } from '../auth/token.js';
import { readSecretKey } from '../reconcile/secrets.js';
import { FencedWrite, type CompanyWriter, type CredentialHealthStore, type RevokedToken, type TokenDirectory } from '../state/state.js';
import { healthEvent, tokenGeneratedEvent, type EventRecorder } from './events.js';
import { addFinalizer, needsFinalizer, readyToRelease, releaseFinalizer } from './finalizers.js';
import { ensureGeneratedTokenSecret } from './generated-tokens.js';
import { generatedSecretOwnership, hasFinalizer, isDeleting, SECRET_LABEL, SECRET_LABEL_VALUE, SECRET_SELECTOR, type ClusterResource, type ClusterToken } from './kube-objects.js';
import { NamespaceTerminating, type KubeWriter, type TokenLookup } from './kube-writer.js';
import type { OperatorMetrics } from './operator-metrics.js';
import { resourceSetOf, snapshotOf, type ClusterView, type NamespaceSnapshot } from './snapshot.js';
import type { RevocationLedger } from './revocation-ledger.js';
import { StatusSync } from './status.js';

export interface ReconcilerDeps {
  readonly view: ClusterView;
  readonly writer: KubeWriter;
  /** Writes companies; reads back what it wrote and the health the data planes learned (for status). */
  readonly state: CompanyWriter & Pick<TokenDirectory, 'getCompany'> & Pick<CredentialHealthStore, 'credentialHealth'>;
  readonly events: EventRecorder;
  readonly metrics: OperatorMetrics;
  readonly logger: Logger;
  /** Asked before every write: a replica that lost the Lease stops writing mid-way. */
  readonly isLeader: () => boolean;
  /** This replica's leadership epoch (the Lease's transition count), carried by every Redis write. */
  readonly epoch: () => number;
  readonly ledger: RevocationLedger;
  /** Asks the API server (not the cache) whether a GatewayToken of this name exists. */
  readonly tokenExists: TokenLookup;
  /** True once every informer finished its first list: before, a missing object proves nothing. */
  readonly synced: () => boolean;
}

/** Thrown when leadership went away during a reconcile; the new leader redoes the namespace. */
export class NotLeader extends Error {}

/** Redis refused a write: a writer of epoch `current` wrote there (a takeover, or a Lease that was deleted and restarted its count). */
export class Fenced extends NotLeader {
  constructor(
    readonly current: number,
    message: string,
  ) {
    super(message);
  }
}

const ABSENT = 'absent';
const API_PARALLEL = 16;
/** API writes of one status pass at a time (finalizers, status): with two passes running, at most 16 beside the creates of a burst. */
const STATUS_PARALLEL = 8;

/** Runs `work` over `items`, at most `limit` at a time; the first failure fails the lot (after the others settle). */
async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const results = await Promise.allSettled(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * The hashes this namespace revokes: revoked and deleted tokens (deleting a
 * token revokes it). A token that never held its hash (a copy of one an
 * older live token elsewhere holds) revokes nothing: copying someone's hash
 * and deleting the copy must not kill their token.
 */
export function revocationsOf(snapshot: NamespaceSnapshot, view: ClusterView, written?: CompanyRecords): RevokedToken[] {
  const out: RevokedToken[] = [];
  for (const token of snapshot.tokens) {
    if (!token.spec.revoked && !isDeleting(token)) continue;
    let hash = token.spec.tokenHash;
    if (!hash) {
      const name = generatedTokenSecretName(token.metadata.name);
      const secret = snapshot.secrets.find((s) => s.metadata.name === name);
      let known: string | undefined;
      if (secret === undefined) {
        // Its Secret already collected (the token owns it): the hash we wrote for it, if any.
        known = written?.tokens.find((t) => t.name === token.metadata.name)?.hash;
      } else if (generatedSecretOwnership(secret, token) === 'ours') {
        const value = readSecretKey(snapshot.secrets, snapshot.namespace, name, GENERATED_TOKEN_KEY);
        if (value.ok) known = hashToken(value.value);
      }
      if (!known) continue;
      hash = known;
    }
    const heldByOlder = view.tokens().some((t) => t !== token && t.spec.tokenHash === hash && !t.spec.revoked && !isDeleting(t) && olderFirst(t, token) < 0);
    if (!heldByOlder) out.push({ hash, company: snapshot.namespace, name: token.metadata.name });
  }
  return out;
}

function digestOf(records: CompanyRecords | null): string {
  return records === null ? ABSENT : createHash('sha256').update(JSON.stringify(records)).digest('hex');
}

/** A condition computed by a reconcile, waiting to be written into status by `reportStatus`. */
interface PendingReport {
  readonly kind: ClusterResource['kind'];
  readonly name: string;
  readonly uid: string | undefined;
  readonly generation: number;
  readonly condition: ResourceCondition;
}

interface PendingReports {
  readonly entries: readonly PendingReport[];
  readonly company: CompanyRecords | null;
}

/**
 * Reconciles one namespace (one company), level-triggered and idempotent:
 * whatever event brought it here, it reads the whole namespace from the
 * informer caches, computes the records with desiredState (the function
 * `gw serve -f` runs over its file) and makes Redis, finalizers, generated
 * Secrets and status agree with them. Two passes, so Redis never waits for
 * the API server (a burst of creates would otherwise queue every token
 * behind a thousand finalizer and status patches):
 *
 * `reconcile` — the path to Redis:
 *   1. revocations (the durable ledger, then tombstones): revoked and deleted
 *      tokens, including tokens deleted before they carried our finalizer;
 *   2. generated token Secrets, so a new token is live in this same pass;
 *   3. the Redis write, fenced (revocations and deletions take effect here);
 *   4. finalizers released on deleted resources, only after that write;
 *   then it hands the conditions it computed to the second pass.
 * `reportStatus` — the API work, per namespace, bounded and debounced:
 *   5. the finalizer on every live resource that lacks it;
 *   6. status and Events: they report what is already true.
 */
export class NamespaceReconciler {
  /** What Redis holds per company, as far as this replica wrote it; a match skips the write. */
  private readonly written = new Map<string, string>();
  private readonly forced = new Set<string>();
  /** The settings last written per company: what stays in force when its GatewaySettings turns invalid. */
  private readonly settingsInForce = new Map<string, CompanySettings>();
  private readonly status: StatusSync;
  /** Per namespace, the conditions its last reconcile computed, until reportStatus has written them. */
  private readonly reports = new Map<string, PendingReports>();
  /** Resources whose finalizer patch was sent and whose cached copy does not show it yet: not patched twice. */
  private readonly finalizerSent = new Set<string>();
  /** The token records last written per company: where a deleted generated token's hash is found once its Secret is gone. */
  private readonly writtenRecords = new Map<string, CompanyRecords>();
  /** Tokens deleted before they carried our finalizer (no reconcile saw them Terminating): revoked by the next reconcile. */
  private readonly unguardedDeletions = new Map<string, ClusterToken[]>();

  constructor(private readonly deps: ReconcilerDeps) {
    this.status = new StatusSync(deps.writer);
  }

  /** The next reconcile of this namespace rewrites Redis even when nothing seems to have changed. */
  force(namespace: string): void {
    this.forced.add(namespace);
  }

  lastSettings(namespace: string): CompanySettings | undefined {
    return this.settingsInForce.get(namespace);
  }

  /** Forget what was written (a new term as leader: another replica may have written since). */
  forgetWrites(): void {
    this.written.clear();
    this.writtenRecords.clear();
    this.reports.clear();
    this.finalizerSent.clear();
    this.status.forgetAll();
  }

  /**
   * A GatewayToken left the cluster. With our finalizer on it, a reconcile saw
   * it Terminating and revoked it already; without (deleted before the status
   * pass added one), its hash is revoked by the next reconcile of its namespace.
   */
  tokenGone(token: ClusterToken): void {
    if (hasFinalizer(token) || token.spec.revoked) return;
    const namespace = token.metadata.namespace ?? 'default';
    const list = this.unguardedDeletions.get(namespace) ?? [];
    list.push({ ...token, metadata: { ...token.metadata, deletionTimestamp: token.metadata.deletionTimestamp ?? new Date().toISOString() } });
    this.unguardedDeletions.set(namespace, list);
  }

  async reconcile(namespace: string): Promise<'ok' | 'skipped'> {
    if (!this.deps.isLeader()) return 'skipped';
    const forced = this.forced.delete(namespace);
    const { snapshot, unlabelled } = await this.withUncachedSecrets(snapshotOf(this.deps.view, namespace));
    const all: ClusterResource[] = [...snapshot.settings, ...snapshot.tokens, ...snapshot.credentials];

    if (!this.deps.ledger.loaded()) throw new Error('the revocation ledger is not loaded yet');
    // Revocations first and for good: the durable record, then the tombstones in Redis, then the records.
    const gone = this.unguardedDeletions.get(namespace) ?? [];
    const revoked = revocationsOf({ ...snapshot, tokens: [...snapshot.tokens, ...gone] }, this.deps.view, this.writtenRecords.get(namespace));
    if (revoked.length > 0) {
      await this.write(async () => {
        await this.deps.ledger.record(revoked);
        await this.deps.state.revokeTokens(revoked);
      });
    }
    if (gone.length > 0 && this.unguardedDeletions.get(namespace) === gone) this.unguardedDeletions.delete(namespace);
    else if (gone.length > 0)
      this.unguardedDeletions.set(
        namespace,
        (this.unguardedDeletions.get(namespace) ?? []).filter((t) => !gone.includes(t)),
      );

    const { secrets, conflicts } = await this.generatedSecrets(snapshot);
    const current = await this.deps.state.getCompany(namespace);
    const inForce = current?.settings ?? this.settingsInForce.get(namespace);
    const desired = desiredState(resourceSetOf(snapshot, secrets), {
      revokedHashes: this.deps.ledger.hashes(),
      lastValidSettings: () => inForce,
      secretLabel: { label: SECRET_SELECTOR, unlabelled },
    });
    const company = desired.companies.find((c) => c.company === namespace) ?? null;
    await this.revokeVanished(namespace, current, { ...snapshot, secrets: [...snapshot.secrets, ...secrets] }, company);

    const digest = digestOf(company);
    if (forced || this.written.get(namespace) !== digest) {
      await this.write(async () => {
        const fence = { epoch: this.deps.epoch() };
        try {
          if (company) await this.deps.state.replaceCompany(company, fence);
          else await this.deps.state.removeCompany(namespace, fence);
        } catch (error) {
          if (error instanceof FencedWrite) throw new Fenced(error.current, `Redis refused the write of ${namespace}: ${error.message}`);
          throw error;
        }
      });
      this.written.set(namespace, digest);
      if (company) {
        this.settingsInForce.set(namespace, company.settings);
        this.writtenRecords.set(namespace, company);
      } else {
        this.settingsInForce.delete(namespace);
        this.writtenRecords.delete(namespace);
      }
      this.deps.metrics.redisWrites.inc({ operation: company ? 'replace' : 'remove' });
      this.deps.logger.debug({ namespace, tokens: company?.tokens.length ?? 0, credentials: company?.credentials.length ?? 0, forced }, company ? 'company written' : 'company removed');
    }

    for (const obj of all) {
      if (!readyToRelease(obj)) continue;
      if (obj.kind === 'GatewayToken') await this.write(() => this.deleteGeneratedSecret(obj, snapshot.secrets));
      await this.write(() => releaseFinalizer(this.deps.writer, obj));
      this.deps.events.forget(obj.metadata.uid);
      this.status.forget(obj.metadata.uid);
    }

    const entries: PendingReport[] = [];
    for (const condition of desired.conditions) {
      if (condition.namespace !== namespace) continue;
      const obj = all.find((o) => o.kind === condition.kind && o.metadata.name === condition.name && !isDeleting(o));
      if (!obj) continue;
      const conflict = condition.kind === 'GatewayToken' ? conflicts.get(condition.name) : undefined;
      entries.push({ kind: obj.kind, name: obj.metadata.name, uid: obj.metadata.uid, generation: obj.metadata.generation ?? 0, condition: conflict ?? condition });
    }
    this.reports.set(namespace, { entries, company });
    return 'ok';
  }

  /**
   * Rebuild's entry (it writes companies itself, without a reconcile): the
   * records Redis holds for `namespace` whose token vanished are revoked
   * before `desired` replaces them.
   */
  async revokeVanishedBeforeRebuild(namespace: string, desired: CompanyRecords | null): Promise<void> {
    const current = await this.deps.state.getCompany(namespace);
    await this.revokeVanished(namespace, current, snapshotOf(this.deps.view, namespace), desired);
  }

  /**
   * Deleting a GatewayToken revokes its hash, whichever way it went. The
   * finalizer and the delete event cover a token this replica saw go; this
   * covers the rest: a token deleted while no operator ran before it carried
   * the finalizer (the operator died between its Redis write and its
   * finalizer patch), a generated token whose Secret went with it, a
   * generated value replaced because its Secret vanished. Any token record
   * Redis holds that the write about to happen would drop is judged:
   *  - no GatewayToken of that name in the cache: the API server is asked
   *    (a quorum read); if none exists there either, the object the record
   *    was written for is gone for good (uids never return), so its hash is
   *    revoked — a lagging cache or a stale leader can only cause a lookup,
   *    never a revocation of a live token;
   *  - a generated token whose value is not kept: the Secret is read from
   *    the API server, and the old hash is revoked only if the Secret is
   *    really gone or really holds another value (what a stale cache holds
   *    does not count);
   *  - anything else (a hashed token whose spec now names another hash, a
   *    token revoked, refused or in conflict) is the resource's own doing and
   *    handled by the rules for it.
   * Nothing is judged before every informer finished its first list. The
   * revocation is written like the others (ledger, then tombstones), only
   * while this replica leads, and before the fenced write that drops the record.
   */
  private async revokeVanished(namespace: string, current: CompanyRecords | null, snapshot: NamespaceSnapshot, desired: CompanyRecords | null): Promise<void> {
    if (!current || current.tokens.length === 0) return;
    const kept = new Set(desired?.tokens.map((t) => t.hash) ?? []);
    const dropped = current.tokens.filter((r) => !kept.has(r.hash) && !this.deps.ledger.has(r.hash));
    if (dropped.length === 0) return;
    if (!this.deps.synced()) throw new Error('the informer caches have not finished their first list: token records are judged afterwards');
    const vanished: RevokedToken[] = [];
    for (const record of dropped) {
      const token = snapshot.tokens.find((t) => t.metadata.name === record.name);
      if (token === undefined) {
        if (!(await this.deps.tokenExists(namespace, record.name))) vanished.push({ hash: record.hash, company: namespace, name: record.name });
        continue;
      }
      if (token.spec.tokenHash || token.spec.revoked || isDeleting(token)) continue;
      // A generated value lives only in its Secret: a Secret gone, or holding another value, means this one is gone for good.
      const secret = await this.deps.writer.readSecret(namespace, generatedTokenSecretName(record.name));
      const ownership = generatedSecretOwnership(secret ?? undefined, token);
      if (secret && ownership === 'foreign') continue;
      const value = secret && ownership === 'ours' ? readSecretKey([secret], namespace, secret.metadata.name, GENERATED_TOKEN_KEY) : null;
      if (value === null || (value.ok && hashToken(value.value) !== record.hash)) vanished.push({ hash: record.hash, company: namespace, name: record.name });
    }
    if (vanished.length === 0) return;
    await this.write(async () => {
      await this.deps.ledger.record(vanished);
      await this.deps.state.revokeTokens(vanished);
    });
    this.deps.metrics.redisWrites.inc({ operation: 'revoke-vanished' });
    this.deps.logger.warn({ namespace, tokens: vanished.map((v) => v.name) }, 'token records whose GatewayToken (or generated value) is gone were revoked');
  }

  /**
   * The second pass (see the class comment): finalizers on live resources,
   * then status and Events for what the last reconcile computed. A resource
   * that changed since (a new generation) is left to the reconcile its change
   * brings; our own patches change no generation, so they bring none.
   */
  async reportStatus(namespace: string): Promise<'ok' | 'skipped'> {
    if (!this.deps.isLeader()) return 'skipped';
    // Taken together: the cache is at least as new as the reconcile that computed these reports. One
    // computed later (while the patches below run) may name objects this snapshot lacks: it stays for the next pass.
    const pending = this.reports.get(namespace);
    const snapshot = snapshotOf(this.deps.view, namespace);
    const all: ClusterResource[] = [...snapshot.settings, ...snapshot.tokens, ...snapshot.credentials];
    for (const obj of all) if (obj.metadata.uid && hasFinalizer(obj)) this.finalizerSent.delete(obj.metadata.uid);
    const unguarded = all.filter((obj) => needsFinalizer(obj) && !(obj.metadata.uid && this.finalizerSent.has(obj.metadata.uid)));
    await eachLimited(unguarded, STATUS_PARALLEL, async (obj) => {
      await this.write(() => addFinalizer(this.deps.writer, obj));
      if (obj.metadata.uid) this.finalizerSent.add(obj.metadata.uid);
    });

    if (!pending) return 'ok';
    const byKey = new Map(all.map((o) => [`${o.kind}/${o.metadata.name}`, o]));
    await eachLimited(pending.entries, STATUS_PARALLEL, async (entry) => {
      const obj = byKey.get(`${entry.kind}/${entry.name}`);
      if (!obj || isDeleting(obj) || obj.metadata.uid !== entry.uid || (obj.metadata.generation ?? 0) !== entry.generation) return;
      await this.report(obj, entry.condition, pending.company);
    });
    if (this.reports.get(namespace) === pending) this.reports.delete(namespace);
    return 'ok';
  }

  /**
   * The Secret cache holds only labelled Secrets. A referenced Secret it lacks
   * is read by name: a generated token Secret written before the label existed
   * is still used (and still revoked when its token goes); a credential Secret
   * without the label is only noted, so its credential says which label is missing.
   */
  private async withUncachedSecrets(snapshot: NamespaceSnapshot): Promise<{ snapshot: NamespaceSnapshot; unlabelled: Set<string> }> {
    const cached = new Set(snapshot.secrets.map((s) => s.metadata.name));
    const generated = new Set(snapshot.tokens.filter((t) => !t.spec.tokenHash).map((t) => generatedTokenSecretName(t.metadata.name)));
    const referenced = new Set(snapshot.credentials.filter((c) => !isDeleting(c)).map((c) => c.spec.secretRef.name));
    const wanted = [...new Set([...generated, ...referenced])].filter((name) => !cached.has(name));
    const found: Secret[] = [];
    const unlabelled = new Set<string>();
    await eachLimited(wanted, API_PARALLEL, async (name) => {
      const secret = await this.deps.writer.readSecret(snapshot.namespace, name);
      if (!secret) return;
      if (generated.has(name)) found.push(secret);
      else if (secret.metadata.labels?.[SECRET_LABEL] !== SECRET_LABEL_VALUE) unlabelled.add(`${snapshot.namespace}/${name}`);
    });
    return { snapshot: found.length === 0 ? snapshot : { ...snapshot, secrets: [...snapshot.secrets, ...found] }, unlabelled };
  }

  private async write(action: () => Promise<void>): Promise<void> {
    if (!this.deps.isLeader()) throw new NotLeader('lost the leader Lease during a reconcile');
    await action();
  }

  /** Generated Secrets to add to the snapshot, and tokens whose Secret name is taken by someone else. */
  private async generatedSecrets(snapshot: NamespaceSnapshot): Promise<{ secrets: Secret[]; conflicts: Map<string, ResourceCondition> }> {
    const secrets: Secret[] = [];
    const conflicts = new Map<string, ResourceCondition>();
    for (const token of snapshot.tokens) {
      if (token.spec.tokenHash || token.spec.revoked || isDeleting(token)) continue;
      const name = generatedTokenSecretName(token.metadata.name);
      const cached = snapshot.secrets.find((s) => s.metadata.name === name);
      if (generatedSecretOwnership(cached, token) === 'ours') continue;
      let outcome: Awaited<ReturnType<typeof ensureGeneratedTokenSecret>> | undefined;
      try {
        await this.write(async () => {
          outcome = await ensureGeneratedTokenSecret(this.deps.writer, token, cached);
        });
      } catch (error) {
        // Nothing new is written into a namespace being deleted; its tokens are on their way out.
        if (error instanceof NamespaceTerminating) continue;
        throw error;
      }
      if (!outcome) continue;
      if (outcome.kind === 'foreign') {
        conflicts.set(token.metadata.name, notReady('GatewayToken', snapshot.namespace, token.metadata.name, 'SecretConflict', outcome.message));
        continue;
      }
      secrets.push(outcome.secret);
      if (outcome.kind === 'generated') {
        this.deps.metrics.generatedTokens.inc();
        await this.deps.events.emit(token, tokenGeneratedEvent(name, GENERATED_TOKEN_KEY));
      }
    }
    return { secrets, conflicts };
  }

  /** A deleted token's generated value goes with it, whether or not a garbage collector runs. */
  private async deleteGeneratedSecret(token: ClusterToken, secrets: readonly Secret[]): Promise<void> {
    if (token.spec.tokenHash) return;
    const name = generatedTokenSecretName(token.metadata.name);
    const secret = secrets.find((s) => s.metadata.name === name);
    if (generatedSecretOwnership(secret, token) === 'ours') await this.deps.writer.deleteSecret(token.metadata.namespace ?? 'default', name, secret?.metadata.uid);
  }

  private async report(obj: ClusterResource, condition: ResourceCondition, company: CompanyRecords | null): Promise<void> {
    const extras: { address?: string; secretName?: string; health?: { healthy: boolean; reason: string | null } } = {};
    if (obj.kind === 'ProviderCredential' && condition.ready) {
      // Health is learned by the data planes; the periodic resync brings it into status.
      const health = await this.deps.state.credentialHealth(obj.metadata.namespace ?? 'default', obj.metadata.name);
      extras.health = { healthy: health.healthy, reason: health.reason };
    }
    if (obj.kind === 'GatewayToken') {
      const domain = company?.settings.tokenDomain ?? obj.metadata.namespace ?? 'default';
      extras.address = condition.address ?? `${obj.metadata.name}@${domain}`;
      if (!obj.spec.tokenHash) extras.secretName = generatedTokenSecretName(obj.metadata.name);
    }
    if (!this.deps.isLeader()) throw new NotLeader('lost the leader Lease during a reconcile');
    await this.deps.events.observe(obj, condition);
    const before = this.status.currentOf(obj)?.healthy;
    if (await this.status.sync(obj, condition, extras)) this.deps.metrics.statusPatches.inc({ kind: obj.kind });
    if (extras.health && extras.health.healthy !== (before ?? true)) await this.deps.events.emit(obj, healthEvent(extras.health));
  }
}
