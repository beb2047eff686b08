import type { HeaderMap, LocalResponse } from '../http/headers.js';

export type { HeaderMap, LocalResponse } from '../http/headers.js';

export interface RequestHead {
  readonly method: string;
  /** Path with its query string, as the client sent it. */
  readonly path: string;
  readonly headers: HeaderMap;
  /** Names (lower-case) the caller sent more than once; the data plane sees them before they are joined. */
  readonly repeated?: readonly string[];
  /** Header fields as sent, counting repeats (a joined map undercounts them). */
  readonly fieldCount?: number;
  /** Bytes of the header fields' names and values as sent, repeats included; counted by the data plane as it reads them. */
  readonly headerBytes?: number;
}

/** What the data plane must do to forward the request upstream. */
export interface ForwardPlan {
  /** Scheme, host and port of the provider, e.g. `https://api.anthropic.com`. */
  readonly origin: string;
  /** Path (with the provider's base path and the client's query string). */
  readonly path: string;
  /** Names of client headers that must not be forwarded (lower-case). */
  readonly removeHeaders: readonly string[];
  /** Headers to set (replacing any the client sent). content-length is included. */
  readonly setHeaders: ReadonlyArray<readonly [string, string]>;
  /** The body to send; the very same Buffer when nothing changed. */
  readonly body: Buffer;
}

export type HeadersOutcome = { readonly kind: 'respond'; readonly response: LocalResponse } | { readonly kind: 'body' };
export type BodyOutcome = { readonly kind: 'respond'; readonly response: LocalResponse } | { readonly kind: 'forward'; readonly plan: ForwardPlan };

/** Response header names and values to add to a relayed provider response. */
export interface ResponseDecision {
  /** Provider header names (lower-case) to drop before adding ours; applied by both data planes. */
  readonly removeHeaders: readonly string[];
  readonly addHeaders: ReadonlyArray<readonly [string, string]>;
  /** True when the body is an event stream (meter and relay chunk by chunk). */
  readonly streaming: boolean;
}

export type EndOutcome = 'complete' | 'client_disconnect' | 'upstream_error' | 'gateway_error' | 'shutdown';
