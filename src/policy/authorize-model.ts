import { GatewayError } from '../errors/gateway-error.js';
import { CREDENTIAL_MESSAGES, MESSAGES } from '../errors/messages.js';
import { findListedModel, listedModels, normalizedSpellings, vendorPrice } from '../models/catalogue.js';
import { normalizeModelId } from '../models/normalize.js';
import { parseModel, type ParsedModel } from '../models/parse-model.js';
import type { Price } from '../models/price.js';
import { PROVIDER_INFO, PROVIDERS, type ProviderName } from '../models/providers.js';
import type { ServedModels } from '../models/served-models.js';
import type { CompanyRecords, CompanySettings, CredentialRecord } from '../state/records.js';

export interface ModelDecision {
  readonly parsed: ParsedModel;
  readonly provider: ProviderName;
  /** The id sent upstream in the body. */
  readonly forwardId: string;
  /**
   * The model as Usage and Logs name it: the catalogue's (or the provider's
   * list's) spelling, with the `provider:` prefix for pinned ids, so that
   * `Claude-Sonnet-4.5` and `claude-sonnet-4-5` are one model in reports.
   */
  readonly canonicalId: string;
  readonly normalized: string;
  readonly price: Price | undefined;
  /** Credentials of the provider allowed to carry this model, best priority first. */
  readonly candidates: readonly CredentialRecord[];
}

const MAX_LISTED_IN_MESSAGE = 40;

export function isSwitchedOn(settings: CompanySettings, provider: ProviderName, normalizedIds: readonly string[]): boolean {
  const enabled = settings.enabledModels[provider];
  // Without an explicit list, the provider's default applies (the vendor's listed models on, other providers' off).
  if (enabled === undefined) return PROVIDER_INFO[provider].modelsOnByDefault;
  return enabled.includes('*') || normalizedIds.some((id) => enabled.includes(id));
}

/**
 * Spec §4.1 rule 2 and §2.3: which provider and model a request may use.
 * Never falls back onto another model or provider.
 */
export async function authorizeModel(raw: string, company: CompanyRecords, served: ServedModels<CredentialRecord>): Promise<ModelDecision> {
  const parsed = parseModel(raw);
  const { provider } = parsed;
  const connected = company.credentials.filter((c) => c.provider === provider);
  if (connected.length === 0) {
    // A bare id the catalogue does not know is not a model at all: say so, with what the company can use
    // instead, rather than blame a vendor connection the caller may never have meant to use.
    if (!parsed.pinned && !findListedModel(provider, parsed.id)) throw new GatewayError('model_not_allowed', MESSAGES.notAModel(raw, await companyUsableIds(company, served)));
    throw new GatewayError('model_not_allowed', MESSAGES.providerNotConnected(provider));
  }

  let forwardId: string;
  let normalized: string;
  let spelled: string;
  const aliases: string[] = [];
  const listed = findListedModel(provider, parsed.id);
  if (listed) {
    normalized = normalizeModelId(listed.model.id);
    aliases.push(...normalizedSpellings(listed.model));
    if (!isSwitchedOn(company.settings, provider, aliases)) throw new GatewayError('model_not_allowed', MESSAGES.switchedOff(raw));
    forwardId = parsed.pinned ? parsed.id : listed.spelling;
    spelled = listed.spelling;
  } else {
    normalized = normalizeModelId(parsed.id);
    aliases.push(normalized);
    const list = await served.get(company.company, provider, connected);
    const spelling = list?.byNormalized.get(normalized);
    if (list !== null && spelling === undefined) {
      if (parsed.pinned) throw new GatewayError('model_not_allowed', MESSAGES.notServedBy(raw, provider, await usableIds(company, provider, served)));
      throw new GatewayError('model_not_allowed', MESSAGES.notAModel(raw, await companyUsableIds(company, served)));
    }
    forwardId = parsed.pinned || spelling === undefined ? parsed.id : spelling;
    spelled = spelling ?? parsed.id;
  }
  const canonicalId = parsed.pinned ? `${provider}:${spelled}` : spelled;

  const candidates = connected.filter((c) => c.models === null || aliases.some((a) => (c.models as readonly string[]).includes(a))).sort((a, b) => b.priority - a.priority);
  if (candidates.length === 0) throw new GatewayError('model_not_allowed', CREDENTIAL_MESSAGES.notOnCredentials(raw, provider));

  const price = company.settings.prices[normalized] ?? company.settings.prices[normalizeModelId(parsed.raw)] ?? (provider === 'vendor' ? vendorPrice(listed ? listed.model.id : forwardId) : undefined);
  return { parsed, provider, forwardId, canonicalId, normalized, price, candidates };
}

/** The ids a company can use on one provider, as a caller would write them. */
export async function usableIds(company: CompanyRecords, provider: ProviderName, served: ServedModels<CredentialRecord>): Promise<string[]> {
  const connected = company.credentials.filter((c) => c.provider === provider);
  if (connected.length === 0) return [];
  const prefix = PROVIDER_INFO[provider].idPrefix;
  const ids = new Set<string>();
  for (const model of listedModels(provider)) {
    if (isSwitchedOn(company.settings, provider, normalizedSpellings(model))) ids.add(prefix + model.id);
  }
  const list = await served.get(company.company, provider, connected);
  for (const id of list?.ids ?? []) ids.add(prefix + id);
  return [...ids].slice(0, MAX_LISTED_IN_MESSAGE);
}

/** Every id the company can use, bare vendor ids first, then each provider's with its prefix. */
export async function companyUsableIds(company: CompanyRecords, served: ServedModels<CredentialRecord>): Promise<string[]> {
  const ids: string[] = [];
  for (const provider of PROVIDERS) ids.push(...(await usableIds(company, provider, served)));
  return ids.slice(0, MAX_LISTED_IN_MESSAGE);
}
