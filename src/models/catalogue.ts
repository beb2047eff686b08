import { normalizeModelId } from './normalize.js';
import { priceFromBase, type Price } from './price.js';
import type { ProviderName } from './providers.js';

/**
 * Models the service lists. A listed model must be switched on for its
 * provider before it can be used there (spec §2.3); for the vendor, listed
 * models are on unless the company's settings name an explicit list.
 */
export interface CatalogueModel {
  readonly id: string;
  readonly provider: ProviderName;
  readonly displayName: string;
  readonly createdAt: string;
}

const VENDOR_MODELS: ReadonlyArray<readonly [string, string, string]> = [
  ['claude-opus-4-5-20251101', 'Claude Opus 4.5', '2025-11-01T00:00:00Z'],
  ['claude-opus-4-1-20250805', 'Claude Opus 4.1', '2025-08-05T00:00:00Z'],
  ['claude-opus-4-20250514', 'Claude Opus 4', '2025-05-14T00:00:00Z'],
  ['claude-sonnet-4-5-20250929', 'Claude Sonnet 4.5', '2025-09-29T00:00:00Z'],
  ['claude-sonnet-4-20250514', 'Claude Sonnet 4', '2025-05-14T00:00:00Z'],
  ['claude-3-7-sonnet-20250219', 'Claude Sonnet 3.7', '2025-02-19T00:00:00Z'],
  ['claude-haiku-4-5-20251001', 'Claude Haiku 4.5', '2025-10-01T00:00:00Z'],
  ['claude-3-5-haiku-20241022', 'Claude Haiku 3.5', '2024-10-22T00:00:00Z'],
  ['claude-3-haiku-20240307', 'Claude Haiku 3', '2024-03-07T00:00:00Z'],
];

/** Aliases the vendor accepts without a date; they resolve to the dated id above. */
const VENDOR_ALIASES: ReadonlyArray<readonly [string, string]> = [
  ['claude-opus-4-5', 'claude-opus-4-5-20251101'],
  ['claude-opus-4-1', 'claude-opus-4-1-20250805'],
  ['claude-opus-4-0', 'claude-opus-4-20250514'],
  ['claude-sonnet-4-5', 'claude-sonnet-4-5-20250929'],
  ['claude-sonnet-4-0', 'claude-sonnet-4-20250514'],
  ['claude-3-7-sonnet-latest', 'claude-3-7-sonnet-20250219'],
  ['claude-haiku-4-5', 'claude-haiku-4-5-20251001'],
  ['claude-3-5-haiku-latest', 'claude-3-5-haiku-20241022'],
];

/** Models the routing aggregator (provider_a) is known to list; used for switch-on. */
const PROVIDER_A_MODELS: ReadonlyArray<readonly [string, string]> = [
  ['anthropic/claude-sonnet-4.5', 'Claude Sonnet 4.5 via provider_a'],
  ['anthropic/claude-opus-4.5', 'Claude Opus 4.5 via provider_a'],
  ['anthropic/claude-haiku-4.5', 'Claude Haiku 4.5 via provider_a'],
];

export const CATALOGUE: readonly CatalogueModel[] = [
  ...VENDOR_MODELS.map(([id, displayName, createdAt]) => ({ id, provider: 'vendor' as const, displayName, createdAt })),
  ...PROVIDER_A_MODELS.map(([id, displayName]) => ({ id, provider: 'provider_a' as const, displayName, createdAt: '2025-10-01T00:00:00Z' })),
];

/** A listed model as one spelling selects it (an alias keeps its own spelling). */
export interface ListedMatch {
  readonly model: CatalogueModel;
  /** The catalogue's canonical spelling of what the caller wrote. */
  readonly spelling: string;
}

const BY_PROVIDER = new Map<ProviderName, Map<string, ListedMatch>>();
for (const model of CATALOGUE) {
  let index = BY_PROVIDER.get(model.provider);
  if (!index) BY_PROVIDER.set(model.provider, (index = new Map()));
  index.set(normalizeModelId(model.id), { model, spelling: model.id });
}
const SPELLINGS = new Map<CatalogueModel, string[]>(CATALOGUE.map((m) => [m, [normalizeModelId(m.id)]]));
{
  const vendor = BY_PROVIDER.get('vendor') as Map<string, ListedMatch>;
  for (const [alias, target] of VENDOR_ALIASES) {
    const match = vendor.get(normalizeModelId(target));
    if (match) {
      vendor.set(normalizeModelId(alias), { model: match.model, spelling: alias });
      SPELLINGS.get(match.model)?.push(normalizeModelId(alias));
    }
  }
}

/**
 * Every normalized spelling that selects a listed model (its id, then its
 * aliases): an owner who switches on `claude-sonnet-4-5` has switched on the
 * dated id too, and the other way round.
 */
export function normalizedSpellings(model: CatalogueModel): readonly string[] {
  return SPELLINGS.get(model) ?? [normalizeModelId(model.id)];
}

/** The listed model this id selects on the provider, ignoring capitals, dashes and dots. */
export function findListedModel(provider: ProviderName, id: string): ListedMatch | undefined {
  return BY_PROVIDER.get(provider)?.get(normalizeModelId(id));
}

export function listedModels(provider: ProviderName): CatalogueModel[] {
  return CATALOGUE.filter((m) => m.provider === provider);
}

/**
 * Prices by model family, so that a dated release or an id newer than this
 * catalogue (Claude Code asks for such ids) is still priced. First match wins.
 */
const FAMILY_PRICES: ReadonlyArray<readonly [RegExp, Price]> = [
  [/^claude-opus-4-(0|1)\b|^claude-opus-4-20|^claude-3-opus/, priceFromBase(15, 75)],
  [/^claude-opus-/, priceFromBase(5, 25)],
  [/^claude-(3-7-)?sonnet-|^claude-3-5-sonnet/, priceFromBase(3, 15)],
  [/^claude-3-5-haiku/, priceFromBase(0.8, 4)],
  [/^claude-3-haiku/, priceFromBase(0.25, 1.25)],
  [/^claude-haiku-/, priceFromBase(1, 5)],
];

/** Price of a vendor model id (canonical spelling), or undefined when unknown. */
export function vendorPrice(modelId: string): Price | undefined {
  const id = modelId.toLowerCase();
  for (const [pattern, price] of FAMILY_PRICES) if (pattern.test(id)) return price;
  return undefined;
}
