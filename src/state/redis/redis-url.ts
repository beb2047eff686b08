/**
 * A Redis URL as the gateway accepts it. WHATWG `URL` refuses an authority of
 * several comma-separated hosts (`Invalid URL`), which is exactly how Redis
 * Cluster seeds and Sentinel addresses are written, so the URL is split here
 * by hand and every mistake is named.
 *
 * - `redis://[user:password@]host:port[/db]`: one instance.
 * - `redis://…?cluster=true`, or several hosts: Redis Cluster (the hosts are seeds).
 * - `redis-sentinel://[user:password@]s1:26379,s2:26379/<primary name>[?db=N]`,
 *   or `redis://s1:26379,…?sentinel=<primary name>`: the hosts are Sentinels
 *   watching the named primary.
 *   Sentinels without a password of their own are the usual setup; add
 *   `?sentinelAuth=true` when they take the same user and password as Redis.
 * - `rediss://` and `rediss-sentinel://` speak TLS (to the sentinels too).
 */
export type RedisTopology = 'single' | 'cluster' | 'sentinel';

export interface RedisEndpoint {
  readonly host: string;
  readonly port: number;
}

export interface RedisUrl {
  readonly topology: RedisTopology;
  readonly tls: boolean;
  readonly username: string | null;
  readonly password: string | null;
  readonly hosts: readonly RedisEndpoint[];
  readonly db: number;
  /** The primary's name the Sentinels know it by (Sentinel only). */
  readonly sentinelName: string | null;
  /** `?sentinelAuth=true`: the sentinels take the same user and password as the data nodes. */
  readonly sentinelAuth: boolean;
}

export class RedisUrlError extends Error {}

const SCHEMES: Record<string, { tls: boolean; sentinel: boolean }> = {
  'redis:': { tls: false, sentinel: false },
  'rediss:': { tls: true, sentinel: false },
  'redis-sentinel:': { tls: false, sentinel: true },
  'rediss-sentinel:': { tls: true, sentinel: true },
};

/** Never echoes the URL itself: it may hold a password. */
export function parseRedisUrl(url: string): RedisUrl {
  const schemeEnd = url.indexOf('//');
  const scheme = schemeEnd > 0 ? url.slice(0, schemeEnd) : '';
  const kind = SCHEMES[scheme];
  if (!kind) throw new RedisUrlError('the Redis URL must start with redis://, rediss://, redis-sentinel:// or rediss-sentinel://');
  let rest = url.slice(schemeEnd + 2);
  const hashAt = rest.indexOf('#');
  if (hashAt >= 0) rest = rest.slice(0, hashAt);
  const queryAt = rest.indexOf('?');
  const query = new URLSearchParams(queryAt >= 0 ? rest.slice(queryAt + 1) : '');
  if (queryAt >= 0) rest = rest.slice(0, queryAt);
  let username: string | null = null;
  let password: string | null = null;
  // The last '@' ends the user information even when a password holds an unescaped '/'.
  const at = rest.lastIndexOf('@');
  if (at >= 0) {
    const userinfo = rest.slice(0, at);
    rest = rest.slice(at + 1);
    const colon = userinfo.indexOf(':');
    username = decode(colon >= 0 ? userinfo.slice(0, colon) : userinfo) || null;
    password = colon >= 0 ? decode(userinfo.slice(colon + 1)) || null : null;
  }
  const slashAt = rest.indexOf('/');
  const path = slashAt >= 0 ? rest.slice(slashAt + 1) : '';
  const authority = slashAt >= 0 ? rest.slice(0, slashAt) : rest;
  const hosts = authority.split(',').map((h, i) => endpoint(h, i, kind.sentinel ? 26379 : 6379));
  const sentinelQuery = query.get('sentinel');
  const sentinel = kind.sentinel || (sentinelQuery !== null && sentinelQuery !== '');
  const cluster = query.get('cluster') === 'true' || (!sentinel && hosts.length > 1);
  if (sentinel && query.get('cluster') === 'true') throw new RedisUrlError('the Redis URL asks for both Sentinel and Cluster; choose one');
  let db = 0;
  let sentinelName: string | null = null;
  if (sentinel) {
    sentinelName = kind.sentinel ? decode(path) : (sentinelQuery as string);
    if (kind.sentinel && sentinelQuery !== null) throw new RedisUrlError('a redis-sentinel:// URL names its primary in the path, not in ?sentinel=');
    if (!sentinelName) throw new RedisUrlError('a Sentinel URL must name the primary the sentinels watch: redis-sentinel://host:26379,…/<name> or ?sentinel=<name>');
    db = dbNumber(query.get('db') ?? (kind.sentinel ? '' : path));
  } else {
    db = dbNumber(path);
  }
  if (cluster && db !== 0) throw new RedisUrlError('Redis Cluster has only database 0; remove the database from the URL');
  const sentinelAuth = query.get('sentinelAuth') === 'true';
  return { topology: sentinel ? 'sentinel' : cluster ? 'cluster' : 'single', tls: kind.tls, username, password, hosts, db, sentinelName, sentinelAuth };
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new RedisUrlError('the Redis URL has a malformed %-escape in its user, password or name');
  }
}

function endpoint(text: string, index: number, defaultPort: number): RedisEndpoint {
  const match = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(?::(\d{1,5}))?$/.exec(text);
  if (!match) throw new RedisUrlError(`host ${index + 1} of the Redis URL is not host or host:port (several are separated by commas)`);
  const port = match[2] === undefined ? defaultPort : Number(match[2]);
  if (port < 1 || port > 65535) throw new RedisUrlError(`the Redis URL has an invalid port ${port}`);
  const host = (match[1] as string).replace(/^\[|\]$/g, '');
  return { host, port };
}

function dbNumber(text: string): number {
  if (text === '') return 0;
  if (!/^\d{1,5}$/.test(text)) throw new RedisUrlError('the Redis URL path must be a database number');
  return Number(text);
}
