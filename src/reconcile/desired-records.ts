import { hashToken } from '../auth/token.js';
import { normalizeModelId } from '../models/normalize.js';
import { PROVIDER_DEFAULTS } from '../models/providers.js';
import type { GatewaySettings, GatewayToken, ProviderCredential, Secret } from '../resources/types.js';
import type { CompanyRecords, CompanySettings, CredentialRecord, TokenRecord } from '../state/records.js';
import { notReady, ready, type ResourceCondition } from './conditions.js';
import { readSecretKey } from './secrets.js';
import { settingsProblems } from './settings-problems.js';
import { settingsRecord } from './settings.js';

export interface ResourceSet {
  readonly settings: readonly GatewaySettings[];
  readonly tokens: readonly GatewayToken[];
  readonly credentials: readonly ProviderCredential[];
  readonly secrets: readonly Secret[];
}

export interface DesiredState {
  readonly companies: readonly CompanyRecords[];
  readonly conditions: readonly ResourceCondition[];
}

/** Name of the Secret that holds a generated token's value, and its key. */
export function generatedTokenSecretName(tokenName: string): string {
  return `${tokenName}-gwct`;
}
export const GENERATED_TOKEN_KEY = 'token';

/** The order in which tokens claim a hash: the oldest first, ties broken by namespace/name. */
export function olderFirst(a: GatewayToken, b: GatewayToken): number {
  const ta = a.metadata.creationTimestamp ?? '';
  const tb = b.metadata.creationTimestamp ?? '';
  if (ta !== tb) return ta < tb ? -1 : 1;
  const ka = `${ns(a.metadata)}/${a.metadata.name}`;
  const kb = `${ns(b.metadata)}/${b.metadata.name}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

const ns = (meta: { namespace?: string }): string => meta.namespace ?? 'default';
const byName = <T extends { metadata: { name: string } }>(a: T, b: T): number => (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0);

/**
 * Level-triggered reconcile as a pure function: from the resources and the
 * Secrets they reference alone, the records every company should have in
 * state, and the Ready condition of every resource. The operator and
 * `gw serve -f` both call it, so a file and a cluster holding the same
 * documents give the same records. A hash in `revokedHashes` (the durable
 * revocation record) is never made live again, whichever resource names it.
 */
export interface DesiredOptions {
  /** The durable revocation record: these hashes are never made live again. */
  readonly revokedHashes?: ReadonlySet<string>;
  /** The settings in force now, kept when a company's GatewaySettings turns invalid. */
  readonly lastValidSettings?: (company: string) => CompanySettings | undefined;
  /**
   * Where Secrets are read through a label selector (the operator): the label
   * they must carry, and the `namespace/name` of referenced Secrets that exist
   * without it. Such a credential is refused naming the label, not called missing.
   */
  readonly secretLabel?: { readonly label: string; readonly unlabelled: ReadonlySet<string> };
}

export function desiredState(resources: ResourceSet, options: DesiredOptions = {}): DesiredState {
  const revokedHashes = options.revokedHashes ?? new Set<string>();
  const conditions: ResourceCondition[] = [];
  const namespaces = new Set<string>();
  for (const r of [...resources.settings, ...resources.tokens, ...resources.credentials]) {
    if (!r.metadata.deletionTimestamp) namespaces.add(ns(r.metadata));
  }
  const live = <T extends { metadata: { deletionTimestamp?: string } }>(list: readonly T[]): T[] => list.filter((r) => !r.metadata.deletionTimestamp);
  // A hash belongs to one company only: the oldest GatewayToken that names it. A copy in another
  // namespace would otherwise send that token's callers to the copier's credentials and base URLs.
  const owner = new Map<string, GatewayToken>();
  for (const doc of live(resources.tokens)) {
    const hash = doc.spec.revoked ? undefined : doc.spec.tokenHash;
    if (!hash || revokedHashes.has(hash)) continue;
    const current = owner.get(hash);
    if (!current || olderFirst(doc, current) < 0) owner.set(hash, doc);
  }
  const companies: CompanyRecords[] = [];
  for (const company of [...namespaces].sort()) {
    const inNs = <T extends { metadata: { namespace?: string; name: string } }>(list: readonly T[]): T[] =>
      live(list as readonly (T & { metadata: { deletionTimestamp?: string } })[])
        .filter((r) => ns(r.metadata) === company)
        .sort(byName);

    // Two settings in one namespace is a conflict: neither wins silently; defaults apply until it is fixed.
    const settingsDocs = inNs(resources.settings);
    let chosen: GatewaySettings | undefined;
    let kept: CompanySettings | undefined;
    if (settingsDocs.length === 1) {
      const doc = settingsDocs[0] as GatewaySettings;
      const problems = settingsProblems(doc.spec);
      if (problems.length === 0) {
        chosen = doc;
        conditions.push(ready('GatewaySettings', company, doc.metadata.name, 'settings applied'));
      } else {
        // Never let a bad edit break a company's traffic: what was in force stays in force.
        kept = options.lastValidSettings?.(company);
        conditions.push(
          notReady(
            'GatewaySettings',
            company,
            doc.metadata.name,
            'InvalidSettings',
            `${problems.map((p) => `${p.field}: ${p.message}`).join('; ')}. ${kept ? 'The last valid settings stay in force' : 'Defaults apply'} until it is fixed`,
          ),
        );
      }
    } else {
      for (const doc of settingsDocs) {
        conditions.push(
          notReady(
            'GatewaySettings',
            company,
            doc.metadata.name,
            'SettingsConflict',
            `namespace "${company}" has ${settingsDocs.length} GatewaySettings (${settingsDocs.map((d) => d.metadata.name).join(', ')}); keep one. Defaults apply meanwhile`,
          ),
        );
      }
    }
    const settings = kept ?? settingsRecord(company, chosen?.spec);

    const tokens: TokenRecord[] = [];
    const seen = new Set<string>();
    for (const doc of inNs(resources.tokens)) {
      const name = doc.metadata.name;
      const address = `${name}@${settings.tokenDomain}`;
      if (doc.spec.revoked) {
        conditions.push({ ...ready('GatewayToken', company, name, 'token is revoked and is not served'), reason: 'Revoked', address });
        continue;
      }
      let hash = doc.spec.tokenHash;
      if (!hash) {
        const generated = readSecretKey(resources.secrets, company, generatedTokenSecretName(name), GENERATED_TOKEN_KEY);
        if (!generated.ok) {
          conditions.push(notReady('GatewayToken', company, name, 'TokenPending', 'no tokenHash and no generated token Secret yet'));
          continue;
        }
        hash = hashToken(generated.value);
      }
      if (revokedHashes.has(hash)) {
        conditions.push(notReady('GatewayToken', company, name, 'HashRevoked', 'this token hash was revoked before and never authenticates again; create a new token (gw token create) instead'));
        continue;
      }
      const holder = owner.get(hash);
      if (holder && holder !== doc && ns(holder.metadata) !== company) {
        conditions.push(notReady('GatewayToken', company, name, 'DuplicateHash', `GatewayToken ${holder.metadata.name} in namespace "${ns(holder.metadata)}" already uses this hash`));
        continue;
      }
      if (seen.has(hash)) {
        conditions.push(notReady('GatewayToken', company, name, 'DuplicateHash', 'another GatewayToken in this namespace has the same hash'));
        continue;
      }
      seen.add(hash);
      tokens.push({ hash, company, name, address });
      conditions.push(ready('GatewayToken', company, name, `token is live as ${address}`, { address }));
    }

    const credentials: CredentialRecord[] = [];
    for (const doc of inNs(resources.credentials)) {
      const name = doc.metadata.name;
      const spec = doc.spec;
      const defaults = PROVIDER_DEFAULTS[spec.provider];
      const baseUrl = spec.baseUrl ?? defaults.baseUrl;
      if (!baseUrl) {
        conditions.push(notReady('ProviderCredential', company, name, 'BaseUrlRequired', `provider ${spec.provider} has no default address; set spec.baseUrl`));
        continue;
      }
      const secret = readSecretKey(resources.secrets, company, spec.secretRef.name, spec.secretRef.key);
      const refName = spec.secretRef.name;
      if (!secret.ok && secret.reason === 'SecretMissing' && options.secretLabel?.unlabelled.has(`${company}/${refName}`)) {
        const label = options.secretLabel.label;
        conditions.push(
          notReady(
            'ProviderCredential',
            company,
            name,
            'SecretNotLabelled',
            `Secret "${refName}" lacks the label ${label}; the operator reads only Secrets with it (kubectl label secret ${refName} -n ${company} ${label})`,
          ),
        );
        continue;
      }
      if (!secret.ok) {
        conditions.push(notReady('ProviderCredential', company, name, secret.reason, secret.message));
        continue;
      }
      credentials.push({
        company,
        name,
        provider: spec.provider,
        kind: spec.kind,
        secret: secret.value,
        baseUrl: baseUrl.replace(/\/+$/, ''),
        authScheme: spec.kind === 'subscriptionSeat' ? 'bearer' : (spec.authScheme ?? defaults.authScheme),
        maxConcurrency: spec.maxConcurrency ?? 4,
        models: spec.models && spec.models.length > 0 ? spec.models.map(normalizeModelId) : null,
        priority: spec.priority ?? 0,
      });
      conditions.push(ready('ProviderCredential', company, name, `credential is in the ${spec.provider} pool`));
    }
    companies.push({ company, settings, tokens, credentials });
  }
  return { companies, conditions };
}
