import { spawn } from 'node:child_process';
import { createConnection } from 'node:net';
import { describe, expect, it } from 'vitest';
import { SocketInUseError } from '../../../src/extproc/socket-file.js';
import { lockName, lockSocketPath } from '../../../src/extproc/socket-lock.js';

// The lock exists only on Linux (abstract sockets); elsewhere the last block checks that no lock is taken.
const linux = process.platform === 'linux';
let n = 0;
const path = (): string => `/tmp/gw-lock-unit-${process.pid}-${++n}.sock`;

describe('lockName', () => {
  it('is an abstract name (leading NUL) of bounded length, the same for equal resolved paths', () => {
    const name = lockName('/tmp/a/../a/x.sock');
    expect(name.startsWith('\0')).toBe(true);
    expect(name).toBe(lockName('/tmp/a/x.sock'));
    expect(lockName('/tmp/' + 'd'.repeat(500) + '/x.sock').length).toBe(name.length);
    expect(lockName('/tmp/a/y.sock')).not.toBe(name);
  });
});

describe.runIf(linux)('lockSocketPath (Linux abstract namespace)', () => {
  it('refuses a second holder of the same path and frees it on release', async () => {
    const p = path();
    const first = await lockSocketPath(p);
    await expect(lockSocketPath(p)).rejects.toBeInstanceOf(SocketInUseError);
    // Another path is independent.
    const other = await lockSocketPath(path());
    await other.release();
    await first.release();
    const again = await lockSocketPath(p);
    await again.release();
  });

  it('is freed by the kernel when its holder is killed with SIGKILL', async () => {
    const p = path();
    const name = JSON.stringify(lockName(p));
    const child = spawn(process.execPath, ['-e', `require('node:net').createServer().listen({ path: ${name} }, () => console.log('held'))`], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    await expect(lockSocketPath(p)).rejects.toBeInstanceOf(SocketInUseError);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const lock = await lockSocketPath(p);
    await lock.release();
  });

  it('closes any connection made to the lock', async () => {
    const p = path();
    const lock = await lockSocketPath(p);
    const socket = createConnection({ path: lockName(p) });
    await new Promise<void>((resolve, reject) => {
      socket.once('close', () => resolve());
      socket.once('error', reject);
    });
    await lock.release();
  });
});

describe('lockSocketPath elsewhere', () => {
  it('takes no lock where there is no abstract namespace (every call succeeds)', async () => {
    const p = path();
    const a = await lockSocketPath(p, 'darwin');
    const b = await lockSocketPath(p, 'darwin');
    await a.release();
    await b.release();
  });
});
