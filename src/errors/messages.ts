/**
 * Message texts that more than one module produces, kept here so the wording
 * the specification fixes lives in one place.
 */
export const MESSAGES = {
  switchedOff: (id: string) => `gw: "${id}" is switched off for your company, an owner can switch it on in Models`,
  notAModel: (id: string, usable: readonly string[]) => `gw: "${id}" is not a model this gateway serves for your company; models you can use: ${usable.length > 0 ? usable.join(', ') : '(none)'}`,
  notServedBy: (id: string, provider: string, usable: readonly string[]) =>
    `gw: "${id}" is not a model ${provider} serves for your company; models you can use there: ${usable.length > 0 ? usable.join(', ') : '(none)'}`,
  providerNotConnected: (provider: string) => `gw: provider "${provider}" is not connected for your company; an owner connects it with a ProviderCredential`,
  /** `pinnable`: the provider table's names (src/models/providers.ts), so a new provider needs no edit here. */
  unknownProvider: (provider: string, pinnable: readonly string[]) => `gw: "${provider}" is not a provider; use a bare model id or one of ${pinnable.join(', ')} before the colon`,
  xApiKeyNeverRead:
    'gw: the x-api-key header is never read by this gateway; send your gwct_ token as "Authorization: Bearer <token>" (SDK option authToken / auth_token with apiKey unset, or ANTHROPIC_AUTH_TOKEN for Claude Code, and unset ANTHROPIC_API_KEY)',
  noBearer: 'gw: no bearer token; send your gwct_ token as "Authorization: Bearer <token>" (SDK option authToken, or ANTHROPIC_AUTH_TOKEN)',
  malformedToken: 'gw: the bearer token is not a well-formed gwct_ token (wrong prefix, length or checksum)',
  noLiveToken: 'gw: the bearer token matches no live token (unknown or revoked)',
  stateRebuilding: "gw: the gateway's token state is being rebuilt (it was lost or never written); nothing was forwarded, retry shortly",
} as const;

/** What is wrong with the request itself (its head, its body, its encoding, its query). */
export const REQUEST_MESSAGES = {
  bodyNotJson: 'gw: the request body is not valid JSON',
  bodyNotObject: 'gw: the request body must be a JSON object',
  modelMissing: 'gw: "model" is required and must be a non-empty string',
  modelTooLong: 'gw: "model" is longer than 256 characters',
  maxTokensMissing: 'gw: "max_tokens" is required and must be a positive integer',
  messagesMissing: 'gw: "messages" is required and must be an array',
  streamNotBoolean: 'gw: "stream" must be a boolean',
  encodingUnsupported: (coding: string) => `gw: Content-Encoding "${coding}" is not supported; send the body as gzip, deflate or br, or without Content-Encoding`,
  encodingUndecodable: (coding: string) => `gw: the request body does not decode as Content-Encoding "${coding}"`,
  headerRepeated: (name: string) => `gw: the ${name} header appears more than once; send it exactly once`,
  tooManyHeaders: (fields: number, max: number) => `gw: the request carries ${fields} header fields; the gateway accepts at most ${max}`,
  headersTooLarge: (bytes: number, max: number) => `gw: the request headers take ${bytes} bytes; the gateway accepts at most ${max}`,
  bodyTooLarge: (limitMiB: number) => `gw: the request body is larger than the gateway's limit of ${limitMiB} MiB`,
  listLimit: (max: number) => `gw: "limit" must be an integer from 1 to ${max}`,
  listOneCursor: 'gw: give at most one of "after_id" and "before_id"',
  listUnknownCursor: (cursor: string) => `gw: "${cursor}" is not a model id of this list; page with the first_id or last_id of a previous page`,
} as const;

/** Spend limits (402 over_budget) and unpriced models. Amounts come formatted (`$1.23`), times as ISO 8601. */
export const SPEND_MESSAGES = {
  wouldPass: (label: string, spent: string, reserved: string, reset: string) =>
    `gw: this request would pass the ${label}: ${spent} is spent or reserved, and the request's worst case of ${reserved} (its body as input plus max_tokens of output) is reserved before it is forwarded; a smaller max_tokens may fit, otherwise the limit resets at ${reset}`,
  reached: (label: string, reset: string) => `gw: the ${label} is reached; it resets at ${reset}`,
  unpricedRefused: (model: string) => `gw: "${model}" has no known price and your company refuses unpriced models; an owner can add its price in GatewaySettings`,
} as const;

export const CREDENTIAL_MESSAGES = {
  notOnCredentials: (id: string, provider: string) => `gw: "${id}" is not allowed on any of your company's ${provider} credentials; an owner can add it to a ProviderCredential's models`,
  busy: (provider: string) => `gw: every ${provider} credential of your company is busy right now; a retry soon succeeds`,
  rejected: (provider: string, credentials: readonly string[]) =>
    `gw: the provider rejected every ${provider} credential of your company that serves this model (${credentials.map((c) => `"${c}"`).join(', ')}: 401/403 to the gateway's own key check, so the key is revoked, expired or wrong); a retry does not help until an owner puts a working key in the ProviderCredential's Secret; the gateway re-checks rejected keys by itself and serves again as soon as the provider accepts one`,
  exhausted: (provider: string, resetIso: string | null) =>
    `gw: every ${provider} subscription seat has used up its 5-hour or weekly window and no API key serves this model; nothing frees until ${resetIso ?? 'a window resets'}`,
} as const;
