import { createConnection } from 'node:net';

/** Resolves once something accepts TCP connections on 127.0.0.1:port; rejects naming `what` after the timeout. */
export function waitForPort(port: number, what: string, timeoutMs: number, retryMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = (): void => {
      const socket = createConnection(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.end();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`${what} did not listen on ${port}`));
        else setTimeout(attempt, retryMs);
      });
    };
    attempt();
  });
}
