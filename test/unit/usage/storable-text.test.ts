import { describe, expect, test } from 'vitest';
import { readUsageRecord } from '../../../src/metering/read-usage-record.js';
import { copyField } from '../../../src/usage/postgres/copy-in.js';
import { storableJson, storableString } from '../../../src/usage/postgres/storable-text.js';
import { usageRecord } from '../../support/usage-records.js';

describe('every string made storable in PostgreSQL', () => {
  test('U+0000 and lone surrogates become U+FFFD; pairs and everything else stay as written', () => {
    expect(storableString('a\u0000b')).toBe('a\ufffdb');
    expect(storableString('x\ud800y\udc00z')).toBe('x\ufffdy\ufffdz');
    expect(storableString('emoji \ud83d\ude00 ok')).toBe('emoji \ud83d\ude00 ok');
    expect(storableString('plain-id_1.2')).toBe('plain-id_1.2');
  });

  test('a COPY field never carries a NUL (which COPY refuses), and still escapes its specials', () => {
    expect(copyField('m\u0000x')).toBe('m\ufffdx');
    expect(copyField('a\\b\tc\nd')).toBe('a\\\\b\\tc\\nd');
    expect(copyField(null)).toBe('\\N');
  });

  test('record JSON: \\u0000 and lone surrogate escapes are rewritten, the rest of the record kept; ordinary text is returned untouched', () => {
    const record = usageRecord('acme', 1, { requested_model: 'Claude\u0000\ud800', repo: 'r\u0000' });
    const text = JSON.stringify(record);
    expect(text).toContain('\\u0000');
    const stored = storableJson(text);
    expect(stored).not.toMatch(/\\u0000|\\ud[89a-f]/i);
    expect(JSON.parse(stored)).toEqual({ ...record, requested_model: 'Claude\ufffd\ufffd', repo: 'r\ufffd' });
    const plain = JSON.stringify(usageRecord('acme', 2));
    expect(storableJson(plain)).toBe(plain);
  });
});

describe('reading a stored record back', () => {
  test('a record as the data plane writes it is read', () => {
    const r = usageRecord('acme', 3);
    expect(readUsageRecord(JSON.stringify(r))).toEqual({ record: r });
  });

  test.each([
    ['not JSON', '{"a":', null, 'not JSON'],
    ['not an object', '[1,2]', null, 'not a JSON object'],
    ['tokens as text', JSON.stringify({ ...usageRecord('acme', 1, { request_id: 'req_1' }), input_tokens: 'abc' }), 'req_1', 'input_tokens is not a non-negative integer'],
    ['no request id', JSON.stringify({ ...usageRecord('acme', 1), request_id: undefined }), null, 'request_id is missing or not a string'],
    ['a time that is none', JSON.stringify(usageRecord('acme', 1, { request_id: 'req_2', time: 'yesterday-ish' })), 'req_2', 'time is missing or not a timestamp'],
    ['a model that is a number', JSON.stringify({ ...usageRecord('acme', 1, { request_id: 'req_3' }), model: 7 }), 'req_3', 'model is not a string'],
  ])('%s: refused with a reason that names the field, never its content', (_name, text, requestId, reason) => {
    expect(readUsageRecord(text)).toEqual({ requestId, reason });
  });
});
