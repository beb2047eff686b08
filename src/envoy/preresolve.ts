/**
 * The provider hosts Envoy resolves at start (the dynamic forward proxy's
 * preresolve_hostnames), from the provider base URLs of the settings.
 */
import { isIP } from 'node:net';

/** One host:port Envoy resolves at start. */
export interface PreresolvedHost {
  readonly host: string;
  readonly port: number;
}

/** A URL's host as Envoy wants it in a socket_address: IPv6 without brackets. */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * The distinct provider hosts in first-seen order. Base paths are the
 * processor's business (it sets `:path`), and IP literals need no DNS.
 * Throws on a malformed URL; check the settings first.
 */
export function preresolvedHosts(providers: readonly string[]): PreresolvedHost[] {
  const seen = new Map<string, PreresolvedHost>();
  for (const base of providers) {
    const url = new URL(base);
    const host = bareHost(url);
    if (isIP(host) !== 0) continue;
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    const key = `${host}:${port}`;
    if (!seen.has(key)) seen.set(key, { host, port });
  }
  return [...seen.values()];
}
