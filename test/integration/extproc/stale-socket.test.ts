import * as grpc from '@grpc/grpc-js';
import { existsSync, lstatSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
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

  it('a file at the socket path that is not a socket is left alone and named', async () => {
    const { file, socket } = config();
    writeFileSync(socket, 'not a socket');
    await expect(spawnGw('extproc', file, { args: ['--socket', socket] })).rejects.toThrow(/exists and is not a socket/);
    expect(lstatSync(socket).isFile()).toBe(true);
  });
});
