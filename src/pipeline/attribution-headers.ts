import type { HeaderMap } from './types.js';

const strict = new TextDecoder('utf-8', { fatal: true });
const lossy = new TextDecoder('utf-8');
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * Both data planes hand header values over one character per byte (latin1:
 * Node's http parser, and raw_value from Envoy), but the x-gw-* attribution
 * headers carry UTF-8 text (spec §4.2 counts x-gw-repo in UTF-8 bytes). Decode
 * them before they are validated and recorded. An x-gw-repo that is not valid
 * UTF-8 becomes '' so it is refused like any other invalid slug; labels keep
 * what decodes, with U+FFFD for the rest.
 */
export function attributionHeaders(headers: HeaderMap): HeaderMap {
  let out: Record<string, string | undefined> | null = null;
  for (const name of ['x-gw-repo', 'x-gw-application', 'x-gw-end-user']) {
    const value = headers[name];
    if (value === undefined || !NON_ASCII.test(value)) continue;
    out ??= { ...headers };
    const bytes = Buffer.from(value, 'latin1');
    if (name === 'x-gw-repo') {
      try {
        out[name] = strict.decode(bytes);
      } catch {
        out[name] = '';
      }
    } else {
      out[name] = lossy.decode(bytes);
    }
  }
  return out ?? headers;
}
