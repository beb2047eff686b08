/**
 * PostgreSQL cannot hold every JavaScript string: a text column refuses the
 * character U+0000 (COPY fails the whole statement with "invalid byte
 * sequence for encoding UTF8: 0x00"), and a `json` value accepts the escape
 * `\u0000` or a lone surrogate escape but then fails every `->>` on it at
 * query time ("unsupported Unicode escape sequence"), which would break a
 * company's reports for good. Strings a caller wrote (the model as written,
 * the attribution headers) reach both, so every string is made storable on
 * the way in: U+0000 and lone surrogates become U+FFFD (the replacement
 * character), everything else stays as written. Lone surrogates in a text
 * column need nothing here: UTF-8 encoding (Buffer.from) already writes
 * them as U+FFFD.
 */

export const REPLACEMENT = '\ufffd';

const UNSTORABLE = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The string with U+0000 and lone surrogates replaced by U+FFFD. */
export function storableString(text: string): string {
  return text.replace(UNSTORABLE, REPLACEMENT);
}

/** A JSON escape PostgreSQL's json cannot give back as text: \u0000 or a surrogate (paired ones are rewritten too: harmless). */
const UNSTORABLE_ESCAPE = /\\u(?:0000|[dD][89a-fA-F][0-9a-fA-F]{2})/;

/**
 * JSON text whose strings are all storable: returned as it is in the usual
 * case (one scan); otherwise parsed and written again with every string
 * passed through storableString.
 */
export function storableJson(text: string): string {
  if (!UNSTORABLE_ESCAPE.test(text) && !text.includes('\0')) return text;
  return JSON.stringify(JSON.parse(text), (_key, value: unknown) => (typeof value === 'string' ? storableString(value) : value));
}
