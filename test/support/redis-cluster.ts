import { execFileSync } from 'node:child_process';
import { startRedis, type TestRedis } from './redis-server.js';

export interface TestRedisCluster {
  /** A URL ioredis turns into a Cluster client (`?cluster=true`). */
  readonly url: string;
  readonly nodes: TestRedis[];
  destroy(): Promise<void>;
}

/** Three real redis-server masters joined into a Redis Cluster with redis-cli. */
export async function startRedisCluster(): Promise<TestRedisCluster> {
  const nodes: TestRedis[] = [];
  for (let i = 0; i < 3; i++) nodes.push(await startRedis({ args: ['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--cluster-node-timeout', '2000'] }));
  execFileSync('redis-cli', ['--cluster', 'create', ...nodes.map((n) => `127.0.0.1:${n.port}`), '--cluster-replicas', '0', '--cluster-yes'], { stdio: 'pipe' });
  for (let i = 0; i < 200; i++) {
    const ok = nodes.every((n) => execFileSync('redis-cli', ['-p', String(n.port), 'cluster', 'info'], { encoding: 'utf8' }).includes('cluster_state:ok'));
    if (ok) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `redis://127.0.0.1:${nodes[0]?.port}?cluster=true`,
    nodes,
    async destroy() {
      for (const n of nodes) await n.destroy();
    },
  };
}
