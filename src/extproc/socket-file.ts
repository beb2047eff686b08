/**
 * The processor's Unix socket lives in a volume shared with Envoy (an
 * emptyDir in the chart). A processor killed without a chance to clean up
 * (SIGKILL, OOM kill, crash) leaves the socket file behind, and the restarted
 * container would then fail to bind with EADDRINUSE and crash-loop. Before
 * binding, a leftover file is removed, but only when it is a socket and no
 * process accepts connections on it: a second live instance keeps its socket.
 */
import { lstat, unlink } from 'node:fs/promises';
import { connect } from 'node:net';

export class SocketInUseError extends Error {
  constructor(readonly path: string) {
    super(`${path} is served by another running process; refusing to take it over (stop that process or choose another --socket)`);
    this.name = 'SocketInUseError';
  }
}

/** Whether something accepts connections on the socket at `path`. */
function accepts(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ path });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      socket.destroy();
      // ECONNREFUSED: the file is there, nobody listens (the stale case). ENOENT: gone meanwhile.
      // Anything else (EACCES, EAGAIN on a full backlog) may be a live server: leave it alone.
      resolve(error.code !== 'ECONNREFUSED' && error.code !== 'ENOENT');
    });
  });
}

/**
 * Makes `path` free to bind: does nothing when no file is there, removes a
 * stale socket, and throws when the file is not a socket or a live process
 * serves it. Returns true when a stale socket was removed.
 */
export async function reclaimStaleSocket(path: string): Promise<boolean> {
  let isSocket: boolean;
  try {
    isSocket = (await lstat(path)).isSocket();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  if (!isSocket) throw new Error(`${path} exists and is not a socket; refusing to remove it`);
  if (await accepts(path)) throw new SocketInUseError(path);
  try {
    await unlink(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return true;
}
