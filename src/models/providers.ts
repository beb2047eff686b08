/**
 * The providers a model id can name. `vendor` runs bare ids (the upstream
 * model vendor itself); provider_a..provider_d are the specification's
 * stand-ins for a routing aggregator, a model vendor, a hosted gateway and a
 * local runtime. Every one of them is reached through an Anthropic-compatible
 * Messages endpoint at `baseUrl`.
 */
export const PROVIDERS = ['vendor', 'provider_a', 'provider_b', 'provider_c', 'provider_d'] as const;
export type ProviderName = (typeof PROVIDERS)[number];
export const PINNABLE_PROVIDERS = ['provider_a', 'provider_b', 'provider_c', 'provider_d'] as const;

export type AuthScheme = 'xApiKey' | 'bearer';

export interface ProviderDefaults {
  /** Default base address; null where the owner must give one (a local runtime). */
  readonly baseUrl: string | null;
  readonly authScheme: AuthScheme;
}

export const PROVIDER_DEFAULTS: Readonly<Record<ProviderName, ProviderDefaults>> = {
  vendor: { baseUrl: 'https://api.anthropic.com', authScheme: 'xApiKey' },
  provider_a: { baseUrl: 'https://openrouter.ai/api', authScheme: 'bearer' },
  provider_b: { baseUrl: 'https://api.deepseek.com/anthropic', authScheme: 'xApiKey' },
  provider_c: { baseUrl: 'https://ai-gateway.vercel.sh', authScheme: 'bearer' },
  provider_d: { baseUrl: null, authScheme: 'xApiKey' },
};

const PROVIDER_SET: ReadonlySet<string> = new Set(PROVIDERS);
export function isProviderName(value: string): value is ProviderName {
  return PROVIDER_SET.has(value);
}

/** The Messages API version sent upstream when the caller names none. */
export const DEFAULT_API_VERSION = '2023-06-01';

/** Beta flag the upstream requires for OAuth (subscription seat) bearer tokens. */
export const OAUTH_BETA_FLAG = 'oauth-2025-04-20';
