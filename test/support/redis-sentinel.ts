import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { startRedis, type TestRedis } from './redis-server.js';
import { waitForPort } from './wait-for-port.js';

export const SENTINEL_PRIMARY_NAME = 'gwprimary';

export interface TestSentinelSetup {
  /** `redis-sentinel://127.0.0.1:p1,…/gwprimary`. */
  readonly url: string;
  readonly nodes: TestRedis[];
  readonly sentinelPorts: number[];
  /** The data node the sentinels name as primary now. */
  primary(): TestRedis;
  /** Resolves once the sentinels agree on a primary that answers as one and every other live node replicates from it. */
  settled(timeoutMs?: number): Promise<void>;
  destroy(): Promise<void>;
}

function cli(port: number, ...args: string[]): string {
  return execFileSync('redis-cli', ['-p', String(port), ...args], { encoding: 'utf8', timeout: 2_000, stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * A primary, `replicas` replicas and three sentinels, all real processes on
 * loopback. A primary silent for 1 s is down (quorum 2), so a failover
 * takes a few seconds.
 */
export async function startSentinelSetup(options: { replicas?: number } = {}): Promise<TestSentinelSetup> {
  const primary = await startRedis();
  const nodes = [primary];
  for (let i = 0; i < (options.replicas ?? 2); i++) nodes.push(await startRedis({ args: ['--replicaof', '127.0.0.1', String(primary.port)] }));
  const dir = mkdtempSync(join(tmpdir(), 'gw-sentinel-'));
  const sentinels: ChildProcess[] = [];
  const sentinelPorts: number[] = [];
  for (let i = 0; i < 3; i++) {
    const port = await freePort();
    const file = join(dir, `sentinel-${i}.conf`);
    writeFileSync(
      file,
      [
        `port ${port}`,
        'bind 127.0.0.1',
        `dir ${dir}`,
        `sentinel monitor ${SENTINEL_PRIMARY_NAME} 127.0.0.1 ${primary.port} 2`,
        `sentinel down-after-milliseconds ${SENTINEL_PRIMARY_NAME} 1000`,
        `sentinel failover-timeout ${SENTINEL_PRIMARY_NAME} 5000`,
        `sentinel parallel-syncs ${SENTINEL_PRIMARY_NAME} 2`,
        '',
      ].join('\n'),
    );
    const child = spawn('redis-server', [file, '--sentinel'], { stdio: 'ignore', cwd: dir });
    process.once('exit', () => child.kill('SIGKILL'));
    sentinels.push(child);
    sentinelPorts.push(port);
    await waitForPort(port, 'redis-sentinel', 10_000, 25);
  }
  const setup: TestSentinelSetup = {
    url: `redis-sentinel://${sentinelPorts.map((p) => `127.0.0.1:${p}`).join(',')}/${SENTINEL_PRIMARY_NAME}`,
    nodes,
    sentinelPorts,
    primary() {
      const [, port] = cli(sentinelPorts[0] as number, 'sentinel', 'get-master-addr-by-name', SENTINEL_PRIMARY_NAME)
        .trim()
        .split('\n');
      const node = nodes.find((n) => n.port === Number(port));
      if (!node) throw new Error(`the sentinels name an unknown primary on port ${port}`);
      return node;
    },
    async settled(timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        try {
          const names = sentinelPorts.map((p) => cli(p, 'sentinel', 'get-master-addr-by-name', SENTINEL_PRIMARY_NAME).trim());
          const current = setup.primary();
          const agreed = names.every((n) => n === names[0]) && cli(current.port, 'info', 'replication').includes('role:master');
          const linked = nodes
            .filter((n) => n !== current)
            .every((n) => {
              try {
                const info = cli(n.port, 'info', 'replication');
                return info.includes(`master_port:${current.port}`) && info.includes('master_link_status:up');
              } catch {
                return true; // a killed or paused node is not waited for
              }
            });
          const known = sentinelPorts.every((p) => Number(/num-slaves\n(\d+)/.exec(cli(p, 'sentinel', 'master', SENTINEL_PRIMARY_NAME))?.[1] ?? 0) >= 1);
          if (agreed && linked && known) return;
        } catch {
          // a sentinel or node between states: ask again
        }
        if (Date.now() > deadline) throw new Error('the Sentinel setup did not settle');
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async destroy() {
      for (const s of sentinels) s.kill('SIGKILL');
      for (const n of nodes) await n.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await setup.settled();
  return setup;
}
