import { Cluster, Redis, type RedisOptions } from 'ioredis';
import { parseRedisUrl, type RedisTopology } from './redis-url.js';
import { followSwitchMaster } from './switch-master.js';

export type RedisClient = Redis | Cluster;

/**
 * One connection per process. Commands fail at once while Redis is away
 * (no offline queue), so requests fail closed with 503 instead of hanging;
 * ioredis keeps reconnecting in the background and the gateway recovers
 * without a restart. The URL picks one instance, Redis Cluster or a primary
 * watched by Sentinel (src/state/redis/redis-url.ts); `rediss` gives TLS.
 */
export interface RedisConnectOptions {
  /** PEM of a CA to trust for rediss:// besides the system's (a private CA, as in-cluster Redis often uses). */
  readonly tlsCa?: string;
  /** Overrides a password in the URL. */
  readonly password?: string;
}

/** How often a Cluster client asks for the slot map even when nothing failed: a promoted replica is found within this. */
export const CLUSTER_SLOTS_REFRESH_MS = 1_000;

export function connectRedis(url: string, connect: RedisConnectOptions = {}): RedisClient {
  const parsed = parseRedisUrl(url);
  const password = connect.password ?? parsed.password;
  const firstHost = parsed.hosts[0]?.host ?? '127.0.0.1';
  const tls = parsed.tls ? { servername: firstHost, ...(connect.tlsCa ? { ca: connect.tlsCa } : {}) } : undefined;
  const options: RedisOptions = {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 2_000,
    connectTimeout: 2_000,
    retryStrategy: (times) => Math.min(50 * times, 1_000),
    // A primary that was paused, replaced and resumed is a replica now, on the same socket: a write it refuses
    // means this connection must find the primary again (Sentinel asks the sentinels; Cluster gets MOVED anyway).
    reconnectOnError: (error) => error.message.startsWith('READONLY'),
    lazyConnect: false,
    ...(parsed.username ? { username: parsed.username } : {}),
    ...(password ? { password } : {}),
    ...(tls ? { tls } : {}),
  };
  if (parsed.topology === 'cluster') {
    // Cluster nodes announce their own addresses; with TLS, verify them against the name in the URL.
    return new Cluster(
      parsed.hosts.map((h) => ({ host: h.host, port: h.port })),
      {
        enableOfflineQueue: false,
        redisOptions: options,
        clusterRetryStrategy: (times) => Math.min(50 * times, 1_000),
        slotsRefreshInterval: CLUSTER_SLOTS_REFRESH_MS,
        slotsRefreshTimeout: 1_000,
        ...(tls ? { dnsLookup: (address, callback) => callback(null, address) } : {}),
      },
    );
  }
  if (parsed.topology === 'sentinel') {
    const name = parsed.sentinelName as string;
    const sentinels = parsed.hosts.map((h) => ({ host: h.host, port: h.port }));
    const sentinelAuth = {
      ...(parsed.sentinelAuth && parsed.username ? { sentinelUsername: parsed.username } : {}),
      ...(parsed.sentinelAuth && password ? { sentinelPassword: password } : {}),
    };
    const client = new Redis({
      ...options,
      db: parsed.db,
      name,
      sentinels,
      // Followed by followSwitchMaster instead: ioredis's detector drops a connection already on the promoted node.
      failoverDetector: false,
      sentinelRetryStrategy: (times) => Math.min(50 * times, 1_000),
      sentinelCommandTimeout: 1_000,
      ...sentinelAuth,
      ...(tls ? { enableTLSForSentinelMode: true, sentinelTLS: tls } : {}),
    });
    // Subscribes to the sentinels' +switch-master, so a promotion is acted on when announced, not when a command times out.
    const follower = followSwitchMaster(client, {
      name,
      sentinels,
      connection: {
        connectTimeout: 2_000,
        retryStrategy: (times) => Math.min(50 * times, 1_000),
        ...(sentinelAuth.sentinelUsername ? { username: sentinelAuth.sentinelUsername } : {}),
        ...(sentinelAuth.sentinelPassword ? { password: sentinelAuth.sentinelPassword } : {}),
        ...(tls ? { tls } : {}),
      },
    });
    return reopenWhenEnded(client, () => follower.close());
  }
  const only = parsed.hosts[0] as { host: string; port: number };
  return reopenWhenEnded(new Redis({ ...options, host: only.host, port: only.port, db: parsed.db }));
}

/** How long a connection ioredis gave up on waits before it is opened again. */
export const REOPEN_AFTER_MS = 1_000;

/**
 * ioredis stops reconnecting for good (status `end`) when a connect attempt is cut short, as when a
 * reconnect is asked for (the Sentinel failover detector's, or a READONLY reply's) while the sentinels
 * are still being asked for the primary: a data plane would then never write usage again. A connection
 * this process did not close itself is opened again, every REOPEN_AFTER_MS until it connects.
 * `onClosed` runs once, when this process closes it (what was opened beside it closes with it).
 */
export function reopenWhenEnded(client: Redis, onClosed: () => void = () => undefined): Redis {
  let closing = false;
  const disconnect = client.disconnect.bind(client);
  client.disconnect = (reconnect = false): void => {
    if (!reconnect && !closing) {
      closing = true;
      onClosed();
    }
    disconnect(reconnect);
  };
  const quit = client.quit.bind(client) as (...args: unknown[]) => Promise<'OK'>;
  (client as unknown as { quit: (...args: unknown[]) => Promise<'OK'> }).quit = (...args) => {
    if (!closing) {
      closing = true;
      onClosed();
    }
    return quit(...args);
  };
  client.on('end', () => {
    if (closing) return;
    const timer = setTimeout(() => {
      if (!closing && client.status === 'end') client.connect().catch(() => undefined);
    }, REOPEN_AFTER_MS);
    timer.unref();
  });
  return client;
}

/** Which kind of Redis the URL names; replication guarantees depend on it (docs/resilience.md). */
export function redisTopology(url: string): RedisTopology {
  return parseRedisUrl(url).topology;
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
