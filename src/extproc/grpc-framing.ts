/**
 * gRPC's length-prefixed message framing over HTTP/2 DATA (PROTOCOL-HTTP2.md
 * in the grpc repository: "Length-Prefixed-Message → Compressed-Flag
 * Message-Length Message", a 1-byte flag and a 4-byte big-endian length).
 * A DATA frame boundary means nothing to gRPC: one message may span several
 * chunks and one chunk may hold several messages, so the reader keeps what it
 * has until a whole message is there. Pure: no sockets, no protobuf.
 */

export const GRPC_PREFIX_BYTES = 5;

/** gRPC status codes used by the transport (grpc/doc/statuscodes.md). */
export const GrpcStatus = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  RESOURCE_EXHAUSTED: 8,
  INTERNAL: 13,
  UNIMPLEMENTED: 12,
  UNAVAILABLE: 14,
} as const;

/** Why a stream of bytes is not a sequence of gRPC messages this server takes. */
export class GrpcFramingError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'GrpcFramingError';
  }
}

/**
 * Collects DATA chunks into whole messages. `push` returns the messages the
 * chunk completed (often none or one) and throws GrpcFramingError on a
 * compressed message (no grpc-encoding is negotiated, and Envoy does not
 * compress ext_proc) or on a declared length above the limit; the latter is
 * refused from the prefix alone, before anything of the body is held.
 */
export class GrpcMessageReader {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Length of the message being collected, once its prefix is complete; -1 while reading a prefix. */
  private expected = -1;

  constructor(private readonly maxMessageBytes: number) {}

  /** Bytes held for a message not yet complete (a truncated prefix or body when the stream ends here). */
  get buffered(): number {
    return this.pendingBytes;
  }

  push(chunk: Buffer): Buffer[] {
    if (this.pendingBytes > 0) {
      this.pending.push(chunk);
      this.pendingBytes += chunk.length;
      // A large message arrives in many DATA frames: gather them, and join them once it is whole
      // (joining at every frame would copy the message once per frame).
      if (this.expected < 0 ? this.pendingBytes < GRPC_PREFIX_BYTES : this.pendingBytes < this.expected) return [];
      const data = Buffer.concat(this.pending, this.pendingBytes);
      this.pending = [];
      this.pendingBytes = 0;
      return this.parse(data);
    }
    return this.parse(chunk);
  }

  private parse(data: Buffer): Buffer[] {
    const out: Buffer[] = [];
    let at = 0;
    for (;;) {
      if (this.expected < 0) {
        if (data.length - at < GRPC_PREFIX_BYTES) break;
        const flag = data[at] as number;
        if (flag !== 0) {
          throw new GrpcFramingError(
            flag === 1 ? GrpcStatus.UNIMPLEMENTED : GrpcStatus.INTERNAL,
            flag === 1 ? 'compressed messages are not accepted: no grpc-encoding was negotiated (identity only)' : `invalid gRPC message flag ${flag}`,
          );
        }
        const length = data.readUInt32BE(at + 1);
        if (length > this.maxMessageBytes) {
          throw new GrpcFramingError(GrpcStatus.RESOURCE_EXHAUSTED, `received message larger than max (${length} vs. ${this.maxMessageBytes})`);
        }
        this.expected = length;
        at += GRPC_PREFIX_BYTES;
      }
      if (data.length - at < this.expected) break;
      // A view, not a copy: nothing writes into a chunk once it is handed on, so the decoder's
      // bytes fields may stay views of it too (protobufjs returns views, not copies).
      out.push(data.subarray(at, at + this.expected));
      at += this.expected;
      this.expected = -1;
    }
    if (at < data.length) {
      const rest = data.subarray(at);
      this.pending.push(rest);
      this.pendingBytes = rest.length;
    }
    return out;
  }
}

/** One message with its prefix, ready for a DATA frame. */
export function frameMessage(message: Uint8Array): Buffer {
  const framed = Buffer.allocUnsafe(GRPC_PREFIX_BYTES + message.length);
  framed[0] = 0;
  framed.writeUInt32BE(message.length, 1);
  framed.set(message, GRPC_PREFIX_BYTES);
  return framed;
}

/**
 * grpc-message is percent-encoded: every byte outside printable ASCII
 * (0x20–0x7E) and '%' itself become %XX of the UTF-8 bytes (PROTOCOL-HTTP2.md).
 */
export function encodeGrpcMessage(text: string): string {
  let plain = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x25) {
      plain = false;
      break;
    }
  }
  if (plain) return text;
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    out += byte < 0x20 || byte > 0x7e || byte === 0x25 ? `%${byte.toString(16).toUpperCase().padStart(2, '0')}` : String.fromCharCode(byte);
  }
  return out;
}

const TIMEOUT_UNIT_MS: Record<string, number> = { H: 3_600_000, M: 60_000, S: 1000, m: 1, u: 0.001, n: 0.000001 };

/**
 * grpc-timeout ("TimeoutValue TimeoutUnit": at most 8 digits, then one of
 * H M S m u n) as milliseconds; null when absent or malformed (a malformed
 * one is ignored, as no deadline, rather than refusing the call).
 */
export function parseGrpcTimeout(value: string | undefined): number | null {
  if (value === undefined) return null;
  const match = /^(\d{1,8})([HMSmun])$/.exec(value);
  if (match === null) return null;
  return Number(match[1]) * (TIMEOUT_UNIT_MS[match[2] as string] as number);
}
