import type { HeaderMap } from './types.js';

/**
 * What the gateway changes in a relayed provider response's headers, the same
 * on every data plane: nothing but its own tags. Any `x-gw-*` header the
 * provider (or anything between) sent is removed first, so a provider's answer
 * can never pose as a gateway fault or carry a forged request id.
 */
export function relayedResponseHeaders(
  headers: HeaderMap,
  requestId: string,
  warning: string | undefined,
): { readonly remove: readonly string[]; readonly add: ReadonlyArray<readonly [string, string]> } {
  const remove: string[] = [];
  for (const name of Object.keys(headers)) if (name.startsWith('x-gw-')) remove.push(name);
  const add: Array<readonly [string, string]> = [
    ['x-gw-source', 'upstream'],
    ['x-gw-request-id', requestId],
  ];
  if (warning) add.push(['x-gw-warning', warning]);
  return { remove, add };
}
