import { Redis } from 'ioredis';
import type { TestRedis } from './redis-server.js';

/** What the failover tests share besides the checker's judgements: the seeded load's dice, the lag maker, metrics. */

/** A small seeded generator (mulberry32): the same seed gives the same mix of tokens, planes and streaming each run. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Fills a stopped replica's socket buffers so what follows stays in its primary's memory (see
 * test/integration/state/replicated-redis.test.ts): 48 MiB under the company's hash tag, on its node.
 */
export async function fillReplicationBuffers(primary: TestRedis, company: string): Promise<void> {
  const raw = new Redis(primary.url);
  const chunk = 'x'.repeat(1024 * 1024);
  for (let i = 0; i < 48; i++) await raw.set(`gw:{${company}}:ballast:${i}`, chunk);
  raw.disconnect();
}

/** A metric of a process's admin listener, summed over its labelled series; 0 when declared without series yet, NaN when not declared. */
export async function metricSum(adminUrl: string, name: string): Promise<number> {
  const text = await (await fetch(`${adminUrl}/metrics`)).text();
  const lines = text.split('\n').filter((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  if (lines.length === 0) return text.includes(`# TYPE ${name} `) ? 0 : NaN;
  return lines.reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
}
