import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { SeenRequest } from './mock-provider.js';

/**
 * A provider whose answer to POST /v1/messages is a test-supplied function:
 * for faults the regular mock does not script (stalls, byte-by-byte streams,
 * bodies of gigabytes generated on the fly, streams written in pieces a
 * property chooses, writes that block on TCP backpressure). Every request
 * is recorded as the regular mock records it. GET /v1/models answers 404,
 * so the gateway falls back to its catalogue.
 */
export type Script = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void | Promise<void>;

export interface ScriptedProvider {
  readonly url: string;
  readonly seen: SeenRequest[];
  script: Script;
  messageRequests(): SeenRequest[];
  close(): Promise<void>;
}

export async function startScriptedProvider(script: Script): Promise<ScriptedProvider> {
  const seen: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  const state = { script };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const path = req.url ?? '/';
      seen.push({ method: req.method ?? '', path, headers: { ...req.headers }, body });
      if (!path.split('?')[0]?.endsWith('/v1/messages')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: 'scripted: no such route' } }));
        return;
      }
      res.socket?.setNoDelay(true);
      Promise.resolve(state.script(req, res, body)).catch(() => res.destroy());
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    get script() {
      return state.script;
    },
    set script(s: Script) {
      state.script = s;
    },
    messageRequests: () => seen.filter((r) => r.path.split('?')[0]?.endsWith('/v1/messages') ?? false),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Write `piece`, waiting for 'drain' when the socket says so; false if the response is gone. */
export async function writeAll(res: ServerResponse, piece: string | Buffer): Promise<boolean> {
  if (res.destroyed) return false;
  if (res.write(piece)) return true;
  return new Promise<boolean>((resolve) => {
    const done = (ok: boolean): void => {
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(ok);
    };
    const onDrain = (): void => done(true);
    const onClose = (): void => done(false);
    res.on('drain', onDrain);
    res.on('close', onClose);
  });
}
