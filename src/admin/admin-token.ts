import { createHash, timingSafeEqual } from 'node:crypto';
import { bearerOf } from '../auth/authenticate.js';

/** Compares digests, so neither the length nor the content of the admin token leaks through timing. */
export function adminTokenMatches(authorization: string | undefined, expected: string | null): boolean {
  if (expected === null) return false;
  const given = bearerOf(authorization);
  if (given === null) return false;
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
