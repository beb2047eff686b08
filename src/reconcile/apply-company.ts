import { createHash } from 'node:crypto';
import { hashToken } from '../auth/token.js';
import type { GatewayToken } from '../resources/types.js';
import type { CompanyRecords, TokenRecord } from '../state/records.js';
import type { CompanyWriter, RevokedToken, TokenDirectory, WriteFence } from '../state/state.js';
import type { ResourceCondition } from './conditions.js';
import { desiredState, GENERATED_TOKEN_KEY, generatedTokenSecretName, olderFirst, type DesiredOptions, type ResourceSet } from './desired-records.js';
import { readSecretKey } from './secrets.js';

/**
 * The one path from resources to state. The operator's reconcile, its
 * rebuild after a Redis loss and `gw serve -f` all call applyCompany, so the
 * three cannot write different records, revoke different tokens or skip a
 * step the others take. What differs between them is only where the
 * resources come from and how a vanished token is confirmed (TruthSource).
 */

/** The durable record of revoked hashes (the operator's ConfigMap ledger; the file path keeps one per state). */
export interface RevocationRecord {
  has(hash: string): boolean;
  hashes(): ReadonlySet<string>;
  record(revoked: readonly RevokedToken[]): Promise<unknown>;
}

/**
 * Where a writer confirms that a token record's reason to exist is gone:
 * the API server for the operator (never its cache, which may lag), the
 * file itself for `gw serve -f` (it is the whole truth).
 */
export interface TruthSource {
  tokenExists(company: string, name: string): Promise<boolean>;
  /**
   * A generated token's value as its Secret holds it now; null when there is
   * none; 'unjudged' when the Secret of that name is someone else's, or its
   * value cannot be read (nothing is decided on it).
   */
  generatedValue(company: string, token: GatewayToken): Promise<string | null | 'unjudged'>;
}

export interface CompanyApplyPorts {
  readonly state: Pick<CompanyWriter, 'replaceCompany' | 'removeCompany' | 'revokeTokens'> & Pick<TokenDirectory, 'getCompany'>;
  readonly ledger: RevocationRecord;
  readonly truth: TruthSource;
  /** Called before every write; throws when this writer may no longer write (an operator that lost its Lease). */
  readonly mayWrite: () => void;
  readonly fence?: WriteFence;
  readonly secretLabel?: DesiredOptions['secretLabel'];
}

export interface ApplyOptions {
  /** Write even when the state already holds these records (a resync, a rebuild). */
  readonly force?: boolean;
  /** The digest this writer last wrote for the company: with the state agreeing, the write is skipped. */
  readonly lastWritten?: string;
  /**
   * Work a path does after the revocations and before computing the records
   * (the operator creates generated token Secrets there, so a slow or failing
   * API server never delays a revocation): the resources to compute from.
   */
  readonly complete?: (resources: ResourceSet) => Promise<ResourceSet>;
}

export interface CompanyApplied {
  readonly records: CompanyRecords | null;
  readonly conditions: readonly ResourceCondition[];
  /** Revoked by the resources (revoked or deleted tokens) and by records whose token vanished. */
  readonly revoked: readonly RevokedToken[];
  readonly vanished: readonly RevokedToken[];
  readonly wrote: 'replace' | 'remove' | null;
  readonly digest: string;
}

const ns = (meta: { namespace?: string }): string => meta.namespace ?? 'default';
const deleting = (t: GatewayToken): boolean => Boolean(t.metadata.deletionTimestamp);

export function digestOf(records: CompanyRecords | null): string {
  return records === null ? 'absent' : createHash('sha256').update(JSON.stringify(records)).digest('hex');
}

/**
 * The hashes `company`'s resources revoke: revoked and deleting tokens
 * (deleting a token revokes it). A generated token's hash comes from its
 * Secret, or, once the Secret is gone, from the record the state holds under
 * its name. A token that never held its hash (a copy of one an older live
 * token holds) revokes nothing: copying someone's hash and deleting the copy
 * must not kill their token. `resources.tokens` carries every token naming
 * one of the company's hashes, other companies' included.
 */
export function revocationsOf(company: string, resources: ResourceSet, current: CompanyRecords | null): RevokedToken[] {
  const out: RevokedToken[] = [];
  for (const token of resources.tokens) {
    if (ns(token.metadata) !== company || (!token.spec.revoked && !deleting(token))) continue;
    let hash = token.spec.tokenHash;
    if (!hash) {
      const value = readSecretKey(resources.secrets, company, generatedTokenSecretName(token.metadata.name), GENERATED_TOKEN_KEY);
      hash = value.ok ? hashToken(value.value) : current?.tokens.find((t) => t.name === token.metadata.name)?.hash;
      if (!hash) continue;
    }
    const heldByOlder = resources.tokens.some((t) => t !== token && t.spec.tokenHash === hash && !t.spec.revoked && !deleting(t) && olderFirst(t, token) < 0);
    if (!heldByOlder) out.push({ hash, company, name: token.metadata.name });
  }
  return out;
}

/**
 * Token records the state holds that the write about to happen drops, whose
 * token is gone for good: no token of that name exists at the source of
 * truth, or a generated token's Secret is gone or holds another value. A
 * record dropped for the resource's own reasons (a new hash in its spec, a
 * revoked, deleting, refused or conflicting token) is left to the rules for
 * those. Decided from the state and the source of truth, never from which
 * events a writer happened to see.
 */
async function vanishedOf(company: string, current: CompanyRecords | null, records: CompanyRecords | null, resources: ResourceSet, ports: CompanyApplyPorts): Promise<RevokedToken[]> {
  if (!current || current.tokens.length === 0) return [];
  const kept = new Set(records?.tokens.map((t) => t.hash) ?? []);
  const dropped = current.tokens.filter((r) => !kept.has(r.hash) && !ports.ledger.has(r.hash));
  const vanished: RevokedToken[] = [];
  for (const record of dropped) {
    const token = resources.tokens.find((t) => ns(t.metadata) === company && t.metadata.name === record.name);
    if (token === undefined) {
      if (!(await ports.truth.tokenExists(company, record.name))) vanished.push(revokedOf(record));
      continue;
    }
    if (token.spec.tokenHash || token.spec.revoked || deleting(token)) continue;
    const value = await ports.truth.generatedValue(company, token);
    if (value === 'unjudged') continue;
    if (value === null || hashToken(value) !== record.hash) vanished.push(revokedOf(record));
  }
  return vanished;
}

const revokedOf = (r: TokenRecord): RevokedToken => ({ hash: r.hash, company: r.company, name: r.name });

/**
 * Makes the state hold `company`'s desired records, in the order every path
 * needs: revocations first and for good (the durable record, then the
 * tombstones), the records whose token vanished the same way, then the one
 * fenced write (replace, or remove when the company has no resources left).
 * The settings in force are the state's own: a GatewaySettings that turns
 * invalid keeps what the state holds.
 */
export async function applyCompany(company: string, given: ResourceSet, ports: CompanyApplyPorts, options: ApplyOptions = {}): Promise<CompanyApplied> {
  // Tombstones are written again each time (idempotent): a state that lost them gets them back here too.
  const revoked = revocationsOf(company, given, await ports.state.getCompany(company));
  if (revoked.length > 0) {
    ports.mayWrite();
    await ports.ledger.record(revoked);
    await ports.state.revokeTokens(revoked);
  }
  const resources = options.complete ? await options.complete(given) : given;
  const current = await ports.state.getCompany(company);

  const desired = desiredState(resources, {
    revokedHashes: ports.ledger.hashes(),
    lastValidSettings: () => current?.settings,
    ...(ports.secretLabel ? { secretLabel: ports.secretLabel } : {}),
  });
  const records = desired.companies.find((c) => c.company === company) ?? null;
  const conditions = desired.conditions.filter((c) => c.namespace === company);

  const vanished = await vanishedOf(company, current, records, resources, ports);
  if (vanished.length > 0) {
    ports.mayWrite();
    await ports.ledger.record(vanished);
    await ports.state.revokeTokens(vanished);
  }

  const digest = digestOf(records);
  const unchanged = !options.force && options.lastWritten === digest && digestOf(current) === digest;
  if (unchanged) return { records, conditions, revoked, vanished, wrote: null, digest };
  ports.mayWrite();
  if (records) await ports.state.replaceCompany(records, ports.fence);
  else await ports.state.removeCompany(company, ports.fence);
  return { records, conditions, revoked, vanished, wrote: records ? 'replace' : 'remove', digest };
}

/** A revocation record held in this process: `gw serve -f`'s, one per state, so a reload never revives what an earlier load revoked. */
export class MemoryRevocations implements RevocationRecord {
  private readonly entries = new Set<string>();

  has(hash: string): boolean {
    return this.entries.has(hash);
  }

  hashes(): ReadonlySet<string> {
    return new Set(this.entries);
  }

  async record(revoked: readonly RevokedToken[]): Promise<void> {
    for (const r of revoked) this.entries.add(r.hash);
  }
}

/** The file as the source of truth: what it does not name does not exist. */
export function resourceTruth(resources: ResourceSet): TruthSource {
  return {
    tokenExists: async (company, name) => resources.tokens.some((t) => ns(t.metadata) === company && t.metadata.name === name),
    generatedValue: async (company, token) => {
      const value = readSecretKey(resources.secrets, company, generatedTokenSecretName(token.metadata.name), GENERATED_TOKEN_KEY);
      return value.ok ? value.value : null;
    },
  };
}
