import { describe, expect, it } from 'vitest';
import { CATALOGUE, findListedModel, listedModels, normalizedSpellings, vendorPrice } from '../../../src/models/catalogue.js';
import { priceFromBase } from '../../../src/models/price.js';

describe('findListedModel', () => {
  it.each([
    ['claude-sonnet-4-5-20250929', 'claude-sonnet-4-5-20250929', 'claude-sonnet-4-5-20250929'],
    ['CLAUDE.SONNET.4.5.20250929', 'claude-sonnet-4-5-20250929', 'claude-sonnet-4-5-20250929'],
    ['Claude-Sonnet-4.5', 'claude-sonnet-4-5-20250929', 'claude-sonnet-4-5'],
    ['claude-sonnet-4-5', 'claude-sonnet-4-5-20250929', 'claude-sonnet-4-5'],
    ['claude-opus-4-0', 'claude-opus-4-20250514', 'claude-opus-4-0'],
    ['Claude-Opus-4.1', 'claude-opus-4-1-20250805', 'claude-opus-4-1'],
    ['claude-3-5-haiku-latest', 'claude-3-5-haiku-20241022', 'claude-3-5-haiku-latest'],
    ['claude-haiku-4.5', 'claude-haiku-4-5-20251001', 'claude-haiku-4-5'],
  ])('vendor %j selects %s, spelled %s', (id, model, spelling) => {
    const match = findListedModel('vendor', id);
    expect(match?.model.id).toBe(model);
    expect(match?.spelling).toBe(spelling);
  });

  it('lists provider_a models under their own spelling', () => {
    const match = findListedModel('provider_a', 'Anthropic/Claude-Sonnet-4-5');
    expect(match?.model).toMatchObject({ id: 'anthropic/claude-sonnet-4.5', provider: 'provider_a' });
    expect(match?.spelling).toBe('anthropic/claude-sonnet-4.5');
  });

  it.each([
    ['vendor', 'claude-opus-4-8'],
    ['vendor', 'claude-sonnet'],
    ['vendor', 'anthropic/claude-sonnet-4.5'],
    ['vendor', 'claude_sonnet_4_5'],
    ['provider_a', 'claude-sonnet-4-5'],
    ['provider_b', 'claude-sonnet-4-5-20250929'],
    ['provider_d', 'anthropic/claude-sonnet-4.5'],
  ] as const)('%s does not list %j', (provider, id) => {
    expect(findListedModel(provider, id)).toBeUndefined();
  });

  it('finds every catalogue entry by its own id on its own provider only', () => {
    for (const model of CATALOGUE) {
      expect(findListedModel(model.provider, model.id)?.model).toBe(model);
      expect(findListedModel(model.provider, model.id.toUpperCase())?.spelling).toBe(model.id);
    }
    expect(listedModels('vendor').every((m) => m.provider === 'vendor')).toBe(true);
    expect(listedModels('vendor').length + listedModels('provider_a').length).toBe(CATALOGUE.length);
    expect(listedModels('provider_d')).toEqual([]);
  });
});

describe('normalizedSpellings', () => {
  it("gives a listed model's normalized id first, then its aliases", () => {
    const sonnet = findListedModel('vendor', 'claude-sonnet-4-5-20250929')?.model;
    expect(sonnet && normalizedSpellings(sonnet)).toEqual(['claudesonnet4520250929', 'claudesonnet45']);
    const haiku3 = findListedModel('vendor', 'claude-3-haiku-20240307')?.model;
    expect(haiku3 && normalizedSpellings(haiku3)).toEqual(['claude3haiku20240307']);
  });

  it('holds exactly the spellings that select the model', () => {
    for (const model of CATALOGUE) for (const spelling of normalizedSpellings(model)) expect(findListedModel(model.provider, spelling)?.model).toBe(model);
  });
});

describe('vendorPrice', () => {
  const opusOld = priceFromBase(15, 75);
  const opus = priceFromBase(5, 25);
  const sonnet = priceFromBase(3, 15);
  const haiku = priceFromBase(1, 5);

  it.each([
    ['claude-opus-4-5-20251101', opus],
    ['claude-opus-4-5', opus],
    ['claude-opus-4-8', opus],
    ['claude-opus-5', opus],
    ['claude-opus-5-5', opus],
    ['claude-opus-4-10', opus],
    ['claude-opus-4-1-20250805', opusOld],
    ['claude-opus-4-1', opusOld],
    ['claude-opus-4-20250514', opusOld],
    ['claude-opus-4-0', opusOld],
    ['claude-3-opus-20240229', opusOld],
    ['claude-sonnet-4-5-20250929', sonnet],
    ['claude-sonnet-4-20250514', sonnet],
    ['claude-sonnet-5', sonnet],
    ['claude-sonnet-5-5', sonnet],
    ['claude-3-7-sonnet-20250219', sonnet],
    ['claude-3-5-sonnet-20241022', sonnet],
    ['claude-haiku-4-5-20251001', haiku],
    ['claude-haiku-5-5', haiku],
    ['claude-3-5-haiku-20241022', priceFromBase(0.8, 4)],
    ['claude-3-haiku-20240307', priceFromBase(0.25, 1.25)],
    ['Claude-Opus-4-8', opus],
  ])('%s costs its family price', (id, price) => {
    expect(vendorPrice(id)).toEqual(price);
  });

  it('derives cache prices from the base price', () => {
    expect(vendorPrice('claude-sonnet-5')).toEqual({ input: 3, output: 15, cacheWrite5m: 3.75, cacheWrite1h: 6, cacheRead: 0.3 });
    expect(vendorPrice('claude-3-haiku-20240307')).toEqual({ input: 0.25, output: 1.25, cacheWrite5m: 0.3125, cacheWrite1h: 0.5, cacheRead: 0.025 });
  });

  it.each(['gpt-4o', 'llama3:8b', 'anthropic/claude-sonnet-4.5', 'claude', 'claude-instant-1.2', 'deepseek-chat', 'my-gw-model', ''])('does not price the non-Claude id %j', (id) => {
    expect(vendorPrice(id)).toBeUndefined();
  });
});
