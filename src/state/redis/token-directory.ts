import type { CompanyRecords, TokenRecord } from '../records.js';
import type { SecretBox } from '../secret-box.js';
import type { TokenDirectory } from '../state.js';
import { decodeCompany } from './company-codec.js';
import type { RedisClient } from './connect.js';
import { keys } from './keys.js';

/** A token key's value: a live record with the epoch that wrote it, or a revocation tombstone. */
interface StoredToken extends TokenRecord {
  readonly epoch?: number;
  readonly revoked?: boolean;
}

/**
 * Token lookups hit Redis on every request, so a revocation takes effect on
 * the very next request with no cache to go stale; company records are
 * cached per process keyed by their exact stored text.
 */
export class RedisTokenDirectory implements TokenDirectory {
  private readonly parsed = new Map<string, { raw: string; records: CompanyRecords }>();

  constructor(
    private readonly redis: RedisClient,
    private readonly box: SecretBox,
  ) {}

  async findToken(hash: string): Promise<TokenRecord | null> {
    const raw = await this.redis.get(keys.token(hash));
    if (raw === null) return null;
    const stored = JSON.parse(raw) as StoredToken;
    if (stored.revoked) return null;
    return { hash: stored.hash, company: stored.company, name: stored.name, address: stored.address };
  }

  async getCompany(company: string): Promise<CompanyRecords | null> {
    const raw = await this.redis.get(keys.records(company));
    if (raw === null) return null;
    const cached = this.parsed.get(company);
    if (cached && cached.raw === raw) return cached.records;
    const records = decodeCompany(raw, this.box);
    this.parsed.set(company, { raw, records });
    return records;
  }

  /** The company is gone: its cached records would never be looked at again. */
  forget(company: string): void {
    this.parsed.delete(company);
  }

  async loaded(): Promise<boolean> {
    return (await this.redis.exists(keys.generation())) === 1;
  }

  async generation(): Promise<string | null> {
    return this.redis.get(keys.generation());
  }
}
