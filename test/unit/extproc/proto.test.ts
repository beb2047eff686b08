import { describe, expect, it } from 'vitest';
import {
  decodeProcessingRequest,
  decodeProcessingResponse,
  encodeProcessingRequest,
  encodeProcessingResponse,
  processorService,
  statusCodeNumber,
  type ProcessingResponse,
} from '../../../src/extproc/proto.js';
import { setHeader } from '../../../src/extproc/header-codec.js';

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

describe('statusCodeNumber', () => {
  it('reads HttpStatus.code by name or number, 0 when absent', () => {
    expect(statusCodeNumber('Unauthorized')).toBe(401);
    expect(statusCodeNumber(503)).toBe(503);
    expect(statusCodeNumber(undefined)).toBe(0);
  });
});

describe('request codec', () => {
  it('round-trips a ProcessingRequest and names the member of its oneof', () => {
    const bytes = encodeProcessingRequest({ request_body: { body: Buffer.from('{}'), end_of_stream: true } });
    const decoded = decodeProcessingRequest(bytes);
    expect(decoded.request).toBe('request_body');
    expect(Buffer.from(decoded.request_body?.body ?? '').toString()).toBe('{}');
    expect(decoded.request_body?.end_of_stream).toBe(true);
  });
});
