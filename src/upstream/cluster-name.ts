/**
 * The Envoy cluster that carries traffic to one provider address. A pure
 * function of the origin, so the processor (which names the cluster in the
 * routing header) and `gw envoy-config` (which declares the clusters) agree
 * without sharing any state.
 */
export const ROUTE_HEADER = 'x-gw-upstream';

export function clusterNameForOrigin(origin: string): string {
  const url = new URL(origin);
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return `gw_${url.protocol.replace(':', '')}_${url.hostname.replace(/[^A-Za-z0-9]/g, '_')}_${port}`;
}
