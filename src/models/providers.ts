/**
 * The providers a model id can name, each declared once here. `vendor` runs
 * bare ids (the upstream model vendor itself); provider_a..provider_d are the
 * specification's stand-ins for a routing aggregator, a model vendor, a hosted
 * gateway and a local runtime. Every one of them is reached through an
 * Anthropic-compatible Messages endpoint at `baseUrl`.
 *
 * Derived from this table (scripts/gen-providers.mjs, checked by
 * test/unit/models/providers-generated.test.ts): the `provider` enum of the
 * ProviderCredential CRD, the per-provider `models` block of the
 * GatewaySettings CRD (and their copies in the chart), the chart's list of
 * provider hosts Envoy resolves at start, and the generated resource types.
 * Adding a provider is one entry here, then `node scripts/gen-providers.mjs`.
 */
export type AuthScheme = 'xApiKey' | 'bearer';

export interface ProviderInfo {
  /** How docs and the console name it. */
  readonly displayName: string;
  /** What model ids name it by: '' for bare ids, `<name>:` for a pinned provider. */
  readonly idPrefix: string;
  /** OpenTelemetry's gen_ai.provider.name (a well-known value where the conventions have one). */
  readonly genAiName: string;
  /** Default base address; null where the owner must give one (a local runtime). */
  readonly baseUrl: string | null;
  readonly authScheme: AuthScheme;
  /** Where its model list is read (GET, Anthropic's list shape), below the base address. */
  readonly modelListPath: string;
  /** Whether its listed models are switched on for a company that says nothing about it. */
  readonly modelsOnByDefault: boolean;
}

export const PROVIDER_INFO = Object.freeze({
  vendor: {
    displayName: 'Anthropic (vendor)',
    idPrefix: '',
    genAiName: 'anthropic',
    baseUrl: 'https://api.anthropic.com',
    authScheme: 'xApiKey',
    modelListPath: '/v1/models',
    modelsOnByDefault: true,
  },
  provider_a: {
    displayName: 'provider_a (routing aggregator)',
    idPrefix: 'provider_a:',
    genAiName: 'provider_a',
    baseUrl: 'https://openrouter.ai/api',
    authScheme: 'bearer',
    modelListPath: '/v1/models',
    modelsOnByDefault: false,
  },
  provider_b: {
    displayName: 'provider_b (model vendor)',
    idPrefix: 'provider_b:',
    genAiName: 'provider_b',
    baseUrl: 'https://api.deepseek.com/anthropic',
    authScheme: 'xApiKey',
    modelListPath: '/v1/models',
    modelsOnByDefault: false,
  },
  provider_c: {
    displayName: 'provider_c (hosted gateway)',
    idPrefix: 'provider_c:',
    genAiName: 'provider_c',
    baseUrl: 'https://ai-gateway.vercel.sh',
    authScheme: 'bearer',
    modelListPath: '/v1/models',
    modelsOnByDefault: false,
  },
  provider_d: {
    displayName: 'provider_d (local runtime)',
    idPrefix: 'provider_d:',
    genAiName: 'provider_d',
    baseUrl: null,
    authScheme: 'xApiKey',
    modelListPath: '/v1/models',
    modelsOnByDefault: false,
  },
} as const satisfies Record<string, ProviderInfo>);

export type ProviderName = keyof typeof PROVIDER_INFO;
export const PROVIDERS = Object.freeze(Object.keys(PROVIDER_INFO) as ProviderName[]);
/** The providers a caller pins with `<provider>:<id>` (every one with a prefix). */
export const PINNABLE_PROVIDERS = Object.freeze(PROVIDERS.filter((p) => PROVIDER_INFO[p].idPrefix !== ''));
/** The provider bare ids run on (the one without a prefix). */
export const BARE_PROVIDER: ProviderName = PROVIDERS.find((p) => PROVIDER_INFO[p].idPrefix === '') ?? 'vendor';

export interface ProviderDefaults {
  readonly baseUrl: string | null;
  readonly authScheme: AuthScheme;
}

/** The defaults a ProviderCredential falls back on. */
export const PROVIDER_DEFAULTS: Readonly<Record<ProviderName, ProviderDefaults>> = PROVIDER_INFO;

/** The model id a caller writes for `id` listed by `provider`. */
export function callerModelId(provider: ProviderName, id: string): string {
  return PROVIDER_INFO[provider].idPrefix + id;
}

const PROVIDER_SET: ReadonlySet<string> = new Set(PROVIDERS);
export function isProviderName(value: string): value is ProviderName {
  return PROVIDER_SET.has(value);
}

/** The Messages API version sent upstream when the caller names none. */
export const DEFAULT_API_VERSION = '2023-06-01';

/** Beta flag the upstream requires for OAuth (subscription seat) bearer tokens. */
export const OAUTH_BETA_FLAG = 'oauth-2025-04-20';
