import type { CompanyRecords, TokenRecord } from '../records.js';
import type { SecretBox } from '../secret-box.js';
import type { TokenDirectory } from '../state.js';
import { decodeCompany } from './company-codec.js';
import type { RedisClient } from './connect.js';
import { keys } from './keys.js';
import { checkedVersion, parseRecord, UnreadableRecord, type UnreadableListener } from '../record-version.js';

/** A token key's value: a live record with the epoch that wrote it, or a revocation tombstone. */
interface StoredToken extends TokenRecord {
  readonly v?: number;
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
    private readonly onUnreadable: UnreadableListener = () => {},
  ) {}

  /** A token record of a newer schema or a broken one throws (the request fails closed), never reads as absent or live. */
  async findToken(hash: string): Promise<TokenRecord | null> {
    const key = keys.token(hash);
    const raw = await this.redis.get(key);
    if (raw === null) return null;
    // Named in logs by the start of its hash only: enough to find it, nothing a caller could use.
    const shown = `${key.slice(0, 'gw:token:sha256:'.length + 12)}…`;
    return this.reported(() => {
      const stored = parseRecord(raw, 'token', shown);
      checkedVersion(stored, 'token', shown);
      const t = stored as StoredToken;
      if (t.revoked === true) return null;
      if (typeof t.hash !== 'string' || typeof t.company !== 'string' || typeof t.name !== 'string' || typeof t.address !== 'string') {
        throw new UnreadableRecord('token', shown, 'invalid', t.v ?? 1);
      }
      return { hash: t.hash, company: t.company, name: t.name, address: t.address };
    });
  }

  async getCompany(company: string): Promise<CompanyRecords | null> {
    const key = keys.records(company);
    const raw = await this.redis.get(key);
    if (raw === null) return null;
    const cached = this.parsed.get(company);
    if (cached && cached.raw === raw) return cached.records;
    const records = this.reported(() => decodeCompany(raw, this.box, key));
    this.parsed.set(company, { raw, records });
    return records;
  }

  private reported<T>(read: () => T): T {
    try {
      return read();
    } catch (error) {
      if (error instanceof UnreadableRecord) this.onUnreadable(error);
      throw error;
    }
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
