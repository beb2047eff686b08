/** Connection-level headers that a proxy never relays (RFC 9110 §7.6.1), plus host, which the client sets per hop. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'upgrade', 'trailer', 'host', 'expect', 'http2-settings']);

/** Headers named in a message's own `connection` header are hop-by-hop too; callers check those themselves. */
export function isHopByHop(name: string): boolean {
  return HOP_BY_HOP.has(name);
}
