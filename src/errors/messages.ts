import { FAULTS, type Fault } from './catalogue.js';

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
  noRoute: (method: string, path: string) => `gw: no route for ${method} ${path}; the gateway serves POST /v1/messages, POST /v1/messages/count_tokens and GET /v1/models`,
} as const;

/** The gateway's own condition while it handles a request: its state, its lifecycle, its defects. */
export const GATEWAY_MESSAGES = {
  stateUnreachable: 'gw: the gateway cannot reach its state right now; nothing was forwarded, retry shortly',
  stateNewer: 'gw: the gateway state was written by a newer version than this gateway reads (an upgrade in progress); nothing was forwarded, retry shortly',
  internal: 'gw: internal error; the request was not forwarded',
  bodyBeforeAuthentication: 'gw: request body before authentication',
  endedBeforeAdmitted: 'gw: the request ended before it was admitted',
  endedBeforeForwarded: 'gw: the request ended before it was forwarded',
  callerCap: (limit: number, queueWaitMs: number) => `gw: your concurrency cap of ${limit} requests in flight did not clear within ${queueWaitMs / 1000}s; retry with fewer requests in flight`,
} as const;

/** What the HTTP server of `gw serve` answers itself: the connection, the HTTP framing, the timeouts, the provider's reachability. */
export const CONNECTION_MESSAGES = {
  expectUnsupported: (expectation: string) => `gw: the gateway supports only "Expect: 100-continue", not "${expectation}"; drop the Expect header`,
  headTimeout: (headersTimeoutMs: number) => `gw: the request head did not arrive within ${headersTimeoutMs / 1000}s; send it promptly`,
  requestTimeout: (requestTimeoutMs: number) => `gw: the request did not arrive within ${requestTimeoutMs / 1000}s; send the body promptly`,
  bodyTooSlow: (minBytesPerSecond: number, windowMs: number) => `gw: the request body arrived slower than ${minBytesPerSecond} bytes/s over ${windowMs / 1000}s; send it promptly`,
  headersTooLarge: (maxHeaderBytes: number) => `gw: the request headers are larger than the gateway accepts (${maxHeaderBytes} bytes of header fields)`,
  notHttp: 'gw: the request could not be parsed as HTTP (bad header name or value?)',
  tooManyConnections: (max: number) => `gw: your address has more than ${max} connections open to the gateway; reuse connections or close idle ones`,
  upstreamUnreachable: (reason: string) => `gw: the provider could not be reached (${reason})`,
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

/** Envoy's header bounds, quoted by its 431 (src/envoy/downstream-limits.ts). */
export interface EnvoyHeadLimits {
  readonly maxHeaders: number;
  readonly maxHeadersKiB: number;
}

/** What Envoy's own local replies say per fault; a fault not named here says its catalogue `when`. */
const ENVOY_REPLY_TEXTS: Partial<Record<Fault, (head: EnvoyHeadLimits) => string>> = {
  invalid_request: () => 'the request is not valid HTTP as Envoy in front of the gateway reads it',
  not_found: () => 'no route matches this request',
  request_timeout: () => 'the request did not arrive in time; send its head within the header timeout and its body without long pauses',
  request_too_large: () => 'the request is larger than Envoy in front of the gateway can hold',
  headers_too_large: (head) => `the request head is larger than Envoy in front of the gateway accepts (${head.maxHeaders} header fields, ${head.maxHeadersKiB} KiB)`,
  internal_error: () => 'the gateway failed before forwarding the request; nothing reached a provider',
  upstream_unreachable: () => 'the provider could not be reached, or it reset the connection before answering',
  overloaded: () => 'Envoy in front of the gateway is at its limits; retry shortly',
  gateway_timeout: () => 'no answer arrived within the timeout',
};

/** Envoy's local replies, rewritten into our shape by local_reply_config (src/envoy/local-reply.ts). */
export const ENVOY_REPLY_MESSAGES = {
  /** Envoy's own reason follows in brackets (a command operator Envoy fills in). */
  reply: (fault: Fault, head: EnvoyHeadLimits) => `gw: ${ENVOY_REPLY_TEXTS[fault]?.(head) ?? FAULTS[fault].when} (envoy: %RESPONSE_CODE_DETAILS%)`,
} as const;

/** Why a Usage or Logs query was refused (the CLI, the admin API and the console share them; `field` as each names it). */
export const USAGE_QUERY_MESSAGES = {
  notADate: (field: string, raw: string) => `${field} must be a date or date-time, got "${raw.slice(0, 64)}"`,
  badLimit: (field: string, max: number) => `${field} must be an integer from 1 to ${max}`,
  badOrder: (field: string) => `${field} must be time (newest first) or cost (most expensive first)`,
  oneOf: (field: string, values: readonly string[]) => `${field} must be one of ${values.join(', ')}`,
  badCursor: (field: string) => `${field} is not a page mark this gateway made`,
} as const;

/** What the admin listener answers when it refuses (the body's message is \`gw: \` and this). */
export const ADMIN_MESSAGES = {
  disabled: 'the admin API is disabled: start the gateway with GW_ADMIN_TOKEN, --admin-tokens-file or --admin-auth kubernetes',
  onlyGet: 'only GET is served here',
  noRoute: (path: string) => `no route for ${path.slice(0, 200)}`,
  badFormat: '"format" must be json or csv',
  internal: 'internal error',
} as const;

/** What the owner console says when it refuses (shown to the person as written, so in words). */
export const CONSOLE_MESSAGES = {
  signInNeedsToken: 'Paste a token into the Token field to sign in.',
  tokenNotAccepted: 'That token was not accepted: it is not an admin token of this gateway, or not a Kubernetes token the API server accepts.',
  signedOut: 'You are not signed in (or your session ended). Sign in again.',
  badOrigin: 'This change was refused: it did not come from this console (Origin and the console header are required).',
  noCompany: 'Choose a company.',
  notYourCompany: (company: string) => `You may not see or change company "${company}".`,
  mayNotChange: (company: string) => `You may see company "${company}" but not change it here: changes from the console need an admin token of this gateway.`,
  clusterRefused: (why: string) => `The Kubernetes API server refused this change (your own permissions decide): ${why}`,
  noFile: 'Changes from the console need gw serve -f FILE on this machine; in a cluster, change the resources with kubectl or gw token.',
  conflict: (changed: readonly string[]) =>
    `The resources file changed since this page loaded${changed.length > 0 ? ` (${changed.join('; ')})` : ''}. Nothing was written; reload the page and make the change again.`,
  invalid: (problems: readonly string[]) => `The change was refused, nothing was written: ${problems.join('; ')}`,
  tokenNameTaken: (name: string) => `A token named "${name}" already exists in this company.`,
  tokenNameInvalid: 'A token name is 1 to 63 lowercase letters, digits and dashes, starting and ending with a letter or digit.',
  noSuchToken: (name: string) => `There is no token named "${name}" in this company.`,
  noSettings: 'This company has no GatewaySettings document in the file.',
  noClusterSettings: 'This company has no single GatewaySettings in its namespace for the console to change (create one with kubectl, or remove the extra ones).',
  settingsConflict: (changed: readonly string[]) =>
    `This company's GatewaySettings changed since this page loaded${changed.length > 0 ? ` (${changed.join(', ')} changed)` : ''}. Nothing was written; reload the page and make the change again.`,
  badRequest: (what: string) => `The request was not understood: ${what}.`,
  notFound: 'There is nothing at this address in the console.',
  internal: 'Something went wrong on the server; the details are in its log.',
} as const;
