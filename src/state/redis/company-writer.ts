import { createHash } from 'node:crypto';
import { Cluster, type Redis } from 'ioredis';
import type { CompanyRecords } from '../records.js';
import type { SecretBox } from '../secret-box.js';
import { FencedWrite, type CompanyWriter, type RevokedToken, type WriteFence } from '../state.js';
import { encodeCompany } from './company-codec.js';
import type { RedisClient } from './connect.js';
import { keys } from './keys.js';
import { RECORD_VERSION } from '../record-version.js';
import type { ScriptRunners } from './script-runners.js';
import type { RedisTokenDirectory } from './token-directory.js';

/**
 * The writer's side: company records, their tokens (claimed, dropped or
 * revoked one key each), the fence of the writer's leadership epoch, and
 * the generation mark.
 */
export class RedisCompanyWriter implements CompanyWriter {
  constructor(
    private readonly redis: RedisClient,
    private readonly run: ScriptRunners,
    private readonly box: SecretBox,
    private readonly directory: RedisTokenDirectory,
  ) {}

  /**
   * One fenced script writes the company's own keys (they share a Cluster
   * slot); the token keys stand alone, so each is its own small script, all
   * sent at once (one round trip for the lot, not one per token).
   */
  async replaceCompany(records: CompanyRecords, fence?: WriteFence): Promise<void> {
    const c = records.company;
    const epoch = fence?.epoch ?? -1;
    const creds = records.credentials;
    const keyArgs = [keys.fence(c), keys.records(c), keys.tokenSet(c), ...creds.map((x) => keys.fingerprint(c, x.name)), ...creds.map((x) => keys.health(c, x.name))];
    const fingerprints = creds.map((x) => createHash('sha256').update(x.secret).digest('hex').slice(0, 32));
    const result = (await this.run.replace(keyArgs.length, ...keyArgs, epoch, encodeCompany(records, this.box), creds.length, ...fingerprints, ...records.tokens.map((t) => t.hash))) as string[];
    if (result[0] === 'fenced') throw new FencedWrite(epoch, Number(result[1]));
    // Listed before its tokens go live: whoever sees a token can find its company among the companies.
    await this.redis.sadd(keys.companies(), c);
    const tokenEpoch = Math.max(epoch, 0);
    const [dropped, claims] = await Promise.all([
      Promise.all(result.slice(1).map((hash) => this.run.drop(1, keys.token(hash), c, tokenEpoch))),
      // Never take over a hash another company holds, nor one that was revoked.
      Promise.all(records.tokens.map((t) => this.run.claim(1, keys.token(t.hash), JSON.stringify({ v: RECORD_VERSION, ...t, epoch: tokenEpoch }), c, tokenEpoch))),
    ]);
    // A negative answer -(E + 1): a writer of epoch E wrote that token; this one is stale.
    const newest = Math.max(-1, ...[...dropped, ...claims].map((r) => (Number(r) < 0 ? -Number(r) - 1 : -1)));
    const claimed = records.tokens.filter((_, i) => claims[i] === 1).map((t) => t.hash);
    if (claimed.length > 0) await this.redis.sadd(keys.tokenSet(c), ...claimed);
    await this.redis.publish(keys.invalidations(), c);
    if (newest >= 0) throw new FencedWrite(tokenEpoch, newest);
  }

  async removeCompany(company: string, fence?: WriteFence): Promise<void> {
    const epoch = fence?.epoch ?? -1;
    const runtime: string[] = [];
    const raw = await this.redis.get(keys.records(company));
    if (raw !== null) {
      // What belonged to the company at run time goes with it; usage history and spend counters expire on their own.
      const stored = JSON.parse(raw) as { credentials?: Array<{ name: string }> };
      for (const credential of stored.credentials ?? []) runtime.push(keys.fingerprint(company, credential.name), keys.health(company, credential.name), keys.leases(company, credential.name));
    }
    const keyArgs = [keys.fence(company), keys.records(company), keys.tokenSet(company), ...runtime];
    const result = (await this.run.remove(keyArgs.length, ...keyArgs, epoch)) as string[];
    if (result[0] === 'fenced') throw new FencedWrite(epoch, Number(result[1]));
    await Promise.all(result.slice(1).map((hash) => this.run.drop(1, keys.token(hash), company, Math.max(epoch, 0))));
    // Sticky choices and caller slots serve only requests of live tokens, which are gone now; the
    // fingerprints, health and leases of credentials the company dropped before it went (the stored
    // records name only the last ones) go too. Spend counters stay until their window ends (their own
    // expiry): a company deleted and created again in the same window must not start its caps from zero.
    for (const pattern of [keys.sticky(company, '*'), keys.slots(company, '*'), keys.fingerprint(company, '*'), keys.health(company, '*'), keys.leases(company, '*')]) {
      const found = await this.scanKeys(pattern);
      for (let i = 0; i < found.length; i += 500) await this.redis.del(...found.slice(i, i + 500));
    }
    await this.redis.srem(keys.companies(), company);
    await this.redis.publish(keys.invalidations(), company);
    this.directory.forget(company);
  }

  /** Every key matching `pattern` (no glob characters but the trailing *); a Cluster is scanned master by master. */
  private async scanKeys(pattern: string): Promise<string[]> {
    const nodes: Redis[] = this.redis instanceof Cluster ? this.redis.nodes('master') : [this.redis];
    const found: string[] = [];
    for (const node of nodes) {
      let cursor = '0';
      do {
        const [next, batch] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
        cursor = next;
        found.push(...batch);
      } while (cursor !== '0');
    }
    return found;
  }

  async revokeTokens(revoked: readonly RevokedToken[]): Promise<void> {
    // Unconditional and idempotent: a tombstone only ever replaces a live record, never the other way round.
    await Promise.all(revoked.map((r) => this.redis.set(keys.token(r.hash), JSON.stringify({ v: RECORD_VERSION, hash: r.hash, company: r.company, name: r.name, revoked: true }))));
  }

  async markLoaded(generation: string): Promise<void> {
    await this.redis.set(keys.generation(), generation);
  }

  async listCompanies(): Promise<string[]> {
    return this.redis.smembers(keys.companies());
  }
}
