// Fetches the third-party parts of the precision set at bench time, each pinned
// to an exact version and checked against a pinned hash, through the package
// registries' own clients (go, npm, pip, cargo). Nothing of them is kept in
// this tree (SOURCES.md). Each fetcher returns { dir } or { error }: a machine
// without the client or the registry scores the other parts and says why.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { CACHE as BENCH_CACHE } from '../lib/options.mjs';

// The bench's own cache (GW_BENCH_CACHE), outside the repository, so that nothing fetched can end up in a commit.
const CACHE = join(BENCH_CACHE, 'precision-set');

/** Runs a client; { out } or { error } naming the command and its last words on stderr. */
function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 600_000, maxBuffer: 64 * 1024 * 1024, ...opts });
  if (r.error) return { error: `${cmd}: ${r.error.code === 'ENOENT' ? 'not installed' : r.error.message}` };
  if (r.status !== 0) {
    const why = (r.stderr || r.stdout || '').trim().split('\n').slice(-2).join(' / ');
    return { error: `${cmd} ${args.slice(0, 2).join(' ')} exited ${r.status ?? r.signal}: ${why}` };
  }
  return { out: r.stdout };
}

/**
 * An archive unpacked once into the cache: `fill(tmp)` fetches, verifies and
 * unpacks into a fresh folder that is renamed into place only when it
 * succeeded, so a failed or interrupted fetch is never read as complete.
 */
function cached(name, fill) {
  const dir = join(CACHE, name);
  if (existsSync(join(dir, '.verified'))) return { dir };
  const tmp = `${dir}.partial`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const r = fill(tmp);
  if (r.error) {
    rmSync(tmp, { recursive: true, force: true });
    return r;
  }
  writeFileSync(join(tmp, '.verified'), '');
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  return { dir };
}

/** A Go module's source in Go's module cache; go checks it against the checksum database (go.sum) itself. */
export function goModule(module, version) {
  const r = spawnSync('go', ['mod', 'download', '-json', `${module}@${version}`], { encoding: 'utf8', timeout: 600_000, cwd: goCwd() });
  if (r.error) return { error: `go: ${r.error.code === 'ENOENT' ? 'not installed' : r.error.message}` };
  // With -json, go reports a failed download in its answer's Error field (and exits 1).
  let j = {};
  try {
    j = JSON.parse(r.stdout);
  } catch {
    // No answer to read: stderr below says why.
  }
  if (r.status === 0 && j.Dir) return { dir: j.Dir };
  return { error: `go mod download ${module}@${version}: ${j.Error ?? ((r.stderr || '').trim().split('\n').pop() || `exited ${r.status ?? r.signal}`)}` };
}

/** An npm package's tarball (npm pack), its integrity compared with the pinned one, unpacked with tar. */
export function npmPackage(name, version, integrity) {
  return cached(`npm-${name}-${version}`, (tmp) => {
    const r = run('npm', ['pack', `${name}@${version}`, '--json', '--pack-destination', tmp], { cwd: tmp });
    if (r.error) return r;
    let info;
    try {
      info = JSON.parse(r.out)[0];
    } catch {
      return { error: `npm pack ${name}@${version}: unreadable answer` };
    }
    const tgz = join(tmp, info.filename);
    const got = `sha512-${createHash('sha512').update(readFileSync(tgz)).digest('base64')}`;
    if (got !== integrity) return { error: `npm ${name}@${version}: integrity ${got} is not the pinned ${integrity}` };
    const t = run('tar', ['xzf', tgz, '-C', tmp]);
    if (t.error) return t;
    rmSync(tgz);
    return {};
  });
}

/** A wheel from PyPI (pip download with --require-hashes on the pinned sha256), unpacked with Python's zipfile. */
export function pypiWheel(name, version, sha256) {
  return cached(`pypi-${name}-${version}`, (tmp) => {
    const req = join(tmp, 'requirements.txt');
    writeFileSync(req, `${name}==${version} --hash=sha256:${sha256}\n`);
    const r = run('python3', ['-m', 'pip', 'download', '--no-deps', '--only-binary', ':all:', '--require-hashes', '-r', req, '-d', join(tmp, 'dl')]);
    if (r.error) return r;
    const wheel = `${name}-${version}-py3-none-any.whl`;
    const got = createHash('sha256')
      .update(readFileSync(join(tmp, 'dl', wheel)))
      .digest('hex');
    if (got !== sha256) return { error: `pip ${name}==${version}: sha256 ${got} is not the pinned ${sha256}` };
    const x = run('python3', ['-m', 'zipfile', '-e', join(tmp, 'dl', wheel), join(tmp, 'package')]);
    if (x.error) return x;
    rmSync(join(tmp, 'dl'), { recursive: true });
    rmSync(req);
    return {};
  });
}

/**
 * Rust crates fetched by cargo for a throwaway manifest that pins
 * them exactly; cargo checks each download against the index's checksum, and
 * the checksums it wrote to Cargo.lock are compared with the pinned ones.
 * Returns { dirs: { crate: source folder } }.
 */
export function crates(pins) {
  const ws = join(CACHE, 'cargo');
  mkdirSync(join(ws, 'src'), { recursive: true });
  writeFileSync(join(ws, 'src', 'lib.rs'), '');
  const deps = pins.map((p) => `${p.name} = "=${p.version}"`).join('\n');
  writeFileSync(join(ws, 'Cargo.toml'), `[package]\nname = "precision-set-fetch"\nversion = "0.0.0"\nedition = "2021"\npublish = false\n\n[dependencies]\n${deps}\n`);
  const f = run('cargo', ['fetch'], { cwd: ws });
  if (f.error) return f;
  const lock = readFileSync(join(ws, 'Cargo.lock'), 'utf8');
  const m = run('cargo', ['metadata', '--format-version', '1', '--offline'], { cwd: ws });
  if (m.error) return m;
  const packages = JSON.parse(m.out).packages;
  const dirs = {};
  for (const p of pins) {
    const entry = lock.split('\n\n').find((b) => b.includes(`name = "${p.name}"\nversion = "${p.version}"`));
    const sum = entry?.match(/checksum = "([0-9a-f]{64})"/)?.[1];
    if (sum !== p.sha256) return { error: `cargo ${p.name} ${p.version}: checksum ${sum ?? 'none'} is not the pinned ${p.sha256}` };
    const pkg = packages.find((x) => x.name === p.name && x.version === p.version);
    if (!pkg) return { error: `cargo ${p.name} ${p.version}: not in cargo metadata` };
    dirs[p.name] = pkg.manifest_path.replace(/\/Cargo\.toml$/, '');
  }
  return { dirs };
}

function goCwd() {
  // go mod download with a module@version argument needs no go.mod; an empty
  // folder keeps any go.mod or go.work up the tree out of it.
  const d = join(CACHE, 'go');
  mkdirSync(d, { recursive: true });
  return d;
}
