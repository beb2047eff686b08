import type { V1ConfigMap } from '@kubernetes/client-node';
import type { RevokedToken } from '../state/state.js';
import { apiStatus, type KubeClients } from './kube-client.js';

export const LEDGER_LABEL = 'gw.io/revocations';
const SHARDS = '0123456789abcdef';

/** Where revocations are kept: ConfigMaps by name, each a map of hash key → entry. */
export interface LedgerStore {
  list(): Promise<Array<{ name: string; data: Record<string, string> }>>;
  /** Add entries to one ConfigMap, creating it when absent; retries on a concurrent change. */
  add(name: string, entries: Record<string, string>): Promise<void>;
}

/** ConfigMap keys allow [-._a-zA-Z0-9]: `sha256:<hex>` is kept as `sha256.<hex>`. */
const keyOf = (hash: string): string => hash.replace(':', '.');
const hashOf = (key: string): string => key.replace('.', ':');
const shardOf = (hash: string): string => {
  const hex = hash.slice(hash.indexOf(':') + 1, hash.indexOf(':') + 2).toLowerCase();
  return `gw-revocations-${SHARDS.includes(hex) && hex !== '' ? hex : '0'}`;
};

/**
 * The durable record of every revoked token hash, in the operator's own
 * namespace (next to its Lease), apart from the resources: deleting a
 * GatewayToken, its namespace or Redis's data removes nothing here, and no
 * reconcile ever deletes an entry. A hash in the ledger never authenticates
 * again, whatever a later resource names it. Sixteen ConfigMaps (by the
 * hash's first hex digit) hold about 100,000 entries.
 */
export class RevocationLedger {
  private readonly entries = new Map<string, RevokedToken>();
  private loadedOnce = false;

  constructor(private readonly store: LedgerStore) {}

  /** Reads every entry (at start and on each new term as leader: another replica may have added some). */
  async load(): Promise<void> {
    for (const map of await this.store.list()) {
      for (const [key, value] of Object.entries(map.data)) {
        const hash = hashOf(key);
        const [where = ''] = value.split(' ');
        const slash = where.indexOf('/');
        this.entries.set(hash, { hash, company: where.slice(0, slash), name: where.slice(slash + 1) });
      }
    }
    this.loadedOnce = true;
  }

  loaded(): boolean {
    return this.loadedOnce;
  }

  has(hash: string): boolean {
    return this.entries.has(hash);
  }

  hashes(): ReadonlySet<string> {
    return new Set(this.entries.keys());
  }

  all(): RevokedToken[] {
    return [...this.entries.values()];
  }

  /** Records new revocations durably; returns the ones that were new. */
  async record(revoked: readonly RevokedToken[], now: Date = new Date()): Promise<RevokedToken[]> {
    const fresh = revoked.filter((r, i) => !this.entries.has(r.hash) && revoked.findIndex((o) => o.hash === r.hash) === i);
    const byShard = new Map<string, Record<string, string>>();
    for (const r of fresh) {
      const shard = byShard.get(shardOf(r.hash)) ?? {};
      shard[keyOf(r.hash)] = `${r.company}/${r.name} ${now.toISOString()}`;
      byShard.set(shardOf(r.hash), shard);
    }
    for (const [name, entries] of byShard) await this.store.add(name, entries);
    for (const r of fresh) this.entries.set(r.hash, r);
    return fresh;
  }
}

/** The ledger's ConfigMaps through core/v1, in `namespace`. */
export function configMapLedgerStore(clients: KubeClients, namespace: string): LedgerStore {
  const api = clients.core;
  return {
    async list() {
      const list = await api.listNamespacedConfigMap({ namespace, labelSelector: `${LEDGER_LABEL}=true` });
      return list.items.map((m) => ({ name: m.metadata?.name ?? '', data: m.data ?? {} }));
    },
    async add(name, entries) {
      for (let attempt = 0; ; attempt++) {
        let current: V1ConfigMap | null = null;
        try {
          current = await api.readNamespacedConfigMap({ namespace, name });
        } catch (error) {
          if (apiStatus(error) !== 404) throw error;
        }
        try {
          if (current === null) {
            await api.createNamespacedConfigMap({
              namespace,
              body: { metadata: { name, namespace, labels: { [LEDGER_LABEL]: 'true', 'app.kubernetes.io/managed-by': 'gw-operator' } }, data: entries },
            });
          } else {
            await api.replaceNamespacedConfigMap({ namespace, name, body: { ...current, data: { ...(current.data ?? {}), ...entries } } });
          }
          return;
        } catch (error) {
          // 409: someone changed or created it meanwhile; read again and merge.
          if (apiStatus(error) !== 409 || attempt >= 5) throw error;
        }
      }
    },
  };
}
