import { EventEmitter } from 'node:events';
import * as http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { encodeGrpcMessage, frameMessage, GrpcFramingError, GrpcMessageReader, GrpcStatus, parseGrpcTimeout } from './grpc-framing.js';
import type { ProcessCall } from './process-call.js';
import { decodeProcessingRequest, PROCESS_METHOD_PATH, serializeProcessingResponse, type ProcessingRequest, type ProcessingResponse } from './proto.js';

/**
 * The ext_proc service's own gRPC server transport on node:http2, the
 * alternative to grpc-js (`--grpc-transport http2`). It serves one method,
 * ExternalProcessor/Process, and only what Envoy's gRPC client uses of the
 * protocol: identity encoding, grpc-timeout, metadata as headers. The saving
 * is grpc-js's per-message machinery (interceptor chain, filter stack,
 * per-message promises and metadata objects) that the processor paid for
 * on every chunk (docs/benchmarks.md, issue 26 point 3).
 */

const { HTTP2_HEADER_STATUS, HTTP2_HEADER_CONTENT_TYPE, HTTP2_HEADER_PATH, HTTP2_HEADER_METHOD, HTTP_STATUS_OK, HTTP_STATUS_UNSUPPORTED_MEDIA_TYPE, HTTP_STATUS_METHOD_NOT_ALLOWED } = http2.constants;

/** Request headers that are HTTP/2 or gRPC protocol, not call metadata. */
const NOT_METADATA = new Set(['content-type', 'te', 'grpc-timeout', 'grpc-encoding', 'grpc-accept-encoding', 'user-agent', 'content-length']);

/** Frozen answers (the empty continue sent for nearly every chunk) are framed once, not per message. */
const framedOnce = new WeakMap<ProcessingResponse, Buffer>();
function framed(message: ProcessingResponse): Buffer {
  if (!Object.isFrozen(message)) return frameMessage(serializeProcessingResponse(message));
  let bytes = framedOnce.get(message);
  if (bytes === undefined) framedOnce.set(message, (bytes = frameMessage(serializeProcessingResponse(message))));
  return bytes;
}

class H2Metadata {
  constructor(private readonly headers: http2.IncomingHttpHeaders) {}

  get(key: string): (string | Buffer)[] {
    const name = key.toLowerCase();
    if (name.startsWith(':') || NOT_METADATA.has(name)) return [];
    const value = this.headers[name];
    if (value === undefined) return [];
    const values = Array.isArray(value) ? value : [value];
    // Binary metadata travels base64 (PROTOCOL-HTTP2.md, "-bin" keys).
    return name.endsWith('-bin') ? values.map((v) => Buffer.from(v, 'base64')) : values;
  }
}

/** One Process call on one HTTP/2 stream: the ProcessCall surface ProcessStream and ObserverStream use. */
export class H2ProcessCall extends EventEmitter implements ProcessCall {
  readonly metadata: H2Metadata;
  private readonly reader: GrpcMessageReader;
  private headersSent = false;
  private statusSent = false;
  private gone = false;
  private trailers: http2.OutgoingHttpHeaders | null = null;
  private deadline: NodeJS.Timeout | null = null;
  private awaitingDrain = false;

  constructor(
    private readonly stream: http2.ServerHttp2Stream,
    headers: http2.IncomingHttpHeaders,
    maxMessageBytes: number,
  ) {
    super();
    this.metadata = new H2Metadata(headers);
    this.reader = new GrpcMessageReader(maxMessageBytes);
    // Emitting 'error' with a status ends the call with it (the grpc-js convention ProcessStream uses).
    this.on('error', (error: { code?: unknown; details?: unknown } | undefined) => {
      if (typeof error?.code === 'number') this.sendStatus(error.code, typeof error.details === 'string' ? error.details : '');
    });
    const timeoutMs = parseGrpcTimeout(headers['grpc-timeout'] as string | undefined);
    if (timeoutMs !== null) {
      this.deadline = setTimeout(() => {
        this.deadline = null;
        this.sendStatus(GrpcStatus.DEADLINE_EXCEEDED, 'Deadline exceeded');
        this.cancel();
      }, timeoutMs);
      this.deadline.unref();
    }
    stream.on('data', (chunk: Buffer) => this.receive(chunk));
    // A connection that goes, or a reset, ends the readable side too: that 'end' is no half-close.
    stream.on('aborted', () => {
      if (!this.statusSent) this.cancel();
    });
    stream.on('end', () => {
      if (this.statusSent || this.gone || stream.aborted) return;
      if (this.reader.buffered > 0) {
        this.sendStatus(GrpcStatus.INTERNAL, `the request stream ended inside a message (${this.reader.buffered} bytes of an incomplete message)`);
        this.cancel();
        return;
      }
      this.emit('end');
    });
    stream.on('wantTrailers', () => {
      if (this.trailers === null) return;
      stream.sendTrailers(this.trailers);
      this.closeAfterStatus();
    });
    // A reset or a broken session: 'close' follows, which is where the call learns of it.
    stream.on('error', () => undefined);
    stream.on('close', () => {
      this.clearDeadline();
      if (!this.statusSent) this.cancel();
    });
  }

  get destroyed(): boolean {
    return this.stream.destroyed;
  }

  get writable(): boolean {
    // closed: the peer's RST_STREAM arrived, and respond() would throw before 'close' is emitted.
    return !this.statusSent && !this.stream.destroyed && !this.stream.closed;
  }

  get writableEnded(): boolean {
    return this.statusSent;
  }

  write(message: ProcessingResponse): boolean {
    if (!this.writable) return false;
    this.sendHeaders();
    const ok = this.stream.write(framed(message));
    if (!ok && !this.awaitingDrain) {
      // HTTP/2 flow control: the peer is not taking answers. Stop reading its requests until
      // it does, so neither side's buffers grow; its send window closes in turn. (The messages
      // already read from one DATA chunk are still answered: one wait covers them all.)
      this.awaitingDrain = true;
      this.stream.pause();
      this.stream.once('drain', () => {
        this.awaitingDrain = false;
        if (!this.stream.destroyed) this.stream.resume();
      });
    }
    return ok;
  }

  end(): void {
    this.sendStatus(GrpcStatus.OK, '');
  }

  destroy(error?: Error): void {
    this.sendStatus(GrpcStatus.INTERNAL, error?.message ?? 'the call was ended by the server');
  }

  private receive(chunk: Buffer): void {
    if (this.statusSent) return;
    let messages: Buffer[];
    try {
      messages = this.reader.push(chunk);
    } catch (error) {
      const code = error instanceof GrpcFramingError ? error.code : GrpcStatus.INTERNAL;
      this.sendStatus(code, error instanceof Error ? error.message : String(error));
      this.cancel();
      return;
    }
    for (const bytes of messages) {
      let message: ProcessingRequest;
      try {
        message = decodeProcessingRequest(bytes);
      } catch (error) {
        this.sendStatus(GrpcStatus.INTERNAL, `could not parse the ProcessingRequest: ${error instanceof Error ? error.message : String(error)}`);
        this.cancel();
        return;
      }
      this.emit('data', message);
      if (this.statusSent) return;
    }
  }

  private sendHeaders(): void {
    if (this.headersSent) return;
    this.headersSent = true;
    this.stream.respond({ [HTTP2_HEADER_STATUS]: HTTP_STATUS_OK, [HTTP2_HEADER_CONTENT_TYPE]: 'application/grpc', 'grpc-accept-encoding': 'identity' }, { waitForTrailers: true });
  }

  /** The call's one status: in trailers after the messages, or as a trailers-only response. */
  private sendStatus(code: number, details: string): void {
    if (this.statusSent) return;
    this.statusSent = true;
    this.clearDeadline();
    if (this.stream.destroyed || this.stream.closed) return;
    const status: http2.OutgoingHttpHeaders = { 'grpc-status': String(code) };
    if (details !== '') status['grpc-message'] = encodeGrpcMessage(details);
    if (!this.headersSent) {
      this.headersSent = true;
      this.stream.respond({ [HTTP2_HEADER_STATUS]: HTTP_STATUS_OK, [HTTP2_HEADER_CONTENT_TYPE]: 'application/grpc', ...status }, { endStream: true });
      this.closeAfterStatus();
    } else {
      this.trailers = status;
      this.stream.end();
    }
    // Nothing more is read; a peer still sending is not buffered for.
    this.stream.resume();
  }

  /**
   * The status ends the call, whether or not the peer has finished sending: a peer that
   * has not is told with RST_STREAM(NO_ERROR) after the status (RFC 9113 section 8.1
   * allows it for a complete response), so a stream never stays half-open on a peer that
   * never half-closes.
   */
  private closeAfterStatus(): void {
    closeWhenAnswered(this.stream);
  }

  /** The call is over without its normal end: the handler's cancel path (lease release, record). */
  private cancel(): void {
    if (this.gone) return;
    this.gone = true;
    this.emit('cancelled');
  }

  private clearDeadline(): void {
    if (this.deadline !== null) clearTimeout(this.deadline);
    this.deadline = null;
  }
}

function closeWhenAnswered(stream: http2.ServerHttp2Stream): void {
  if (stream.readableEnded) return;
  // After this turn: the status frames are queued ahead of the reset.
  setImmediate(() => {
    if (!stream.destroyed && !stream.closed && !stream.readableEnded) stream.close(http2.constants.NGHTTP2_NO_ERROR);
  });
}

function respondError(stream: http2.ServerHttp2Stream, httpStatus: number, code: number, message: string): void {
  stream.on('error', () => undefined);
  if (stream.destroyed || stream.closed || stream.headersSent) return;
  stream.respond({ [HTTP2_HEADER_STATUS]: httpStatus, [HTTP2_HEADER_CONTENT_TYPE]: 'application/grpc', 'grpc-status': String(code), 'grpc-message': encodeGrpcMessage(message) }, { endStream: true });
  // Whatever the peer still sends on it is read and dropped.
  stream.resume();
}

export interface H2ProcessServer {
  /** The port bound (0 on a Unix socket). */
  readonly port: number;
  /** Stops taking connections and sends GOAWAY on each; resolves when every open stream has ended. */
  close(): Promise<void>;
  /** Ends every connection now. */
  destroy(): void;
}

export interface H2ProcessServerOptions {
  readonly maxMessageBytes: number;
  readonly onCall: (call: H2ProcessCall) => void;
}

/** Serves ExternalProcessor/Process over cleartext HTTP/2 (h2c prior knowledge, as Envoy's gRPC client speaks). */
export async function startH2ProcessServer(bind: { host: string; port: number } | { socketPath: string }, options: H2ProcessServerOptions): Promise<H2ProcessServer> {
  const server = http2.createServer({
    // Node refuses new streams once a session holds more than this (10 MB by default); a
    // BUFFERED request body alone may be tens of MB. Flow control bounds each stream instead.
    maxSessionMemory: Number.MAX_SAFE_INTEGER,
  });
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on('session', (session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
    // A broken or hostile peer (not HTTP/2, a protocol error): nghttp2 answers with GOAWAY and
    // the session closes; nothing to do here but not let the error escape.
    session.on('error', () => undefined);
  });
  server.on('sessionError', () => undefined);
  server.on('stream', (stream, headers) => {
    const contentType = headers[HTTP2_HEADER_CONTENT_TYPE];
    if (typeof contentType !== 'string' || !/^application\/grpc($|[+;])/.test(contentType)) {
      // PROTOCOL-HTTP2.md: 415, so a plain HTTP/2 client does not read a gRPC error as success.
      respondError(stream, HTTP_STATUS_UNSUPPORTED_MEDIA_TYPE, GrpcStatus.INTERNAL, `content-type must be application/grpc, got ${String(contentType ?? 'none')}`);
      return;
    }
    if (headers[HTTP2_HEADER_METHOD] !== 'POST') {
      respondError(stream, HTTP_STATUS_METHOD_NOT_ALLOWED, GrpcStatus.INTERNAL, `gRPC calls are POST, got ${String(headers[HTTP2_HEADER_METHOD])}`);
      return;
    }
    const path = headers[HTTP2_HEADER_PATH];
    if (path !== PROCESS_METHOD_PATH) {
      respondError(stream, HTTP_STATUS_OK, GrpcStatus.UNIMPLEMENTED, `unknown method ${String(path)}: this server serves ${PROCESS_METHOD_PATH} only`);
      return;
    }
    options.onCall(new H2ProcessCall(stream, headers, options.maxMessageBytes));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    const listening = (): void => {
      server.off('error', reject);
      resolve();
    };
    if ('socketPath' in bind) server.listen(bind.socketPath, listening);
    else server.listen(bind.port, bind.host, listening);
  });
  server.on('error', () => undefined);
  const address = server.address();
  return {
    port: address !== null && typeof address === 'object' ? (address as AddressInfo).port : 0,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // GOAWAY: the peer opens no new stream here; open ones run to their end.
      for (const session of sessions) session.close();
      await closed;
    },
    destroy() {
      for (const session of sessions) session.destroy();
    },
  };
}
