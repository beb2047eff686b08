import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate, inflateRaw } from 'node:zlib';
import { GatewayError } from '../errors/gateway-error.js';
import { REQUEST_MESSAGES } from '../errors/messages.js';
import { tooLarge } from './too-large.js';

type Decoder = (body: Buffer, options: { maxOutputLength: number }) => Promise<Buffer>;

const gunzipAsync = promisify(gunzip) as Decoder;
const inflateAsync = promisify(inflate) as Decoder;
const inflateRawAsync = promisify(inflateRaw) as Decoder;
const brotliAsync = promisify(brotliDecompress) as Decoder;

/** HTTP's "deflate" is the zlib format, but some clients send raw deflate: take either. */
const inflateEither: Decoder = (body, options) => inflateAsync(body, options).catch((error: unknown) => (isTooLarge(error) ? Promise.reject(error) : inflateRawAsync(body, options)));

const DECODERS: Readonly<Record<string, Decoder>> = { gzip: gunzipAsync, 'x-gzip': gunzipAsync, deflate: inflateEither, br: brotliAsync };

function isTooLarge(error: unknown): boolean {
  return error instanceof RangeError || (error as NodeJS.ErrnoException | null)?.code === 'ERR_BUFFER_TOO_LARGE';
}

/**
 * A request body sent with Content-Encoding is decoded as a provider would
 * decode it, before anything reads it (model, spend, secret scanning), and is
 * forwarded decoded. The decoded size is bounded by the same limit as a plain
 * body, checked while decoding, so a small compressed bomb stops at the limit.
 * Returns null when the body carries no encoding.
 */
export async function decodeRequestBody(body: Buffer, contentEncoding: string | undefined, limit: number): Promise<Buffer | null> {
  if (contentEncoding === undefined) return null;
  const codings = contentEncoding
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  if (codings.length === 0) return null;
  for (const coding of codings) {
    if (DECODERS[coding] === undefined) {
      throw new GatewayError('unsupported_encoding', REQUEST_MESSAGES.encodingUnsupported(coding.slice(0, 40)));
    }
  }
  let out = body;
  // Codings are listed in the order they were applied: undo them from the last.
  for (const coding of [...codings].reverse()) {
    const decode = DECODERS[coding] as Decoder;
    try {
      out = await decode(out, { maxOutputLength: limit });
    } catch (error) {
      if (isTooLarge(error)) throw tooLarge(limit);
      throw new GatewayError('unsupported_encoding', REQUEST_MESSAGES.encodingUndecodable(coding));
    }
    if (out.length > limit) throw tooLarge(limit);
  }
  return out;
}
