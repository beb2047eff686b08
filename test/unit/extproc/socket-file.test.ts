import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { reclaimStaleSocket, SocketInUseError } from '../../../src/extproc/socket-file.js';

const dir = mkdtempSync(join(tmpdir(), 'gw-socket-'));
let n = 0;
const socketPath = (): string => join(dir, `s${++n}.sock`);
const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** A socket file nobody listens on: what a processor killed with SIGKILL leaves behind. */
async function staleSocket(path: string): Promise<void> {
  const child = spawn(process.execPath, ['-e', `require('node:net').createServer().listen(${JSON.stringify(path)}, () => console.log('up'))`], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('exit', resolve));
}

describe('reclaimStaleSocket', () => {
  it('does nothing when no file is there', async () => {
    expect(await reclaimStaleSocket(socketPath())).toBe(false);
  });

  it('removes a socket file nobody serves and says so', async () => {
    const path = socketPath();
    await staleSocket(path);
    expect(existsSync(path)).toBe(true);
    expect(await reclaimStaleSocket(path)).toBe(true);
    expect(existsSync(path)).toBe(false);
  });

  it('refuses to take over a socket a live process serves, and leaves it', async () => {
    const path = socketPath();
    const server = createServer();
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(path, resolve));
    const error = await reclaimStaleSocket(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SocketInUseError);
    expect((error as Error).message).toContain('served by another running process');
    expect(existsSync(path)).toBe(true);
  });

  it('refuses to remove a file that is not a socket', async () => {
    const path = socketPath();
    writeFileSync(path, 'data');
    await expect(reclaimStaleSocket(path)).rejects.toThrow(/exists and is not a socket/);
    expect(existsSync(path)).toBe(true);
  });
});
