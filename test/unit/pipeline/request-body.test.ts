import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors/gateway-error.js';
import { readBodyFields } from '../../../src/pipeline/request-body.js';

const VALID = { model: 'claude-sonnet-4-5', max_tokens: 1024, messages: [{ role: 'user', content: 'Hello' }] };

function body(value: unknown): Buffer {
  return Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));
}

function refusal(value: unknown, requireMaxTokens = true): GatewayError {
  try {
    readBodyFields(body(value), requireMaxTokens);
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).fault).toBe('invalid_request');
    expect((error as GatewayError).status).toBe(400);
    return error as GatewayError;
  }
  throw new Error(`accepted ${JSON.stringify(value)}`);
}

describe('readBodyFields', () => {
  it('reads model, stream and max_tokens of a valid body', () => {
    expect(readBodyFields(body(VALID), true)).toEqual({ model: 'claude-sonnet-4-5', stream: false, sessionId: null, maxTokens: 1024 });
    expect(readBodyFields(body({ ...VALID, stream: true }), true).stream).toBe(true);
    expect(readBodyFields(body({ ...VALID, stream: false }), true).stream).toBe(false);
    expect(readBodyFields(body({ ...VALID, stream: null }), true).stream).toBe(false);
  });

  it('accepts unknown fields, system-role messages and any message shape without looking', () => {
    const claudeCode = {
      ...VALID,
      system: [{ type: 'text', text: 'x-anthropic-billing-header: cc_version=2.1.197' }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }] },
        { role: 'system', content: 'Available agent types' },
      ],
      thinking: { type: 'adaptive' },
      context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
      output_config: { effort: 'high' },
      some_future_field: [1, 2, 3],
    };
    expect(readBodyFields(body(claudeCode), true).model).toBe('claude-sonnet-4-5');
    expect(readBodyFields(body({ ...VALID, messages: [] }), true).model).toBe('claude-sonnet-4-5');
  });

  it.each([
    ['is empty', ''],
    ['is not JSON', 'model=claude'],
    ['is truncated', '{"model":"claude-sonnet-4-5","max_tokens":'],
    ['has a trailing comma', '{"model":"m","max_tokens":1,"messages":[],}'],
  ])('refuses a body that %s as not valid JSON', (_, text) => {
    expect(refusal(text).message).toBe('gw: the request body is not valid JSON');
  });

  it.each([
    ['an array', '[]'],
    ['a string', '"hello"'],
    ['a number', '42'],
    ['null', 'null'],
  ])('refuses %s as the body', (_, text) => {
    expect(refusal(text).message).toBe('gw: the request body must be a JSON object');
  });

  it.each([
    ['missing', undefined],
    ['a number', 42],
    ['null', null],
    ['empty', ''],
    ['an object', { id: 'claude' }],
  ])('refuses a model that is %s', (_, model) => {
    expect(refusal({ ...VALID, model }).message).toBe('gw: "model" is required and must be a non-empty string');
  });

  it('limits the model to 256 characters', () => {
    expect(readBodyFields(body({ ...VALID, model: 'm'.repeat(256) }), true).model).toHaveLength(256);
    expect(refusal({ ...VALID, model: 'm'.repeat(257) }).message).toBe('gw: "model" is longer than 256 characters');
  });

  it.each([
    ['missing', undefined],
    ['a string', '1024'],
    ['a fraction', 1.5],
    ['zero', 0],
    ['negative', -1],
    ['null', null],
  ])('refuses max_tokens that is %s on messages', (_, maxTokens) => {
    expect(refusal({ ...VALID, max_tokens: maxTokens }).message).toBe('gw: "max_tokens" is required and must be a positive integer');
  });

  it('does not require max_tokens where the endpoint does not (count_tokens)', () => {
    const { max_tokens: _, ...withoutMax } = VALID;
    expect(readBodyFields(body(withoutMax), false)).toEqual({ model: 'claude-sonnet-4-5', stream: false, sessionId: null, maxTokens: null });
  });

  it.each([
    ['missing', undefined],
    ['an object', { role: 'user', content: 'hi' }],
    ['a string', 'hi'],
    ['null', null],
  ])('refuses messages that are %s', (_, messages) => {
    expect(refusal({ ...VALID, messages }).message).toBe('gw: "messages" is required and must be an array');
    expect(refusal({ ...VALID, messages }, false).message).toBe('gw: "messages" is required and must be an array');
  });

  it.each([
    ['a string', 'true'],
    ['a number', 1],
    ['an object', {}],
  ])('refuses stream that is %s', (_, stream) => {
    expect(refusal({ ...VALID, stream }).message).toBe('gw: "stream" must be a boolean');
  });

  describe('session id from metadata.user_id', () => {
    const withUserId = (userId: unknown): Buffer => body({ ...VALID, metadata: { user_id: userId } });

    it('reads session_id from the JSON string Claude Code sends', () => {
      const userId = JSON.stringify({ device_id: 'a'.repeat(64), account_uuid: '', session_id: '2e341e81-7e5a-436d-ad60-b61b98ac11b1' });
      expect(readBodyFields(withUserId(userId), true).sessionId).toBe('2e341e81-7e5a-436d-ad60-b61b98ac11b1');
    });

    it.each([
      ['a plain user id', 'user_abc123'],
      ['JSON without session_id', '{"device_id":"d"}'],
      ['an empty session_id', '{"session_id":""}'],
      ['a numeric session_id', '{"session_id":42}'],
      ['broken JSON', '{"session_id":"x"'],
      ['a JSON array', '["session_id","x"]'],
      ['a number', 42],
      ['null', null],
    ])('has no session for %s', (_, userId) => {
      expect(readBodyFields(withUserId(userId), true).sessionId).toBeNull();
    });

    it('has no session when metadata is missing or not an object', () => {
      expect(readBodyFields(body({ ...VALID, metadata: 'x' }), true).sessionId).toBeNull();
      expect(readBodyFields(body({ ...VALID, metadata: null }), true).sessionId).toBeNull();
      expect(readBodyFields(body(VALID), true).sessionId).toBeNull();
    });
  });
});
