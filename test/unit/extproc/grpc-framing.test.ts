import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeGrpcMessage, frameMessage, GrpcFramingError, GrpcMessageReader, GrpcStatus, parseGrpcTimeout } from '../../../src/extproc/grpc-framing.js';

/** gRPC's length-prefixed framing as the node:http2 transport reads and writes it. */

const MAX = 64 * 1024 * 1024;

function prefix(flag: number, length: number): Buffer {
  const p = Buffer.alloc(5);
  p[0] = flag;
  p.writeUInt32BE(length, 1);
  return p;
}

function thrown(fn: () => unknown): GrpcFramingError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(GrpcFramingError);
    return error as GrpcFramingError;
  }
  throw new Error('nothing thrown');
}

describe('GrpcMessageReader', () => {
  it('reads one message in one chunk, and an empty message', () => {
    const reader = new GrpcMessageReader(MAX);
    expect(reader.push(frameMessage(Buffer.from('hello'))).map(String)).toEqual(['hello']);
    expect(reader.push(frameMessage(Buffer.alloc(0))).map((b) => b.length)).toEqual([0]);
    expect(reader.buffered).toBe(0);
  });

  it('reads several messages from one chunk', () => {
    const reader = new GrpcMessageReader(MAX);
    const chunk = Buffer.concat([frameMessage(Buffer.from('a')), frameMessage(Buffer.from('bc')), frameMessage(Buffer.from('def'))]);
    expect(reader.push(chunk).map(String)).toEqual(['a', 'bc', 'def']);
  });

  it('keeps a message split across chunks (inside the prefix and inside the body) until it is whole', () => {
    const reader = new GrpcMessageReader(MAX);
    const framed = frameMessage(Buffer.from('split message'));
    expect(reader.push(framed.subarray(0, 2))).toEqual([]);
    expect(reader.buffered).toBe(2);
    expect(reader.push(framed.subarray(2, 9))).toEqual([]);
    expect(reader.push(framed.subarray(9)).map(String)).toEqual(['split message']);
    expect(reader.buffered).toBe(0);
  });

  it('reads any sequence of messages however the bytes are cut into chunks', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 8 }), fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 20 }), (messages, cuts) => {
        const bytes = Buffer.concat(messages.map((m) => frameMessage(m)));
        const reader = new GrpcMessageReader(MAX);
        const out: Buffer[] = [];
        let at = 0;
        for (let i = 0; at < bytes.length; i++) {
          const size = cuts[i % cuts.length] as number;
          out.push(...reader.push(bytes.subarray(at, at + size)));
          at += size;
        }
        expect(out.map((b) => Buffer.from(b).toString('hex'))).toEqual(messages.map((m) => Buffer.from(m).toString('hex')));
        expect(reader.buffered).toBe(0);
      }),
      { seed: 2611, numRuns: 300 },
    );
  });

  it('refuses a compressed message (no encoding is negotiated) and an unknown flag', () => {
    const compressed = thrown(() => new GrpcMessageReader(MAX).push(Buffer.concat([prefix(1, 3), Buffer.from('abc')])));
    expect(compressed.code).toBe(GrpcStatus.UNIMPLEMENTED);
    expect(compressed.message).toMatch(/compressed/);
    expect(thrown(() => new GrpcMessageReader(MAX).push(prefix(7, 0))).code).toBe(GrpcStatus.INTERNAL);
  });

  it('refuses a declared length above the limit from the prefix alone, with RESOURCE_EXHAUSTED', () => {
    const reader = new GrpcMessageReader(1000);
    expect(reader.push(frameMessage(Buffer.alloc(1000))).map((b) => b.length)).toEqual([1000]);
    const error = thrown(() => reader.push(prefix(0, 1001)));
    expect(error.code).toBe(GrpcStatus.RESOURCE_EXHAUSTED);
    expect(error.message).toBe('received message larger than max (1001 vs. 1000)');
    // 4 GiB - 1 declared, nothing of it sent: refused without waiting for (or holding) the body.
    expect(thrown(() => new GrpcMessageReader(MAX).push(prefix(0, 0xffffffff))).code).toBe(GrpcStatus.RESOURCE_EXHAUSTED);
  });
});

describe('frameMessage', () => {
  it('writes the flag 0 and the big-endian length before the bytes', () => {
    expect(frameMessage(Buffer.from('xyz')).toString('hex')).toBe('0000000003' + Buffer.from('xyz').toString('hex'));
  });
});

describe('encodeGrpcMessage', () => {
  it('percent-encodes bytes outside printable ASCII and the percent sign, as UTF-8', () => {
    expect(encodeGrpcMessage('plain text: ok')).toBe('plain text: ok');
    expect(encodeGrpcMessage('50% done\n')).toBe('50%25 done%0A');
    expect(encodeGrpcMessage('café')).toBe('caf%C3%A9');
    expect(decodeURIComponent(encodeGrpcMessage('línea\r\n€ 100%'))).toBe('línea\r\n€ 100%');
  });
});

describe('parseGrpcTimeout', () => {
  it('reads each unit as milliseconds and ignores malformed values', () => {
    expect(parseGrpcTimeout('2H')).toBe(7_200_000);
    expect(parseGrpcTimeout('3M')).toBe(180_000);
    expect(parseGrpcTimeout('10S')).toBe(10_000);
    expect(parseGrpcTimeout('250m')).toBe(250);
    expect(parseGrpcTimeout('5000u')).toBe(5);
    expect(parseGrpcTimeout('2000000n')).toBe(2);
    expect(parseGrpcTimeout(undefined)).toBeNull();
    expect(parseGrpcTimeout('123456789S')).toBeNull();
    expect(parseGrpcTimeout('10s')).toBeNull();
    expect(parseGrpcTimeout('-1S')).toBeNull();
  });
});
