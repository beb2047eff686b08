/**
 * How the processor tells Envoy where a request goes. Envoy routes on the
 * cluster header to one of two dynamic forward proxy clusters (TLS or plain
 * HTTP) and connects to the host named in the host header, so a provider
 * address that appears in a new ProviderCredential works without touching
 * Envoy's configuration. Both headers are set only by the processor: Envoy
 * strips any client-sent copy before its first route match, and the processor
 * removes every client x-gw-* header again in its answer.
 */
import { remembered } from '../support/remembered.js';

export const ROUTE_HEADER = 'x-gw-upstream';
export const UPSTREAM_HOST_HEADER = 'x-gw-upstream-host';

/** The dynamic forward proxy clusters, by URL scheme. */
export const DYNAMIC_CLUSTERS = Object.freeze({ https: 'gw_dfp_https', http: 'gw_dfp_http' } as const);

/**
 * Origins come from the configured credentials (a handful per process), and
 * parsing one as a URL for every request was ~4 % of gw extproc's busy time:
 * each origin is parsed once. Bounded all the same, should origins churn.
 */
const parsedOrigin = remembered((origin: string): { readonly https: boolean; readonly host: string } => {
  const url = new URL(origin);
  return { https: url.protocol === 'https:', host: url.host };
});

/** The Envoy cluster that carries traffic to a provider origin (`https://host[:port]`). */
export function clusterNameForOrigin(origin: string): string {
  return parsedOrigin(origin).https ? DYNAMIC_CLUSTERS.https : DYNAMIC_CLUSTERS.http;
}

/**
 * The authority Envoy connects to (and sends as Host, SNI and the name the
 * certificate must carry): host, and the port only when it is not the
 * scheme's default, which is what the dynamic forward proxy assumes.
 */
export function upstreamHostForOrigin(origin: string): string {
  return parsedOrigin(origin).host;
}
