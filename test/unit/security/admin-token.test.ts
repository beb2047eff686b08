import * as crypto from 'node:crypto';
import { beforeEach, describe, expect, it, vi } from 'vitest';

// Wrap timingSafeEqual so the test sees every comparison the global admin token check makes.
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

const { globalTokenAccess } = await import('../../../src/admin/admin-access.js');

/** Whether the global admin token check (the one the admin listener uses) lets `authorization` in. */
async function adminTokenMatches(authorization: string | undefined, expected: string): Promise<boolean> {
  return (await globalTokenAccess(expected).decide(authorization, 'usage', null)).ok;
}
const timingSafeEqual = vi.mocked(crypto.timingSafeEqual);

/**
 * The admin token check must not leak the token's content or length through
 * timing. Asserted structurally: the given and expected values are both
 * hashed to SHA-256 digests of equal length (32 bytes) and compared with
 * crypto.timingSafeEqual, whatever the given value's length.
 */
describe('the global admin token (globalTokenAccess)', () => {
  const expected = 'the-admin-token-0123456789abcdef';

  beforeEach(() => {
    timingSafeEqual.mockClear();
  });

  it.each([
    ['the right token', expected, true],
    ['one character off', `${expected.slice(0, -1)}x`, false],
    ['a prefix of it', expected.slice(0, 10), false],
    ['longer than it', `${expected}${expected}`, false],
    ['one character', 'a', false],
    ['a caller token', 'gwct_0123456789ABCDEFGHIJabcdefghij0123456789ABCDEF', false],
    ['10 KiB', 'x'.repeat(10_240), false],
  ])('compares digests of equal length with timingSafeEqual for %s', async (_, given, result) => {
    expect(await adminTokenMatches(`Bearer ${given}`, expected)).toBe(result);
    expect(timingSafeEqual).toHaveBeenCalledTimes(1);
    const [a, b] = timingSafeEqual.mock.calls[0] as [Buffer, Buffer];
    expect(Buffer.isBuffer(a) && Buffer.isBuffer(b)).toBe(true);
    expect(a.length).toBe(32);
    expect(b.length).toBe(32);
    expect(a.equals(crypto.createHash('sha256').update(given).digest())).toBe(true);
    expect(b.equals(crypto.createHash('sha256').update(expected).digest())).toBe(true);
  });

  it('refuses without a bearer', async () => {
    expect(await adminTokenMatches(undefined, expected)).toBe(false);
    expect(await adminTokenMatches(`Basic ${expected}`, expected)).toBe(false);
    expect(timingSafeEqual).not.toHaveBeenCalled();
  });

  it('lets timingSafeEqual alone decide: no other comparison of the token can change the answer', async () => {
    // If anything else (an early length check, a === shortcut) decided, overriding the digest comparison would not flip the answer.
    timingSafeEqual.mockReturnValueOnce(false);
    expect(await adminTokenMatches(`Bearer ${expected}`, expected)).toBe(false);
    for (const wrong of [`${expected}x`, 'a', expected.slice(0, 10), 'x'.repeat(10_240)]) {
      timingSafeEqual.mockReturnValueOnce(true);
      expect(await adminTokenMatches(`Bearer ${wrong}`, expected)).toBe(true);
    }
    expect(timingSafeEqual).toHaveBeenCalledTimes(5);
  });
});
