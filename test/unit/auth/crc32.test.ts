import * as zlib from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crc32 } from '../../../src/auth/crc32.js';

describe('crc32', () => {
  it.each([
    ['', 0x00000000],
    ['a', 0xe8b7be43],
    ['abc', 0x352441c2],
    ['123456789', 0xcbf43926],
    ['The quick brown fox jumps over the lazy dog', 0x414fa339],
  ])('crc32(%j) is the IEEE check value', (text, expected) => {
    expect(crc32(text)).toBe(expected);
  });

  it('always returns an unsigned 32-bit integer', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary-ascii' }), (text) => {
        const value = crc32(text);
        return Number.isInteger(value) && value >= 0 && value <= 0xffffffff;
      }),
    );
  });

  // Tokens are ASCII, so on ASCII input this must agree with zlib's CRC-32 (same polynomial, init and final xor).
  it('agrees with zlib.crc32 on ASCII text', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary-ascii', maxLength: 200 }), (text) => crc32(text) === zlib.crc32(Buffer.from(text, 'latin1'))));
  });
});
