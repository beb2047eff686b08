import { describe, expect, it } from 'vitest';
import { randomCaseMix } from '../../../src/redaction/filters.js';

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
