import { describe, expect, it } from 'vitest';
import { tooLarge } from '../../../src/pipeline/too-large.js';

describe('tooLarge', () => {
  it('is a request_too_large (413) naming the limit in MiB', () => {
    const error = tooLarge(32 * 1024 * 1024);
    expect(error.fault).toBe('request_too_large');
    expect(error.status).toBe(413);
    expect(error.message).toBe("gw: the request body is larger than the gateway's limit of 32 MiB");
  });
});
