import { execFileSync } from 'node:child_process';
import { startRedis, type TestRedis } from './redis-server.js';

export interface TestRedisCluster {
  /** A URL ioredis turns into a Cluster client (`?cluster=true`). */
  readonly url: string;
  /** Every seed in the documented form: several comma-separated host:port. */
  readonly seedsUrl: string;
  readonly nodes: TestRedis[];
  /** The node serving `key`'s slot now, and its replica (null without replicas). */
  roles(key: string): { primary: TestRedis; replica: TestRedis | null };
  /** Resolves once every slot is served and every primary has a replica linked, as cluster_state:ok says. */
  settled(timeoutMs?: number): Promise<void>;
  destroy(): Promise<void>;
}

function cli(port: number, ...args: string[]): string {
  return execFileSync('redis-cli', ['-p', String(port), ...args], { encoding: 'utf8', timeout: 2_000, stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * Real redis-server primaries joined into a Redis Cluster with redis-cli,
 * each with `replicas` replicas. Failover is quick (node timeout 2 s) and a
 * replica that fell behind may still be promoted (validity factor 0), as in
 * the bad day docs/resilience.md plans for.
 */
export async function startRedisCluster(options: { replicas?: 0 | 1 } = {}): Promise<TestRedisCluster> {
  const replicas = options.replicas ?? 0;
  const nodes: TestRedis[] = [];
  const args = [
    '--cluster-enabled',
    'yes',
    '--cluster-config-file',
    'nodes.conf',
    '--cluster-node-timeout',
    '2000',
    '--cluster-replica-validity-factor',
    '0',
    '--cluster-allow-replica-migration',
    'no',
  ];
  for (let i = 0; i < 3 * (1 + replicas); i++) nodes.push(await startRedis({ args }));
  execFileSync('redis-cli', ['--cluster', 'create', ...nodes.map((n) => `127.0.0.1:${n.port}`), '--cluster-replicas', String(replicas), '--cluster-yes'], { stdio: 'pipe' });
  const live = (): TestRedis =>
    nodes.find((n) => {
      try {
        return cli(n.port, 'ping').trim() === 'PONG';
      } catch {
        return false;
      }
    }) as TestRedis;
  const byId = (): Map<string, { node: TestRedis; line: string[] }> => {
    const out = new Map<string, { node: TestRedis; line: string[] }>();
    for (const line of cli(live().port, 'cluster', 'nodes').trim().split('\n')) {
      const fields = line.split(' ');
      const port = Number((fields[1] as string).split('@')[0]?.split(':')[1]);
      const node = nodes.find((n) => n.port === port);
      if (node) out.set(fields[0] as string, { node, line: fields });
    }
    return out;
  };
  const cluster: TestRedisCluster = {
    url: `redis://127.0.0.1:${nodes[0]?.port}?cluster=true`,
    seedsUrl: `redis://${nodes.map((n) => `127.0.0.1:${n.port}`).join(',')}`,
    nodes,
    roles(key) {
      const slot = Number(cli(live().port, 'cluster', 'keyslot', key).trim());
      const table = byId();
      let primaryId = '';
      for (const [id, { line }] of table) {
        if (!(line[2] as string).includes('master') || (line[2] as string).includes('fail')) continue;
        for (const range of line.slice(8)) {
          const [from, to] = range.split('-').map(Number) as [number, number | undefined];
          if (slot >= from && slot <= (to ?? from)) primaryId = id;
        }
      }
      const primary = table.get(primaryId);
      if (!primary) throw new Error(`no primary serves slot ${slot}`);
      const replica = [...table.values()].find(({ line }) => line[3] === primaryId && !(line[2] as string).includes('fail'));
      return { primary: primary.node, replica: replica?.node ?? null };
    },
    async settled(timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const ok = nodes.every((n) => {
          try {
            const info = cli(n.port, 'cluster', 'info');
            const role = cli(n.port, 'info', 'replication');
            return info.includes('cluster_state:ok') && (!role.includes('role:slave') || role.includes('master_link_status:up'));
          } catch {
            return true; // a killed node is not waited for
          }
        });
        if (ok) return;
        if (Date.now() > deadline) throw new Error('the Redis Cluster did not settle');
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async destroy() {
      for (const n of nodes) await n.destroy();
    },
  };
  await cluster.settled();
  return cluster;
}
