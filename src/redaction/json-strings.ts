// Finds the JSON strings of a request body that carry text, without building
// the document: the output must keep every byte outside a redacted span, so
// the body is tokenized in place and only offsets are kept.
//
// Every string value is scanned except opaque payloads: `data` of an object
// whose `type` is `base64` (image and document sources) or
// `redacted_thinking`, and `signature` of a `thinking` block. That covers
// system, message content, text blocks, tool inputs at any depth and tool
// results, and stays right for block types added later. A string that is the
// value of an object member is scanned together with its key, so that
// `{"password": "..."}` in a tool input is read like `password: "..."`.

/** Content range of a JSON string (between its quotes) in the raw body. */
export interface JsonString {
  readonly start: number;
  readonly end: number;
  readonly escaped: boolean;
}

export interface TextSegment {
  /** The member name when the string is an object member's value. */
  readonly key: JsonString | null;
  readonly value: JsonString;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

interface Frame {
  readonly object: boolean;
  /** Object: 0 expect key or `}`, 1 expect `:`, 2 expect value, 3 expect `,` or `}`. Array: 0 expect value or `]`, 2 expect value, 3 expect `,` or `]`. */
  state: number;
  key: JsonString | null;
  members: TextSegment[];
  type: JsonString | null;
}

/** Returns the strings to scan, or null if `body` is not valid JSON. */
export function collectTextSegments(body: Uint8Array): TextSegment[] | null {
  const n = body.length;
  const out: TextSegment[] = [];
  const stack: Frame[] = [];
  let i = 0;
  // The next backslash, found by the native byte search and reused until the
  // cursor passes it, tells whether a string has escapes.
  let nextBackslash = -2;
  let done = false;

  const skipSpace = (): void => {
    while (i < n) {
      const b = body[i]!;
      if (b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09) i++;
      else break;
    }
  };

  // Cursor on the opening quote; leaves it after the closing quote. Both
  // searches are native; a quote preceded by an odd run of backslashes is
  // escaped and skipped. Escape sequences are validated where a string is
  // decoded for scanning (JSON.parse), not here.
  const readString = (): JsonString | null => {
    const start = i + 1;
    let q = indexOf(body, QUOTE, start);
    for (;;) {
      if (q === -1) return null;
      let k = q - 1;
      while (k >= start && body[k] === BACKSLASH) k--;
      if ((q - 1 - k) % 2 === 0) break;
      q = indexOf(body, QUOTE, q + 1);
    }
    if (nextBackslash !== -1 && nextBackslash < start) nextBackslash = indexOf(body, BACKSLASH, start);
    i = q + 1;
    return { start, end: q, escaped: nextBackslash !== -1 && nextBackslash < q };
  };

  const readNumber = (): boolean => {
    if (body[i] === 0x2d) i++;
    if (i >= n) return false;
    if (body[i] === 0x30) i++;
    else if (isDigit(body[i]!)) while (i < n && isDigit(body[i]!)) i++;
    else return false;
    if (body[i] === 0x2e) {
      i++;
      if (!isDigit(body[i] ?? 0)) return false;
      while (i < n && isDigit(body[i]!)) i++;
    }
    if (body[i] === 0x65 || body[i] === 0x45) {
      i++;
      if (body[i] === 0x2b || body[i] === 0x2d) i++;
      if (!isDigit(body[i] ?? 0)) return false;
      while (i < n && isDigit(body[i]!)) i++;
    }
    return true;
  };

  const readLiteral = (word: string): boolean => {
    for (let k = 0; k < word.length; k++) if (body[i + k] !== word.charCodeAt(k)) return false;
    i += word.length;
    return true;
  };

  const closeObject = (frame: Frame): void => {
    const type = frame.type === null ? null : decodeJsonString(body, frame.type);
    for (const member of frame.members) {
      if (type !== null && isOpaque(type, decodeJsonString(body, member.key!))) continue;
      out.push(member);
    }
  };

  // A finished value: the parent frame moves on; a string may become a segment.
  const valueDone = (str: JsonString | null): void => {
    const top = stack[stack.length - 1];
    if (top === undefined) {
      if (str !== null) out.push({ key: null, value: str });
      done = true;
      return;
    }
    top.state = 3;
    if (str === null) return;
    if (top.object) {
      const key = top.key!;
      top.members.push({ key, value: str });
      if (key.end - key.start === 4 && !key.escaped && isAscii(body, key.start, 'type')) top.type = str;
      else if (key.escaped && decodeJsonString(body, key) === 'type') top.type = str;
    } else out.push({ key: null, value: str });
  };

  while (!done) {
    skipSpace();
    if (i >= n) return null;
    const b = body[i]!;
    const top = stack[stack.length - 1];

    if (top !== undefined && top.state === 3) {
      if (b === 0x2c) {
        i++;
        top.state = top.object ? 0 : 2;
        if (top.object) {
          skipSpace();
          if (body[i] !== QUOTE) return null;
        }
        continue;
      }
      if ((top.object && b === 0x7d) || (!top.object && b === 0x5d)) {
        i++;
        stack.pop();
        if (top.object) closeObject(top);
        valueDone(null);
        continue;
      }
      return null;
    }

    if (top !== undefined && top.object && top.state === 0) {
      if (b === 0x7d) {
        i++;
        stack.pop();
        closeObject(top);
        valueDone(null);
        continue;
      }
      if (b !== QUOTE) return null;
      const key = readString();
      if (key === null) return null;
      top.key = key;
      top.state = 1;
      continue;
    }
    if (top !== undefined && top.object && top.state === 1) {
      if (b !== 0x3a) return null;
      i++;
      top.state = 2;
      continue;
    }
    if (top !== undefined && !top.object && top.state === 0 && b === 0x5d) {
      i++;
      stack.pop();
      valueDone(null);
      continue;
    }

    // A value.
    if (b === QUOTE) {
      const str = readString();
      if (str === null) return null;
      valueDone(str);
    } else if (b === 0x7b) {
      i++;
      stack.push({ object: true, state: 0, key: null, members: [], type: null });
    } else if (b === 0x5b) {
      i++;
      stack.push({ object: false, state: 0, key: null, members: [], type: null });
    } else if (b === 0x74) {
      if (!readLiteral('true')) return null;
      valueDone(null);
    } else if (b === 0x66) {
      if (!readLiteral('false')) return null;
      valueDone(null);
    } else if (b === 0x6e) {
      if (!readLiteral('null')) return null;
      valueDone(null);
    } else if (b === 0x2d || isDigit(b)) {
      if (!readNumber()) return null;
      valueDone(null);
    } else return null;
  }
  skipSpace();
  return i === n ? out : null;
}

function isOpaque(type: string, key: string): boolean {
  if (key === 'data') return type === 'base64' || type === 'redacted_thinking';
  if (key === 'signature') return type === 'thinking';
  return false;
}

function isDigit(b: number): boolean {
  return b >= 0x30 && b <= 0x39;
}

function isAscii(body: Uint8Array, at: number, word: string): boolean {
  for (let k = 0; k < word.length; k++) if (body[at + k] !== word.charCodeAt(k)) return false;
  return true;
}

function indexOf(body: Uint8Array, byte: number, from: number): number {
  return Buffer.prototype.indexOf.call(body, byte, from);
}

/** Full decoding of a (short) JSON string, for comparing keys and types. */
function decodeJsonString(body: Uint8Array, s: JsonString): string {
  const raw = Buffer.from(body.buffer, body.byteOffset + s.start, s.end - s.start);
  if (!s.escaped) return raw.toString('utf8');
  try {
    return JSON.parse(`"${raw.toString('utf8')}"`) as string;
  } catch {
    return '';
  }
}
