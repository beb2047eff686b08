import { describe, expect, it } from 'vitest';
import { attributionHeaders } from '../../../src/pipeline/attribution-headers.js';

const asLatin1 = (text: string): string => Buffer.from(text, 'utf8').toString('latin1');

describe('attributionHeaders', () => {
  it('hands back the very same map when every attribution value is ASCII', () => {
    const headers = { 'x-gw-repo': 'github.com/acme/web', 'x-gw-application': 'ci', other: asLatin1('\u00e9') };
    expect(attributionHeaders(headers)).toBe(headers);
  });

  it('decodes UTF-8 labels sent one character per byte, and leaves other headers as they came', () => {
    const other = asLatin1('\u00e9');
    const out = attributionHeaders({ 'x-gw-application': asLatin1('caf\u00e9 \u2615'), 'x-gw-end-user': asLatin1('J\u00fcrgen'), other });
    expect(out['x-gw-application']).toBe('caf\u00e9 \u2615');
    expect(out['x-gw-end-user']).toBe('J\u00fcrgen');
    expect(out.other).toBe(other);
  });

  it('turns a repo that is not valid UTF-8 into an empty value (refused as a slug), but keeps what a label decodes', () => {
    const invalid = Buffer.from([0x61, 0xff, 0x62]).toString('latin1');
    const out = attributionHeaders({ 'x-gw-repo': invalid, 'x-gw-application': invalid });
    expect(out['x-gw-repo']).toBe('');
    expect(out['x-gw-application']).toBe('a\ufffdb');
  });
});
