import type { RedisClient } from './connect.js';
import { ACQUIRE_LEASE, ACQUIRE_SLOT, CLAIM_TOKEN, DROP_TOKEN, RECORD_USAGE, RELEASE_RESERVATION, REMOVE_COMPANY, RENEW_ZSET_MEMBER, REPLACE_COMPANY, RESERVE_SPEND } from './scripts.js';

export type ScriptRunner = (numKeys: number, ...args: Array<string | number>) => Promise<unknown>;

/** The Lua scripts every role of the Redis state runs, each defined once on the shared connection. */
export type ScriptRunners = Readonly<Record<'lease' | 'renew' | 'slot' | 'reserve' | 'release' | 'usage' | 'claim' | 'drop' | 'replace' | 'remove', ScriptRunner>>;

export function defineScripts(redis: RedisClient): ScriptRunners {
  const define = (name: string, lua: string): ScriptRunner => {
    redis.defineCommand(name, { lua });
    const command = (redis as unknown as Record<string, (...args: Array<string | number>) => Promise<unknown>>)[name];
    if (!command) throw new Error(`script ${name} was not defined`);
    return (numKeys, ...args) => command.call(redis, numKeys, ...args);
  };
  return {
    lease: define('gwAcquireLease', ACQUIRE_LEASE),
    renew: define('gwRenewMember', RENEW_ZSET_MEMBER),
    slot: define('gwAcquireSlot', ACQUIRE_SLOT),
    reserve: define('gwReserveSpend', RESERVE_SPEND),
    release: define('gwReleaseReservation', RELEASE_RESERVATION),
    usage: define('gwRecordUsage', RECORD_USAGE),
    claim: define('gwClaimToken', CLAIM_TOKEN),
    drop: define('gwDropToken', DROP_TOKEN),
    replace: define('gwReplaceCompany', REPLACE_COMPANY),
    remove: define('gwRemoveCompany', REMOVE_COMPANY),
  };
}
