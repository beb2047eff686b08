import { describe, expect, it } from 'vitest';
import { decodeHeaders, setHeader } from '../../../src/extproc/header-codec.js';

describe('decodeHeaders', () => {
  it('reads raw_value bytes as latin1 without depending on a copy', () => {
    const raw = Buffer.from('caf\u00e9', 'latin1');
    const { map, pseudo } = decodeHeaders({
      headers: [
        { key: ':path', raw_value: Buffer.from('/v1/messages') },
        { key: 'X-Name', raw_value: raw },
        { key: 'x-name', value: 'two' },
      ],
    });
    expect(pseudo[':path']).toBe('/v1/messages');
    expect(map['x-name']).toBe('caf\u00e9, two');
    raw[0] = 0x43;
    expect(map['x-name']).toBe('caf\u00e9, two');
  });

  it('lower-cases names, joins repeats, names them once, and counts every regular field', () => {
    const decoded = decodeHeaders({
      headers: [
        { key: ':method', raw_value: Buffer.from('POST') },
        { key: 'Accept', raw_value: Buffer.from('a') },
        { key: 'accept', raw_value: Buffer.from('b') },
        { key: 'ACCEPT', raw_value: Buffer.from('c') },
        { key: 'x-one', value: 'v' },
        { key: '', value: 'dropped' },
      ],
    });
    expect(decoded.map).toEqual({ accept: 'a, b, c', 'x-one': 'v' });
    expect(decoded.pseudo).toEqual({ ':method': 'POST' });
    expect(decoded.repeated).toEqual(['accept']);
    expect(decoded.fieldCount).toBe(4);
    // Names and values as sent, every repeat counted, pseudo-headers not: accept+a three times, x-one+v.
    expect(decoded.headerBytes).toBe(3 * 7 + 6);
  });

  it('reads an absent header map as empty', () => {
    expect(decodeHeaders(undefined)).toEqual({ map: {}, pseudo: {}, repeated: [], fieldCount: 0, headerBytes: 0 });
  });
});

describe('setHeader', () => {
  it('replaces (append false) and carries the value only as latin1 raw_value', () => {
    const option = setHeader('x-gw-warning', 'caf\u00e9');
    expect(option.append).toEqual({ value: false });
    expect(option.header?.value).toBeUndefined();
    expect(Buffer.from(option.header?.raw_value ?? '')).toEqual(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
  });
});
