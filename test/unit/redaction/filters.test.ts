import { crc32 as zlibCrc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32, base62Crc32Valid, randomCaseMix } from '../../../src/redaction/filters.js';
import { b62 } from './fake.js';

describe('randomCaseMix', () => {
  it('holds for letters whose case flips like a random string (single lower-case letters between capitals)', () => {
    expect(randomCaseMix('QmVyTmFsZXhQ_LongTail')).toBe(true);
    expect(randomCaseMix('aBcDeFgH')).toBe(true);
  });

  it('does not hold for names: camelCase, PascalCase, acronyms, constants', () => {
    for (const name of [
      'SandboxConfigurationS3BucketAccessPolicy',
      'HTTPServerConfigHolder',
      'ZENDESK_WEBHOOK_API_SECRET',
      'getAccessKeyFromVault',
      'XMLHttpRequest',
      'aFunctionCall',
      'IsAnIPv6Address',
    ]) {
      expect(randomCaseMix(name), name).toBe(false);
    }
  });

  it('needs three such letters, not two', () => {
    expect(randomCaseMix('AbCdEfG')).toBe(true);
    expect(randomCaseMix('AbCdEee')).toBe(false);
    expect(randomCaseMix('xAbCdddEfGhI')).toBe(true);
  });
});

describe('base62Crc32Valid', () => {
  const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  // Built with zlib's CRC-32, so the code under test is checked against another implementation.
  const mint = (body: string): string => {
    let c = zlibCrc32(body);
    let tail = '';
    for (let i = 0; i < 6; i++) {
      tail = ALPHABET[c % 62]! + tail;
      c = Math.floor(c / 62);
    }
    return `ghp_${body}${tail}`;
  };

  it('computes the CRC-32 zlib computes', () => {
    for (let i = 0; i < 50; i++) {
      const s = b62(1 + i);
      expect(crc32(s), s).toBe(zlibCrc32(s));
    }
  });

  it('accepts minted tokens and rejects any one-character change', () => {
    for (let i = 0; i < 50; i++) {
      const token = mint(b62(30));
      expect(base62Crc32Valid(token), token).toBe(true);
      const at = 4 + (i % 36);
      const swapped = token.slice(0, at) + (token[at] === 'a' ? 'b' : 'a') + token.slice(at + 1);
      expect(base62Crc32Valid(swapped), swapped).toBe(false);
    }
    expect(base62Crc32Valid(`ghp_${b62(36)}`)).toBe(false);
    expect(base62Crc32Valid(mint(b62(30)).slice(0, 39))).toBe(false);
  });
});
