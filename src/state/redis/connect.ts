import { Cluster, Redis, type RedisOptions } from 'ioredis';

export type RedisClient = Redis | Cluster;

/**
 * One connection per process. Commands fail at once while Redis is away
 * (no offline queue), so requests fail closed with 503 instead of hanging;
 * ioredis keeps reconnecting in the background and the gateway recovers
 * without a restart. `rediss://` gives TLS; `?cluster=true` (or several
 * comma-separated hosts) gives Redis Cluster.
 */
export interface RedisConnectOptions {
  /** PEM of a CA to trust for rediss:// besides the system's (a private CA, as in-cluster Redis often uses). */
  readonly tlsCa?: string;
  /** Overrides a password in the URL. */
  readonly password?: string;
}

export function connectRedis(url: string, connect: RedisConnectOptions = {}): RedisClient {
  const parsed = new URL(url);
  const tls = parsed.protocol === 'rediss:';
  const options: RedisOptions = {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 2_000,
    connectTimeout: 2_000,
    retryStrategy: (times) => Math.min(50 * times, 1_000),
    lazyConnect: false,
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(connect.password !== undefined ? { password: connect.password } : parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    ...(tls ? { tls: { servername: parsed.hostname, ...(connect.tlsCa ? { ca: connect.tlsCa } : {}) } } : {}),
  };
  const hosts = parsed.host.split(',');
  if (parsed.searchParams.get('cluster') === 'true' || hosts.length > 1) {
    const nodes = hosts.map((h) => {
      const [host, port] = h.split(':');
      return { host: host as string, port: Number(port ?? 6379) };
    });
    // Cluster nodes announce their own addresses; with TLS, verify them against the name in the URL.
    return new Cluster(nodes, {
      enableOfflineQueue: false,
      redisOptions: options,
      clusterRetryStrategy: (times) => Math.min(50 * times, 1_000),
      ...(tls ? { dnsLookup: (address, callback) => callback(null, address), slotsRefreshTimeout: 2_000 } : {}),
    });
  }
  const db = Number(parsed.pathname.slice(1) || '0');
  return new Redis({ ...options, host: parsed.hostname, port: Number(parsed.port || 6379), db });
}

/**
 * Connection errors are expected while Redis is away (requests fail closed meanwhile), so
 * each process reports them at most once per interval instead of once per reconnect attempt.
 */
export function logConnectionErrors(redis: RedisClient, log: (detail: string) => void, everyMs = 5_000): void {
  let lastLogged = 0;
  redis.on('error', (error: Error) => {
    if (Date.now() - lastLogged > everyMs) {
      lastLogged = Date.now();
      log(error.message);
    }
  });
}
