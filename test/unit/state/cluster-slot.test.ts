import { describe, expect, it } from 'vitest';
import { clusterSlot } from '../../../src/state/redis/cluster-slot.js';

describe('clusterSlot', () => {
  it('matches the slots the Redis Cluster specification gives', () => {
    // Known answers of CLUSTER KEYSLOT: foo 12182, bar 5061, hello 866, the empty key 0.
    expect(clusterSlot('foo')).toBe(12182);
    expect(clusterSlot('bar')).toBe(5061);
    expect(clusterSlot('hello')).toBe(866);
    expect(clusterSlot('')).toBe(0);
    // The CLUSTER KEYSLOT page's own examples.
    expect(clusterSlot('somekey')).toBe(11058);
    expect(clusterSlot('foo{hash_tag}')).toBe(2515);
  });

  it('hashes only the first non-empty hash tag', () => {
    expect(clusterSlot('{user1000}.following')).toBe(clusterSlot('user1000'));
    expect(clusterSlot('gw:{acme}:usage')).toBe(clusterSlot('acme'));
    // An empty tag is no tag: the whole key is hashed.
    expect(clusterSlot('foo{}{bar}')).not.toBe(clusterSlot('bar'));
    expect(clusterSlot('foo{{bar}}zap')).toBe(clusterSlot('{bar'));
  });
});
