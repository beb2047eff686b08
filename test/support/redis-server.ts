import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { waitForPort } from './wait-for-port.js';

/**
 * A real redis-server on a free loopback port in a temp directory
 * (`make test-deps` installs the Debian package). Append-only persistence
 * is on so a restart keeps the data, as the chart's bundled Redis does.
 */
export interface TestRedis {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
  kill(): Promise<void>;
  start(): Promise<void>;
  /** SIGSTOP: the process holds its sockets but answers nothing (a hung or partitioned node). */
  pause(): void;
  /** SIGCONT after pause(). */
  resume(): void;
  destroy(): Promise<void>;
}

export interface RedisOptions {
  readonly password?: string;
  /** Serve TLS only, with this certificate and key. */
  readonly tls?: { certFile: string; keyFile: string; caFile: string };
  /** Extra redis-server arguments (cluster mode, say). */
  readonly args?: string[];
}

export async function startRedis(options: RedisOptions = {}): Promise<TestRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'gw-redis-'));
  let child: ChildProcess | null = null;
  const args = ['--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'always', '--protected-mode', 'no', '--loglevel', 'warning'];
  if (options.tls) {
    args.push(
      '--port',
      '0',
      '--tls-port',
      String(port),
      '--tls-cert-file',
      options.tls.certFile,
      '--tls-key-file',
      options.tls.keyFile,
      '--tls-ca-cert-file',
      options.tls.caFile,
      '--tls-auth-clients',
      'no',
    );
  } else {
    args.push('--port', String(port));
  }
  if (options.password) args.push('--requirepass', options.password);
  args.push(...(options.args ?? []));
  const launch = async (): Promise<void> => {
    child = spawn('redis-server', args, { stdio: 'ignore', cwd: dir });
    await waitForPort(port, 'redis-server', 10_000, 25);
  };
  const halt = async (signal: NodeJS.Signals): Promise<void> => {
    const c = child as ChildProcess | null;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => c.once('exit', () => resolve()));
    c.kill(signal);
    await exited;
    child = null;
  };
  await launch();
  // One exit hook per server: a Cluster with replicas and a Sentinel setup in one file start more than Node's default ten.
  process.setMaxListeners(Math.max(process.getMaxListeners(), 64));
  process.once('exit', () => (child as ChildProcess | null)?.kill('SIGKILL'));
  const auth = options.password ? `:${encodeURIComponent(options.password)}@` : '';
  return {
    url: `${options.tls ? 'rediss' : 'redis'}://${auth}127.0.0.1:${port}`,
    port,
    stop: () => halt('SIGTERM'),
    kill: () => halt('SIGKILL'),
    start: launch,
    pause: () => (child as ChildProcess | null)?.kill('SIGSTOP'),
    resume: () => (child as ChildProcess | null)?.kill('SIGCONT'),
    async destroy() {
      (child as ChildProcess | null)?.kill('SIGCONT');
      await halt('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
