import type { ProviderName } from './providers.js';
import { normalizeModelId } from './normalize.js';

/** What the cache needs of a credential: lists are shared per base address. (A company credential record in practice.) */
export interface ListingCredential {
  readonly baseUrl: string;
}

/** Fetches the ids a provider lists (GET /v1/models) with one credential; null when no list can be had. */
export type ModelListFetcher<C extends ListingCredential = ListingCredential> = (credential: C) => Promise<readonly string[] | null>;

export interface ServedList {
  readonly ids: readonly string[];
  /** normalized id → the provider's own spelling */
  readonly byNormalized: ReadonlyMap<string, string>;
}

interface Entry {
  readonly expiresAt: number;
  readonly list: Promise<ServedList | null>;
}

/**
 * Which models a provider serves beyond the built-in catalogue (models newer
 * than the catalogue, such as those current Claude Code versions ask for).
 * Lists are fetched with a company credential, shared by concurrent
 * requests, and cached; a failed fetch is cached briefly as "no list", and
 * then requests go through and the provider's own answer is relayed.
 */
export class ServedModels<C extends ListingCredential = ListingCredential> {
  private readonly cache = new Map<string, Entry>();

  constructor(
    private readonly fetcher: ModelListFetcher<C>,
    private readonly now: () => number = Date.now,
    private readonly ttlMs = 10 * 60_000,
    private readonly failureTtlMs = 60_000,
  ) {}

  get(company: string, provider: ProviderName, credentials: readonly C[]): Promise<ServedList | null> {
    const credential = credentials[0];
    if (!credential) return Promise.resolve(null);
    const key = `${company}\u0000${provider}\u0000${credential.baseUrl}`;
    const now = this.now();
    const hit = this.cache.get(key);
    if (hit && hit.expiresAt > now) return hit.list;
    const list = this.fetcher(credential).then(
      (ids) => (ids === null ? null : index(ids)),
      () => null,
    );
    this.cache.set(key, { expiresAt: now + this.failureTtlMs, list });
    void list.then((value) => {
      if (value !== null && this.cache.get(key)?.list === list) this.cache.set(key, { expiresAt: this.now() + this.ttlMs, list });
    });
    return list;
  }

  clear(): void {
    this.cache.clear();
  }
}

function index(ids: readonly string[]): ServedList {
  const byNormalized = new Map<string, string>();
  for (const id of ids) if (!byNormalized.has(normalizeModelId(id))) byNormalized.set(normalizeModelId(id), id);
  return { ids, byNormalized };
}
