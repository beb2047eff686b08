/**
 * Closes the window in which two processors starting together could both
 * judge a leftover socket stale: the second one's check could pass before the
 * first binds, and its unlink would then take the first one's fresh socket.
 * Whoever reclaims and binds a socket path first holds a lock named after the
 * path, from before the stale check until it stops.
 *
 * The lock is a listening socket in Linux's abstract namespace: binding the
 * name is exclusive, it is never a file, and the kernel frees it the moment
 * its holder dies by any means (SIGKILL, OOM kill), so a crash cannot leave
 * a stale lock behind (unix(7), "Abstract sockets"). The namespace belongs to
 * the network namespace, which the containers of one pod share, as they share
 * the socket's emptyDir. Elsewhere (macOS, Windows) there is no such
 * namespace and no lock: only the stale check guards the path.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import { resolve } from 'node:path';
import { SocketInUseError } from './socket-file.js';

export interface SocketPathLock {
  release(): Promise<void>;
}

const NO_LOCK: SocketPathLock = { release: async () => undefined };

/** The abstract name for a socket path (a digest: the name's length is limited, the path's is not). */
export function lockName(socketPath: string): string {
  return `\0gw-extproc-lock-${createHash('sha256').update(resolve(socketPath)).digest('hex').slice(0, 40)}`;
}

/** Takes the lock for `socketPath`; throws SocketInUseError when another process holds it. */
export async function lockSocketPath(socketPath: string, platform: NodeJS.Platform = process.platform): Promise<SocketPathLock> {
  if (platform !== 'linux') return NO_LOCK;
  // Nobody is meant to talk to the lock: any connection is closed at once.
  const server: Server = createServer((socket) => socket.destroy());
  await new Promise<void>((done, fail) => {
    server.once('error', (error: NodeJS.ErrnoException) => fail(error.code === 'EADDRINUSE' ? new SocketInUseError(socketPath) : error));
    server.listen({ path: lockName(socketPath) }, () => done());
  });
  // The lock must not keep the process alive on its own.
  server.unref();
  return {
    release: () => new Promise<void>((done) => server.close(() => done())),
  };
}
