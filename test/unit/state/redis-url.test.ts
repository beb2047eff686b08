import { describe, expect, it } from 'vitest';
import { parseRedisUrl, RedisUrlError } from '../../../src/state/redis/redis-url.js';

describe('parseRedisUrl', () => {
  it('reads one instance with user, password, TLS and database', () => {
    expect(parseRedisUrl('rediss://gw:p%40ss%2Fword@redis.example:6380/2')).toEqual({
      topology: 'single',
      tls: true,
      username: 'gw',
      password: 'p@ss/word',
      hosts: [{ host: 'redis.example', port: 6380 }],
      db: 2,
      sentinelName: null,
      sentinelAuth: false,
    });
    expect(parseRedisUrl('redis://127.0.0.1')).toMatchObject({ topology: 'single', hosts: [{ host: '127.0.0.1', port: 6379 }], db: 0, username: null, password: null });
    expect(parseRedisUrl('redis://[::1]:7000').hosts).toEqual([{ host: '::1', port: 7000 }]);
  });

  it('reads several comma-separated seeds as Redis Cluster (WHATWG URL refuses them with "Invalid URL")', () => {
    expect(() => new URL('redis://10.0.0.1:7000,10.0.0.2:7001')).toThrow(/Invalid URL/);
    const url = parseRedisUrl('redis://:secret@10.0.0.1:7000,10.0.0.2:7001,redis-2.svc');
    expect(url.topology).toBe('cluster');
    expect(url.password).toBe('secret');
    expect(url.hosts).toEqual([
      { host: '10.0.0.1', port: 7000 },
      { host: '10.0.0.2', port: 7001 },
      { host: 'redis-2.svc', port: 6379 },
    ]);
    expect(parseRedisUrl('redis://10.0.0.1:7000?cluster=true').topology).toBe('cluster');
  });

  it('reads Sentinel from redis-sentinel:// (primary name in the path) and from ?sentinel=', () => {
    expect(parseRedisUrl('redis-sentinel://:pw@s1,s2:26380,s3/mymaster?db=3&sentinelAuth=true')).toEqual({
      topology: 'sentinel',
      tls: false,
      username: null,
      password: 'pw',
      hosts: [
        { host: 's1', port: 26379 },
        { host: 's2', port: 26380 },
        { host: 's3', port: 26379 },
      ],
      db: 3,
      sentinelName: 'mymaster',
      sentinelAuth: true,
    });
    const query = parseRedisUrl('rediss://s1:26379,s2:26379/1?sentinel=primary-a');
    expect(query).toMatchObject({ topology: 'sentinel', tls: true, sentinelName: 'primary-a', db: 1, sentinelAuth: false });
    expect(parseRedisUrl('rediss-sentinel://s1/p').tls).toBe(true);
  });

  it('a password with an unescaped slash still ends at the last @', () => {
    expect(parseRedisUrl('redis://:a/b@host:1').password).toBe('a/b');
  });

  it.each([
    ['http://h:1', /must start with redis:\/\//],
    ['redis:/h', /must start with redis:\/\//],
    ['redis://h:1,', /host 2 of the Redis URL/],
    ['redis://h:99999', /invalid port 99999/],
    ['redis://h:1/x', /database number/],
    ['redis://h:1,h:2/1', /Cluster has only database 0/],
    ['redis-sentinel://s1:26379', /must name the primary/],
    ['redis://s1?sentinel=a&cluster=true', /both Sentinel and Cluster/],
    ['redis-sentinel://s1/a?sentinel=b', /in the path, not in \?sentinel=/],
    ['redis://:%zz@h', /malformed %-escape/],
  ])('refuses %s with a reason', (url, reason) => {
    expect(() => parseRedisUrl(url)).toThrow(RedisUrlError);
    expect(() => parseRedisUrl(url)).toThrow(reason);
  });

  it('never puts the password into an error', () => {
    for (const url of ['redis://:topsecret@bad host:1', 'redis://:topsecret@h:1/notadb', 'redis://user:topsecret@h:1,', 'redis-sentinel://:topsecret@s1']) {
      let message = '';
      try {
        parseRedisUrl(url);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).not.toBe('');
      expect(message).not.toContain('topsecret');
    }
  });
});
