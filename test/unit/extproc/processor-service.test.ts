import { describe, expect, it } from 'vitest';
import { decodeProcessingResponse, encodeProcessingResponse, processorService, type ProcessingResponse } from '../../../src/extproc/proto.js';
import { setHeader } from '../../../src/extproc/header-codec.js';
import { decodeHeaders } from '../../../src/extproc/header-codec.js';

const serialize = processorService.Process.responseSerialize;

describe('processorService response encoding', () => {
  it('encodes a frozen constant answer to the same bytes as the loader, once', () => {
    const answer = Object.freeze({ response_body: Object.freeze({ response: Object.freeze({}) }) }) as ProcessingResponse;
    const first = serialize(answer);
    expect(first.equals(encodeProcessingResponse(answer))).toBe(true);
    expect(serialize(answer)).toBe(first);
    expect(decodeProcessingResponse(first).response).toBe('response_body');
  });

  it('encodes every other answer afresh (a mutable answer may change between writes)', () => {
    const answer: ProcessingResponse = { request_headers: { response: { header_mutation: { set_headers: [setHeader('x-a', '1')] } } } };
    const before = serialize(answer);
    expect(before.equals(encodeProcessingResponse(answer))).toBe(true);
    answer.request_headers!.response!.header_mutation!.set_headers = [setHeader('x-a', '2')];
    const after = serialize(answer);
    expect(after.equals(before)).toBe(false);
    expect(after.equals(encodeProcessingResponse(answer))).toBe(true);
  });
});

describe('decodeHeaders', () => {
  it('reads raw_value bytes as latin1 without depending on a copy', () => {
    const raw = Buffer.from('caf\u00e9', 'latin1');
    const { map, pseudo } = decodeHeaders({ headers: [{ key: ':path', raw_value: Buffer.from('/v1/messages') }, { key: 'X-Name', raw_value: raw }, { key: 'x-name', value: 'two' }] });
    expect(pseudo[':path']).toBe('/v1/messages');
    expect(map['x-name']).toBe('caf\u00e9, two');
    raw[0] = 0x43;
    expect(map['x-name']).toBe('caf\u00e9, two');
  });
});
