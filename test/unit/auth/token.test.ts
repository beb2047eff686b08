import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { crc32 } from '../../../src/auth/crc32.js';
import { checksumOf, generateToken, hashToken, isWellFormedToken, TOKEN_LENGTH, TOKEN_PREFIX } from '../../../src/auth/token.js';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Independent base62 of a CRC, most significant digit first, zero-padded to 6. */
function expectedChecksum(body: string): string {
  let n = BigInt(crc32(body));
  let out = '';
  for (let i = 0; i < 6; i++) {
    out = ALPHABET[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out;
}

describe('token format', () => {
  it('generates gwct_ + 40 base62 characters + a 6-character checksum', () => {
    for (let i = 0; i < 50; i++) {
      const token = generateToken();
      expect(token).toMatch(/^gwct_[0-9A-Za-z]{46}$/);
      expect(token).toHaveLength(TOKEN_LENGTH);
      expect(TOKEN_LENGTH).toBe(51);
      expect(token.slice(45)).toBe(expectedChecksum(token.slice(5, 45)));
      expect(isWellFormedToken(token)).toBe(true);
    }
  });

  it('encodes the CRC-32 of the body in base62, zero-padded', () => {
    expect(checksumOf('')).toBe('000000');
    // Pinned literally so a change of alphabet order or digit order cannot go unnoticed.
    expect(checksumOf('123456789')).toBe('3jZRME');
    expect(checksumOf('123456789')).toBe(expectedChecksum('123456789'));
  });

  it('rejects every single-character change of a generated token', () => {
    const token = generateToken();
    const replacements = ALPHABET + '_-. \u00e9\u0000';
    let tried = 0;
    for (let i = 0; i < token.length; i++) {
      for (const c of replacements) {
        if (c === token[i]) continue;
        const changed = token.slice(0, i) + c + token.slice(i + 1);
        tried++;
        if (isWellFormedToken(changed)) throw new Error(`accepted a change at ${i}: ${changed}`);
      }
    }
    expect(tried).toBe(token.length * (replacements.length - 1));
  });

  it('rejects deletions, insertions and swapped neighbours', () => {
    const token = generateToken();
    for (let i = 0; i < token.length; i++) {
      expect(isWellFormedToken(token.slice(0, i) + token.slice(i + 1))).toBe(false);
      expect(isWellFormedToken(token.slice(0, i) + 'a' + token.slice(i))).toBe(false);
      if (i + 1 < token.length && token[i] !== token[i + 1] && i >= TOKEN_PREFIX.length) {
        expect(isWellFormedToken(token.slice(0, i) + token[i + 1] + token[i] + token.slice(i + 2))).toBe(false);
      }
    }
  });

  it.each(['', 'gwct_', 'gwct_test', 'gwct_' + 'a'.repeat(46)])('rejects %j', (value) => {
    expect(isWellFormedToken(value)).toBe(false);
  });

  it.each(['GWCT_', 'gwct-', 'gwcT_', 'sk-an'])('rejects a valid body and checksum behind the prefix %j', (prefix) => {
    const token = generateToken();
    expect(isWellFormedToken(prefix + token.slice(TOKEN_PREFIX.length))).toBe(false);
  });

  it('rejects a valid token with surrounding white space', () => {
    const token = generateToken();
    expect(isWellFormedToken(` ${token}`)).toBe(false);
    expect(isWellFormedToken(`${token}\n`)).toBe(false);
  });

  it('draws body characters uniformly from the 62-character alphabet', () => {
    const counts = new Map<string, number>();
    const tokens = 2000;
    for (let i = 0; i < tokens; i++) for (const c of generateToken().slice(5, 45)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect([...counts.keys()].sort().join('')).toBe([...ALPHABET].sort().join(''));
    const expected = (tokens * 40) / 62;
    let chiSquare = 0;
    for (const count of counts.values()) chiSquare += (count - expected) ** 2 / expected;
    // 61 degrees of freedom: mean 61, sd ≈ 11. 150 is beyond p = 1e-10 for a uniform source,
    // while a plain `byte % 62` (chars 0-7 favoured by 25%) scores about 500.
    expect(chiSquare).toBeLessThan(150);
  });

  it('never generates the same token twice in a run', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i++) seen.add(generateToken());
    expect(seen.size).toBe(1000);
  });
});

describe('hashToken', () => {
  it('is sha256:<64 lower-case hex> of the token text', () => {
    const token = generateToken();
    const hash = hashToken(token);
    expect(hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(hash).toBe('sha256:' + createHash('sha256').update(token, 'utf8').digest('hex'));
  });

  it('matches the known SHA-256 of a fixed string and tells tokens apart', () => {
    expect(hashToken('abc')).toBe('sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashToken(generateToken())).not.toBe(hashToken(generateToken()));
  });
});
