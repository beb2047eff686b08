import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors/gateway-error.js';
import { MESSAGES } from '../../../src/errors/messages.js';
import { parseModel } from '../../../src/models/parse-model.js';
import { PINNABLE_PROVIDERS } from '../../../src/models/providers.js';

function refusal(raw: string): GatewayError {
  try {
    parseModel(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    return error as GatewayError;
  }
  throw new Error(`parseModel(${JSON.stringify(raw)}) did not throw`);
}

describe('parseModel', () => {
  it('runs a bare id on the vendor, unchanged', () => {
    expect(parseModel('Claude-Sonnet-4.5')).toEqual({ raw: 'Claude-Sonnet-4.5', provider: 'vendor', id: 'Claude-Sonnet-4.5', pinned: false });
  });

  it('splits a pinned id at the first colon', () => {
    expect(parseModel('provider_a:anthropic/claude-sonnet-4.5')).toEqual({
      raw: 'provider_a:anthropic/claude-sonnet-4.5',
      provider: 'provider_a',
      id: 'anthropic/claude-sonnet-4.5',
      pinned: true,
    });
  });

  it.each([
    ['provider_d:llama3:8b', 'provider_d', 'llama3:8b'],
    ['provider_d:hf.co/org/model:Q4_K_M', 'provider_d', 'hf.co/org/model:Q4_K_M'],
    ['provider_b::leading-colon', 'provider_b', ':leading-colon'],
    ['provider_c:a:b:c:', 'provider_c', 'a:b:c:'],
  ])('keeps every colon after the first: %j', (raw, provider, id) => {
    expect(parseModel(raw)).toMatchObject({ provider, id, pinned: true });
  });

  it.each(['PROVIDER_A', 'Provider_A', 'provider_A'])('reads the provider prefix %j case-insensitively', (prefix) => {
    expect(parseModel(`${prefix}:x`)).toMatchObject({ provider: 'provider_a', id: 'x', pinned: true });
  });

  it('passes unicode, slashes, capitals and dots through unchanged', () => {
    const id = 'Org/模型-Ünïcode.v2/😀';
    expect(parseModel(`provider_c:${id}`).id).toBe(id);
  });

  it('passes any id after a pinnable prefix through unchanged', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PINNABLE_PROVIDERS), fc.string({ unit: 'grapheme' }), (provider, id) => {
        const parsed = parseModel(`${provider}:${id}`);
        return parsed.provider === provider && parsed.id === id && parsed.pinned && parsed.raw === `${provider}:${id}`;
      }),
    );
  });

  it.each([
    ['provider_e:x', 'provider_e'],
    ['vendor:claude-sonnet-4-5', 'vendor'],
    [':claude-sonnet-4-5', ''],
    ['openai:gpt-4o', 'openai'],
    [' provider_a:x', ' provider_a'],
  ])('refuses the unknown provider in %j with model_not_allowed', (raw, prefix) => {
    const error = refusal(raw);
    expect(error.fault).toBe('model_not_allowed');
    expect(error.status).toBe(403);
    expect(error.message).toBe(MESSAGES.unknownProvider(prefix, PINNABLE_PROVIDERS));
    expect(error.message).toBe(`gw: "${prefix}" is not a provider; use a bare model id or one of provider_a, provider_b, provider_c, provider_d before the colon`);
  });
});
