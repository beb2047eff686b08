import * as grpc from '@grpc/grpc-js';
import { existsSync, lstatSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SocketInUseError } from '../../../src/extproc/socket-file.js';
import { lockName, lockSocketPath } from '../../../src/extproc/socket-lock.js';
import { writeGatewayConfig } from '../../support/gateway-config.js';
import { spawnGw, waitForOutput, type GatewayProcess } from '../../support/gateway-process.js';

/** True once a gRPC channel to the socket becomes READY (something serves gRPC there). */
async function servesGrpc(socketPath: string): Promise<boolean> {
  const client = new grpc.Client(`unix:${socketPath}`, grpc.credentials.createInsecure());
  try {
    await new Promise<void>((resolve, reject) => client.waitForReady(Date.now() + 5000, (error) => (error ? reject(error) : resolve())));
    return true;
  } catch {
    return false;
  } finally {
    client.close();
  }
}

describe('gw extproc on a Unix socket left behind by a killed processor', () => {
  const running: GatewayProcess[] = [];
  afterEach(async () => {
    for (const p of running.splice(0)) await p.stop('SIGKILL');
  });

  function config(): { file: string; socket: string } {
    const cfg = writeGatewayConfig({ credentials: [{ name: 'vendor-key', provider: 'vendor', baseUrl: 'http://127.0.0.1:9', secret: 'sk-vendor-test' }] });
    return { file: cfg.file, socket: join(cfg.dir, 'extproc.sock') };
  }

  it('a restart on the same path comes up at once after SIGKILL left the socket file', async () => {
    const { file, socket } = config();
    const first = await spawnGw('extproc', file, { args: ['--socket', socket] });
    running.push(first);
    expect(await servesGrpc(socket)).toBe(true);
    await first.stop('SIGKILL');
    // What the container restart finds in the emptyDir: the socket file, nobody behind it.
    expect(lstatSync(socket).isSocket()).toBe(true);

    const second = await spawnGw('extproc', file, { args: ['--socket', socket] });
    running.push(second);
    expect(await servesGrpc(socket)).toBe(true);
    expect(await waitForOutput(second, 'removed a stale socket')).toContain('removed a stale socket');
  });

  it('a second instance does not take over a socket a live processor serves', async () => {
    const { file, socket } = config();
    const first = await spawnGw('extproc', file, { args: ['--socket', socket] });
    running.push(first);
    await expect(spawnGw('extproc', file, { args: ['--socket', socket] })).rejects.toThrow(/served by another running process/);
    // The live one is untouched and still answers on its path.
    expect(first.child.exitCode).toBeNull();
    expect(existsSync(socket)).toBe(true);
    expect(await servesGrpc(socket)).toBe(true);
  });

  /** What a killed processor leaves: the socket file with nobody behind it. */
  async function staleSocket(file: string, socket: string): Promise<void> {
    const killed = await spawnGw('extproc', file, { args: ['--socket', socket] });
    await killed.stop('SIGKILL');
    expect(lstatSync(socket).isSocket()).toBe(true);
  }

  it('while another instance is claiming the path (stale check done, not bound yet), a new one refuses and leaves the file alone', async () => {
    const { file, socket } = config();
    await staleSocket(file, socket);
    // This test process plays the first instance, between its stale check and its bind.
    const claim = await lockSocketPath(socket);
    try {
      await expect(spawnGw('extproc', file, { args: ['--socket', socket] })).rejects.toThrow(/served by another running process/);
      // Not unlinked: the holder's reclaim and bind are not disturbed.
      expect(lstatSync(socket).isSocket()).toBe(true);
    } finally {
      await claim.release();
    }
    const next = await spawnGw('extproc', file, { args: ['--socket', socket] });
    running.push(next);
    expect(await servesGrpc(socket)).toBe(true);
  });

  it('two new instances started at the same moment on a stale socket: one serves it, the other stops', async () => {
    const { file, socket } = config();
    await staleSocket(file, socket);
    const results = await Promise.allSettled([0, 1].map(() => spawnGw('extproc', file, { args: ['--socket', socket] })));
    const up = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    running.push(...up);
    expect(up).toHaveLength(1);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(String(refused.reason)).toMatch(/served by another running process/);
    expect(up[0]?.child.exitCode).toBeNull();
    expect(await servesGrpc(socket)).toBe(true);
  });

  it('the path lock is exclusive, named after the resolved path, released on stop, and absent off Linux', async () => {
    const { socket } = config();
    const held = await lockSocketPath(socket);
    await expect(lockSocketPath(socket)).rejects.toBeInstanceOf(SocketInUseError);
    expect(lockName(socket)).toBe(lockName(join(socket, '..', '.', 'extproc.sock')));
    expect(lockName(socket).startsWith('\0')).toBe(true);
    await held.release();
    const again = await lockSocketPath(socket);
    await again.release();
    const darwin = await lockSocketPath(socket, 'darwin');
    const darwin2 = await lockSocketPath(socket, 'darwin');
    await darwin.release();
    await darwin2.release();
  });

  it('a file at the socket path that is not a socket is left alone and named', async () => {
    const { file, socket } = config();
    writeFileSync(socket, 'not a socket');
    await expect(spawnGw('extproc', file, { args: ['--socket', socket] })).rejects.toThrow(/exists and is not a socket/);
    expect(lstatSync(socket).isFile()).toBe(true);
  });
});
