import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './free-port.js';
import { waitForPort } from './wait-for-port.js';

/**
 * A real PostgreSQL server (the distribution's `postgresql` package, which
 * `make test-deps` installs) on a free loopback port in a temp directory.
 * initdb and postgres refuse to run as root, so under root the server runs
 * as the `postgres` system user the package creates.
 */
export interface TestPostgres {
  /** postgres://gw:<password>@127.0.0.1:<port>/postgres */
  readonly url: string;
  /** The same URL without the password (for PGPASSWORD). */
  readonly urlWithoutPassword: string;
  readonly password: string;
  readonly port: number;
  /** Fast shutdown (SIGINT): the server finishes nothing further. */
  stop(): Promise<void>;
  /** Immediate shutdown (SIGQUIT): every backend quits at once and the next start runs crash recovery. */
  kill(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

const SEARCH = ['/usr/local/bin', '/usr/bin'];

/** Where initdb and postgres are: on PATH (the local/bin links) or in the package's versioned directory. */
export function postgresBinDir(): string {
  for (const dir of SEARCH) if (existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'postgres'))) return dir;
  const base = '/usr/lib/postgresql';
  if (existsSync(base)) {
    const versions = readdirSync(base)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    for (const v of versions) if (existsSync(join(base, v, 'bin', 'initdb'))) return join(base, v, 'bin');
  }
  throw new Error('PostgreSQL binaries not found (looked on /usr/local/bin, /usr/bin and /usr/lib/postgresql/*/bin): run `make test-deps` (installs the Debian postgresql package)');
}

function runAs(): { uid: number; gid: number } | null {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return null;
  const out = spawnSync('getent', ['passwd', 'postgres'], { encoding: 'utf8' });
  const fields = out.stdout.trim().split(':');
  if (out.status !== 0 || fields.length < 4) {
    throw new Error('running as root, and there is no "postgres" user to run initdb as: install the Debian postgresql package (make test-deps)');
  }
  return { uid: Number(fields[2]), gid: Number(fields[3]) };
}

/** Listening is not ready: after a crash the server answers "starting up" until recovery is done. */
async function waitForQueries(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`postgres did not accept queries: ${(error as Error).message}`);
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      await client.end().catch(() => {});
    }
  }
}

export interface PostgresOptions {
  /** fsync on (durable, as in production; the bench uses it). Off by default: tests crash processes, not the machine. */
  readonly fsync?: boolean;
}

export async function startPostgres(options: PostgresOptions = {}): Promise<TestPostgres> {
  const bin = postgresBinDir();
  const owner = runAs();
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'gw-postgres-'));
  const data = join(dir, 'data');
  const password = randomBytes(12).toString('hex');
  const pwfile = join(dir, 'pw');
  writeFileSync(pwfile, `${password}\n`);
  if (owner) {
    chownSync(dir, owner.uid, owner.gid);
    chownSync(pwfile, owner.uid, owner.gid);
  }
  chmodSync(dir, 0o700);
  const ids = owner ? { uid: owner.uid, gid: owner.gid } : {};
  const init = spawnSync(join(bin, 'initdb'), ['-D', data, '-U', 'gw', '--auth=scram-sha-256', `--pwfile=${pwfile}`, '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync'], {
    encoding: 'utf8',
    cwd: dir,
    ...ids,
  });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
  let child: ChildProcess | null = null;
  const args = ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', `fsync=${options.fsync ? 'on' : 'off'}`, '-c', 'max_connections=60'];
  const launch = async (): Promise<void> => {
    let log = '';
    const c = spawn(join(bin, 'postgres'), args, { stdio: ['ignore', 'ignore', 'pipe'], cwd: dir, ...ids });
    c.stderr?.on('data', (chunk: Buffer) => {
      if (log.length < 20_000) log += chunk.toString();
    });
    child = c;
    try {
      await waitForPort(port, 'postgres', 30_000, 50);
      await waitForQueries(`postgres://gw:${password}@127.0.0.1:${port}/postgres`);
    } catch (error) {
      throw new Error(`${(error as Error).message}: ${log}`);
    }
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
  process.once('exit', () => (child as ChildProcess | null)?.kill('SIGQUIT'));
  const base = `127.0.0.1:${port}/postgres`;
  return {
    url: `postgres://gw:${password}@${base}`,
    urlWithoutPassword: `postgres://gw@${base}`,
    password,
    port,
    stop: () => halt('SIGINT'),
    kill: () => halt('SIGQUIT'),
    start: launch,
    async destroy() {
      await halt('SIGINT');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
