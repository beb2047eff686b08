/**
 * Builds the Go helper commands under test/go/cmd/ once and caches the
 * binaries outside the repository, keyed by a hash of the Go toolchain
 * version and every source file of the module. The first build compiles
 * go-control-plane and takes minutes on this machine; afterwards a test finds
 * the binary and starts at once. Go's own build cache (GOCACHE) makes a
 * rebuild after a source change take seconds.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

export type GoToolName = 'extproc-wire' | 'envoy-validate';

export const GO_MODULE_DIR = fileURLToPath(new URL('../go/', import.meta.url));

/** A first build may take minutes; use as the timeout of the hook that calls ensureGoTool. */
export const GO_BUILD_TIMEOUT_MS = 15 * 60_000;

export function goToolCacheDir(): string {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'model-gateway', 'go-tools');
}

const goEnv = (): NodeJS.ProcessEnv => ({
  ...process.env,
  // Never let `go` fetch another toolchain; the machine's Go is the contract.
  GOTOOLCHAIN: 'local',
  // The module's go.sum is committed; a build must not rewrite it.
  GOFLAGS: '-mod=readonly',
});

async function listSources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listSources(path)));
    else if (/\.go$|^go\.(mod|sum)$/.test(entry.name)) out.push(path);
  }
  return out.sort();
}

async function sourceKey(): Promise<string> {
  const hash = createHash('sha256');
  let version: string;
  try {
    version = (await run('go', ['version'], { env: goEnv() })).stdout;
  } catch (err) {
    throw new Error(`the Go toolchain is needed to build test/go tools (is 'go' on PATH?): ${String(err)}`);
  }
  hash.update(version);
  for (const file of await listSources(GO_MODULE_DIR)) {
    hash
      .update(relative(GO_MODULE_DIR, file))
      .update('\0')
      .update(await readFile(file))
      .update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

// Test files run in parallel forks; a directory lock keeps two of them from
// compiling go-control-plane at the same time on a 2-core machine.
async function withLock<T>(lockDir: string, body: () => Promise<T>): Promise<T> {
  const staleAfterMs = GO_BUILD_TIMEOUT_MS;
  for (;;) {
    try {
      await mkdir(lockDir);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const info = await stat(lockDir).catch(() => undefined);
      if (info && Date.now() - info.mtimeMs > staleAfterMs) await rm(lockDir, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    return await body();
  } finally {
    await rm(lockDir, { recursive: true, force: true });
  }
}

const pending = new Map<GoToolName, Promise<string>>();

/** Path of an up-to-date binary for test/go/cmd/<name>, building it if needed. */
export function ensureGoTool(name: GoToolName): Promise<string> {
  let p = pending.get(name);
  if (!p) {
    p = build(name);
    pending.set(name, p);
    p.catch(() => pending.delete(name));
  }
  return p;
}

async function build(name: GoToolName): Promise<string> {
  const dir = goToolCacheDir();
  await mkdir(dir, { recursive: true });
  const key = await sourceKey();
  const binary = join(dir, `${name}-${key}`);
  if (await exists(binary)) return binary;
  // One lock for all tools: a second build waits and then reuses Go's build
  // cache for the go-control-plane packages both tools share.
  return withLock(join(dir, 'build.lock'), async () => {
    if (await exists(binary)) return binary;
    const tmp = `${binary}.tmp-${process.pid}`;
    try {
      await run('go', ['build', '-o', tmp, `./cmd/${name}`], {
        cwd: GO_MODULE_DIR,
        env: goEnv(),
        timeout: GO_BUILD_TIMEOUT_MS,
        maxBuffer: 16 * 1024 * 1024,
      });
    } catch (err) {
      const e = err as { stderr?: string; message: string };
      throw new Error(`go build ./cmd/${name} failed: ${e.stderr || e.message}`);
    }
    await rename(tmp, binary);
    // Binaries for older sources are dead weight; keep only the current one.
    for (const entry of await readdir(dir)) {
      if (entry.startsWith(`${name}-`) && join(dir, entry) !== binary && !entry.includes('.tmp-')) {
        await rm(join(dir, entry), { force: true });
      }
    }
    return binary;
  });
}

export interface GoToolResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a built tool; a non-zero exit is a result, not an exception. */
export async function runGoTool(name: GoToolName, args: string[]): Promise<GoToolResult> {
  const binary = await ensureGoTool(name);
  try {
    const { stdout, stderr } = await run(binary, args, { maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number | string; stdout?: string; stderr?: string; message: string };
    if (typeof e.code !== 'number') throw err;
    return { code: e.code, stdout: e.stdout ?? '', stderr: e.stderr ?? e.message };
  }
}
