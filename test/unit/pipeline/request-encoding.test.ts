import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors/gateway-error.js';
import { decodeRequestBody } from '../../../src/pipeline/request-encoding.js';

const JSON_BODY = Buffer.from('{"model":"claude-haiku-4-5","max_tokens":5,"messages":[]}');

async function refusal(body: Buffer, encoding: string, limit = 1024 * 1024): Promise<GatewayError> {
  const error = await decodeRequestBody(body, encoding, limit).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GatewayError);
  return error as GatewayError;
}

describe('decodeRequestBody', () => {
  it('leaves a body without an encoding (or with identity) alone', async () => {
    expect(await decodeRequestBody(JSON_BODY, undefined, 100)).toBeNull();
    expect(await decodeRequestBody(JSON_BODY, 'identity', 100)).toBeNull();
  });

  it('decodes gzip, deflate (zlib or raw) and br, in any letter case', async () => {
    for (const [encoding, encoded] of [
      ['gzip', gzipSync(JSON_BODY)],
      ['x-gzip', gzipSync(JSON_BODY)],
      ['deflate', deflateSync(JSON_BODY)],
      ['deflate', deflateRawSync(JSON_BODY)],
      ['BR', brotliCompressSync(JSON_BODY)],
    ] as const) {
      expect((await decodeRequestBody(encoded, encoding, 1024))?.equals(JSON_BODY)).toBe(true);
    }
  });

  it('undoes several codings from the last applied', async () => {
    const twice = brotliCompressSync(gzipSync(JSON_BODY));
    expect((await decodeRequestBody(twice, 'gzip, br', 1024))?.equals(JSON_BODY)).toBe(true);
  });

  it('refuses an unknown coding with 415 before decoding anything', async () => {
    const error = await refusal(gzipSync(JSON_BODY), 'gzip, zstd');
    expect(error.status).toBe(415);
    expect(error.fault).toBe('unsupported_encoding');
    expect(error.message).toBe('gw: Content-Encoding "zstd" is not supported; send the body as gzip, deflate or br, or without Content-Encoding');
  });

  it('refuses a body that does not decode with 415', async () => {
    const error = await refusal(Buffer.from('plain'), 'br');
    expect(error.status).toBe(415);
    expect(error.message).toBe('gw: the request body does not decode as Content-Encoding "br"');
  });

  it('stops a decompression bomb at the limit with 413', async () => {
    for (const [encoding, encode] of [
      ['gzip', gzipSync],
      ['deflate', deflateSync],
      ['br', brotliCompressSync],
    ] as const) {
      const bomb = encode(Buffer.alloc(8 * 1024 * 1024));
      expect(bomb.length).toBeLessThan(64 * 1024);
      const error = await refusal(bomb, encoding, 1024 * 1024);
      expect(error.status).toBe(413);
      expect(error.fault).toBe('request_too_large');
    }
  });
});
