/**
 * Shapes of an HTTP exchange shared by every layer: pure types, no server, no
 * transport. They sit at the bottom so the domain modules (auth, attribution,
 * credentials, errors) need not import the pipeline to name a header map.
 */

/** Request header names are lower-case; a repeated header arrives joined by ", " (as Node and Envoy give them). */
export type HeaderMap = Readonly<Record<string, string | undefined>>;

/** An answer the gateway gives itself (errors, HEAD, GET /v1/models). */
export interface LocalResponse {
  readonly status: number;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body: string;
}
