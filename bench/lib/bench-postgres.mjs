// A throwaway PostgreSQL server for the bench scripts that need one (the Debian package's binaries), on a free port.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { connectPostgres } = await import(join(ROOT, 'dist', 'usage/postgres/connect.js'));

export const children = [];
export const dirs = [];
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

export const freePort = () =>
  new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
export const waitPort = async (port) => {
  for (let i = 0; i < 1200; i++) {
    const ok = await new Promise((r) => {
      const c = createConnection(port, '127.0.0.1');
      c.once('connect', () => (c.end(), r(true)));
      c.once('error', () => (c.destroy(), r(false)));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nothing listened on ${port}`);
};

function pgBin() {
  for (const d of ['/usr/local/bin', '/usr/bin']) if (existsSync(join(d, 'initdb'))) return d;
  const base = '/usr/lib/postgresql';
  const v = existsSync(base) ? readdirSync(base).sort((a, b) => Number(b) - Number(a))[0] : undefined;
  if (v) return join(base, v, 'bin');
  throw new Error('PostgreSQL not installed (make test-deps installs the Debian postgresql package)');
}

/**
 * The environment and initdb arguments for a server in `locale` (for example en_US.UTF-8, what many installs have), or for
 * initdb's default (the environment's) when none is asked for. A locale this machine lacks is compiled with localedef
 * into the server's own directory (glibc reads LOCPATH), so nothing outside it changes.
 */
function localeSetup(locale, dir, ids) {
  if (locale === undefined) return { env: process.env, args: [] };
  const have = spawnSync('locale', ['-a'], { encoding: 'utf8' }).stdout.split('\n');
  const norm = (l) => l.toLowerCase().replace(/utf-?8/, 'utf8');
  if (have.some((l) => norm(l) === norm(locale))) return { env: process.env, args: [`--locale=${locale}`] };
  const m = /^([A-Za-z_]+)\.(UTF-?8)$/i.exec(locale);
  if (!m) throw new Error(`locale ${locale} is not installed and only <language_TERRITORY>.UTF-8 can be compiled here`);
  const path = join(dir, 'locales');
  mkdirSync(path, { mode: 0o755 });
  const made = spawnSync('localedef', ['-i', m[1], '-f', 'UTF-8', join(path, locale)], { encoding: 'utf8' });
  if (made.status !== 0 && made.status !== 1) throw new Error(`localedef ${locale}: ${made.stderr}`);
  if (ids.uid !== undefined) spawnSync('chown', ['-R', `${ids.uid}:${ids.gid}`, path]);
  return { env: { ...process.env, LOCPATH: path }, args: [`--locale=${locale}`] };
}

/** `locale`: the server's locale (initdb --locale); by default initdb's, taken from the environment. */
export async function startPostgres({ locale } = {}) {
  const bin = pgBin();
  let ids = {};
  if (process.getuid?.() === 0) {
    const f = spawnSync('getent', ['passwd', 'postgres'], { encoding: 'utf8' }).stdout.split(':');
    ids = { uid: Number(f[2]), gid: Number(f[3]) };
  }
  const dir = mkdtempSync(join(tmpdir(), 'gw-bench-console-pg-'));
  dirs.push(dir);
  const password = randomBytes(8).toString('hex');
  writeFileSync(join(dir, 'pw'), `${password}\n`);
  if (ids.uid !== undefined) {
    chownSync(dir, ids.uid, ids.gid);
    chownSync(join(dir, 'pw'), ids.uid, ids.gid);
  }
  chmodSync(dir, 0o700);
  const { env, args: localeArgs } = localeSetup(locale, dir, ids);
  const init = spawnSync(join(bin, 'initdb'), ['-D', join(dir, 'data'), '-U', 'gw', '--auth=scram-sha-256', `--pwfile=${join(dir, 'pw')}`, '-E', 'UTF8', ...localeArgs, '--no-sync'], {
    cwd: dir,
    env,
    encoding: 'utf8',
    ...ids,
  });
  if (init.status !== 0) throw new Error(init.stderr);
  const port = await freePort();
  // PostgreSQL's defaults otherwise (shared_buffers 128 MB): what a small install has.
  const server = spawn(join(bin, 'postgres'), ['-D', join(dir, 'data'), '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1'], { cwd: dir, env, stdio: 'ignore', ...ids });
  children.push(server);
  await waitPort(port);
  for (let i = 0; ; i++) {
    const pool = connectPostgres(`postgres://gw:${password}@127.0.0.1:${port}/postgres`);
    try {
      await pool.query('SELECT 1');
      return { pool, password, url: `postgres://gw:${password}@127.0.0.1:${port}/postgres`, urlWithoutPassword: `postgres://gw@127.0.0.1:${port}/postgres`, pid: server.pid };
    } catch (e) {
      await pool.end();
      if (i > 300) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
