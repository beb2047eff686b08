import type { Logger } from '../observability/logger.js';
import { applyCompany, type CompanyApplied, type CompanyApplyPorts, type TruthSource } from '../reconcile/apply-company.js';
import { notReady, type ResourceCondition } from '../reconcile/conditions.js';
import { GENERATED_TOKEN_KEY, generatedTokenSecretName, type ResourceSet } from '../reconcile/desired-records.js';
import type { Secret } from '../resources/types.js';
import { readSecretKey } from '../reconcile/secrets.js';
import { FencedWrite, type CompanyWriter, type CredentialHealthStore, type TokenDirectory } from '../state/state.js';
import { tokenGeneratedEvent, type EventRecorder } from './events.js';
import { readyToRelease, releaseFinalizer } from './finalizers.js';
import { ensureGeneratedTokenSecret } from './generated-tokens.js';
import { generatedSecretOwnership, isDeleting, SECRET_LABEL, SECRET_LABEL_VALUE, SECRET_SELECTOR, type ClusterResource, type ClusterToken } from './kube-objects.js';
import { NamespaceTerminating, type KubeWriter, type TokenLookup } from './kube-writer.js';
import type { OperatorMetrics } from './operator-metrics.js';
import { resourceSetOf, snapshotOf, type ClusterView, type NamespaceSnapshot } from './snapshot.js';
import type { RevocationLedger } from './revocation-ledger.js';
import { eachLimited, Fenced, NotLeader } from './not-leader.js';
import { StatusPass, type PendingReport } from './status-pass.js';

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

const API_PARALLEL = 16;
/**
 * Reconciles one namespace (one company), level-triggered and idempotent:
 * whatever event brought it here, it reads the whole namespace from the
 * informer caches (and, where a cache cannot be trusted to know, the API
 * server) and hands it to applyCompany, the path to Redis that the rebuild
 * and `gw serve -f` take too. Its result depends on the cluster, Redis and
 * the revocation ledger, never on which events this replica saw: a token
 * deleted while no operator watched is found by its record in Redis. Two
 * passes, so Redis never waits for the API server (a burst of creates would
 * otherwise queue every token behind a thousand finalizer and status patches):
 *
 * `reconcile` — the path to Redis (`toRedis`, which the rebuild calls), then:
 *   1. revocations (the durable ledger, then tombstones): revoked and deleted
 *      tokens, and token records Redis holds whose token is gone for good;
 *   2. generated token Secrets, so a new token is live in this same pass;
 *   3. the Redis write, fenced (revocations and deletions take effect here);
 *   4. finalizers released on deleted resources, only after that write;
 *   then it hands the conditions it computed to the second pass.
 * `reportStatus` — the API work, per namespace, bounded and debounced:
 *   5. the finalizer on every live resource that lacks it;
 *   6. status and Events: they report what is already true.
 */
export class NamespaceReconciler {
  /** The digest this replica last wrote per company: with Redis agreeing, the write is skipped (a cache, never a decision). */
  private readonly written = new Map<string, string>();
  private readonly forced = new Set<string>();
  private readonly statusPass: StatusPass;

  constructor(private readonly deps: ReconcilerDeps) {
    this.statusPass = new StatusPass(deps);
  }

  /** The next reconcile of this namespace rewrites Redis even when nothing seems to have changed. */
  force(namespace: string): void {
    this.forced.add(namespace);
  }

  /** Forget what was written (a new term as leader: another replica may have written since). */
  forgetWrites(): void {
    this.written.clear();
    this.statusPass.forgetAll();
  }

  async reconcile(namespace: string): Promise<'ok' | 'skipped'> {
    if (!this.deps.isLeader()) return 'skipped';
    const forced = this.forced.delete(namespace);
    const { snapshot, applied, conflicts } = await this.toRedis(namespace, { force: forced });
    const all: ClusterResource[] = [...snapshot.settings, ...snapshot.tokens, ...snapshot.credentials];

    for (const obj of all) {
      if (!readyToRelease(obj)) continue;
      if (obj.kind === 'GatewayToken') await this.write(() => this.deleteGeneratedSecret(obj, snapshot.secrets));
      await this.write(() => releaseFinalizer(this.deps.writer, obj));
      this.statusPass.forget(obj.metadata.uid);
    }

    const entries: PendingReport[] = [];
    for (const condition of applied.conditions) {
      const obj = all.find((o) => o.kind === condition.kind && o.metadata.name === condition.name && !isDeleting(o));
      if (!obj) continue;
      const conflict = condition.kind === 'GatewayToken' ? conflicts.get(condition.name) : undefined;
      entries.push({ kind: obj.kind, name: obj.metadata.name, uid: obj.metadata.uid, generation: obj.metadata.generation ?? 0, condition: conflict ?? condition });
    }
    this.statusPass.pending(namespace, { entries, company: applied.records });
    return 'ok';
  }

  /**
   * The namespace's path to Redis, shared by the reconcile and the rebuild:
   * the namespace as the caches (and the API server, for Secrets the cache
   * cannot hold) show it, its generated Secrets made, then applyCompany.
   */
  async toRedis(namespace: string, options: { force: boolean }): Promise<{ snapshot: NamespaceSnapshot; applied: CompanyApplied; conflicts: Map<string, ResourceCondition> }> {
    if (!this.deps.ledger.loaded()) throw new Error('the revocation ledger is not loaded yet');
    const read = await this.withUncachedSecrets(snapshotOf(this.deps.view, namespace));
    let conflicts = new Map<string, ResourceCondition>();
    const ports: CompanyApplyPorts = {
      state: this.deps.state,
      ledger: this.deps.ledger,
      truth: this.truth(),
      mayWrite: () => {
        if (!this.deps.isLeader()) throw new NotLeader('lost the leader Lease during a reconcile');
      },
      fence: { epoch: this.deps.epoch() },
      secretLabel: { label: SECRET_SELECTOR, unlabelled: read.unlabelled },
    };
    let applied: CompanyApplied;
    try {
      applied = await applyCompany(namespace, resourceSetOf(read.snapshot), ports, {
        force: options.force,
        ...(this.written.has(namespace) ? { lastWritten: this.written.get(namespace) as string } : {}),
        complete: async (): Promise<ResourceSet> => {
          const generated = await this.generatedSecrets(read.snapshot);
          conflicts = generated.conflicts;
          return resourceSetOf(read.snapshot, generated.secrets);
        },
      });
    } catch (error) {
      if (error instanceof FencedWrite) throw new Fenced(error.current, `Redis refused the write of ${namespace}: ${error.message}`);
      throw error;
    }
    this.written.set(namespace, applied.digest);
    if (applied.vanished.length > 0) {
      this.deps.metrics.redisWrites.inc({ operation: 'revoke-vanished' });
      this.deps.logger.warn({ namespace, tokens: applied.vanished.map((v) => v.name) }, 'token records whose GatewayToken (or generated value) is gone were revoked');
    }
    if (applied.wrote !== null) {
      this.deps.metrics.redisWrites.inc({ operation: applied.wrote });
      const records = applied.records;
      this.deps.logger.debug({ namespace, tokens: records?.tokens.length ?? 0, credentials: records?.credentials.length ?? 0, forced: options.force }, records ? 'company written' : 'company removed');
    }
    return { snapshot: read.snapshot, applied, conflicts };
  }

  /**
   * Where a dropped token record is judged (see applyCompany): the API
   * server, never the cache. Only after every informer finished its first
   * list; a lagging cache or a stale leader can then cause a lookup, never
   * the revocation of a live token (uids never return, so a token gone from
   * the API server is gone for good). A generated value counts only in a
   * Secret this very token controls; what a stale cache holds does not count.
   */
  private truth(): TruthSource {
    const synced = (): void => {
      if (!this.deps.synced()) throw new Error('the informer caches have not finished their first list: token records are judged afterwards');
    };
    return {
      tokenExists: async (namespace, name) => {
        synced();
        return this.deps.tokenExists(namespace, name);
      },
      generatedValue: async (namespace, token) => {
        synced();
        const secret = await this.deps.writer.readSecret(namespace, generatedTokenSecretName(token.metadata.name));
        const ownership = generatedSecretOwnership(secret ?? undefined, token);
        if (secret && ownership === 'foreign') return 'unjudged';
        if (!secret || ownership !== 'ours') return null;
        const value = readSecretKey([secret], namespace, secret.metadata.name, GENERATED_TOKEN_KEY);
        return value.ok ? value.value : 'unjudged';
      },
    };
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

  /** The second pass (see the class comment and src/operator/status-pass.ts). */
  reportStatus(namespace: string): Promise<'ok' | 'skipped'> {
    return this.statusPass.run(namespace);
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
}
