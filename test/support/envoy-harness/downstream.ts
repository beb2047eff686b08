/**
 * The client side of one request. Envoy can only send a local reply while
 * the response headers have not left; afterwards an error resets the
 * stream, which an HTTP/1 client sees as a connection closed mid-body.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HeaderMap } from './header-map.js';
import type { LocalReply } from './local-reply.js';

/** local_reply_config applied to a reply with its details and response flags. */
export type RewriteLocalReply = (reply: LocalReply, details: string, flags: readonly string[]) => LocalReply;

export interface DownstreamHooks {
  /**
   * The overload manager's disable_http_keepalive is saturated: the HTTP/1
   * response says `connection: close` and the connection closes after it
   * (source/common/http/conn_manager_impl.cc ActiveStream::encodeHeaders,
   * "disabling keepalive due to envoy overload").
   */
  keepAliveDisabled?: () => boolean;
  /** The HCM's delayed_close_timeout in ms (Envoy's default 1,000 when unset). */
  delayedCloseMs?: number;
}

export class Downstream {
  status = 0;
  details = '';
  /** The client went away, or we reset the stream. */
  reset = false;
  /** The client went away (not a reset of ours). */
  clientGone = false;
  /** Response headers as sent, for the access log. */
  headers: HeaderMap | undefined;
  /** Body bytes written to the client. */
  bytesSent = 0;
  /** When the last byte went out (Date.now()), once the response ended or was reset. */
  lastTxAt: number | undefined;
  private ended = false;
  readonly closed: Promise<void>;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    onClientGone: () => void,
    private readonly rewrite: RewriteLocalReply,
    private readonly hooks: DownstreamHooks = {},
  ) {
    this.closed = new Promise((resolve) => {
      res.on('close', () => {
        if (!res.writableFinished && !this.reset) {
          this.reset = true;
          this.clientGone = true;
          onClientGone();
        }
        this.lastTxAt ??= Date.now();
        resolve();
      });
    });
  }

  /** Nothing more may be written: the response ended or the stream is gone. */
  get finished(): boolean {
    return this.ended || this.reset;
  }

  get headersSent(): boolean {
    return this.res.headersSent;
  }

  sendHeaders(status: number, headers: HeaderMap, details: string): boolean {
    if (this.finished) return false;
    if (this.hooks.keepAliveDisabled?.()) headers.set('connection', 'close');
    try {
      this.res.writeHead(status, headers.toNodeRaw());
    } catch (err) {
      // Node refuses some bytes Envoy would pass; surface it as a reset, loudly.
      this.resetStream(`harness_write_headers_failed{${(err as Error).message}}`);
      return false;
    }
    this.status = status;
    this.details = details;
    this.headers = headers;
    return true;
  }

  async write(chunk: Buffer): Promise<boolean> {
    if (this.finished) return false;
    if (chunk.length === 0) return true;
    this.bytesSent += chunk.length;
    if (this.res.write(chunk)) return true;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.on('drain', done);
      this.res.on('close', done);
    });
    return !this.finished;
  }

  /** Trailers after the body (HTTP/1.1 chunked); Node drops them on a content-length response. */
  addTrailers(trailers: HeaderMap): void {
    if (this.finished) return;
    const record = trailers.toRecord();
    if (Object.keys(record).length > 0 && !this.res.hasHeader('content-length')) this.res.addTrailers(record);
  }

  end(chunk?: Buffer): void {
    if (this.finished) return;
    this.ended = true;
    this.bytesSent += chunk?.length ?? 0;
    this.res.end(chunk, () => {
      this.lastTxAt ??= Date.now();
    });
  }

  /**
   * A local reply (through local_reply_config), or a reset when the response
   * has already started. Over HTTP/1 a reply sent before the request has fully
   * arrived closes the connection: the rest of the body is never read
   * (envoy/source/common/http/conn_manager_impl.cc, a local complete stream with
   * the remote side open is reset, and an HTTP/1 reset closes the connection).
   */
  localReply(status: number, headers: HeaderMap, body: Buffer, details: string, flags: readonly string[] = []): void {
    if (this.finished) return;
    if (this.res.headersSent) {
      this.resetStream(details);
      return;
    }
    const reply = this.rewrite({ status, headers, body }, details, flags);
    reply.headers.set('content-length', String(reply.body.length));
    if (!this.req.complete) {
      reply.headers.set('connection', 'close');
      // Envoy closes such a connection with FlushWriteAndDelay (conn_manager_impl.cc,
      // checkForDeferredClose -> doConnectionClose): the reply is flushed, then Envoy waits
      // up to the HCM's delayed_close_timeout (default 1 s; http_connection_manager.proto)
      // for the client to close first, so a client still uploading reads the reply instead
      // of a reset. Node would destroy the socket right after the reply (destroySoon), so
      // this socket's close is delayed the same way.
      const socket = this.res.socket;
      const delayMs = this.hooks.delayedCloseMs ?? 1000;
      if (socket) {
        socket.destroySoon = function (this: typeof socket) {
          this.end();
          const timer = setTimeout(() => this.destroy(), delayMs);
          this.once('close', () => clearTimeout(timer));
        };
      }
    }
    if (this.sendHeaders(reply.status, reply.headers, details)) this.end(reply.body);
  }

  resetStream(details: string): void {
    if (this.finished) return;
    this.reset = true;
    this.details = details;
    this.res.destroy();
  }
}
