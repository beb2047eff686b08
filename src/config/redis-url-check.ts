import { parseRedisUrl, RedisUrlError, type RedisTopology } from '../state/redis/redis-url.js';
import { envNumber } from './env-settings.js';

/** Adds why `url` cannot be used to `problems`, so a bad URL is refused at start with the reason, not by the first connection. */
export function checkRedisUrl(url: string, problems: string[]): RedisTopology | null {
  try {
    return parseRedisUrl(url).topology;
  } catch (error) {
    if (!(error instanceof RedisUrlError)) throw error;
    problems.push(`--redis: ${error.message}`);
    return null;
  }
}

/** How a data plane proves its usage records reached a replica (docs/resilience.md, usage records). */
export interface RedisConfirmConfig {
  /** Replicas that must hold a record before the data plane lets it go; 0: the primary's acknowledgement is enough. */
  readonly replicas: number;
  /** WAIT's timeout per confirmation round. */
  readonly timeoutMs: number;
}

/**
 * Cluster and Sentinel exist to fail over, so they wait for one replica by
 * default; one instance has nothing to fail over to (a managed Redis with
 * hidden replicas behind one address sets GW_REDIS_CONFIRM_REPLICAS=1).
 */
export function readRedisConfirm(topology: RedisTopology | null, env: NodeJS.ProcessEnv, problems: string[]): RedisConfirmConfig {
  const replicas = envNumber(env, 'GW_REDIS_CONFIRM_REPLICAS', problems, { fallback: topology === 'cluster' || topology === 'sentinel' ? 1 : 0 });
  const timeoutMs = envNumber(env, 'GW_REDIS_CONFIRM_TIMEOUT_MS', problems);
  return Object.freeze({ replicas, timeoutMs });
}
