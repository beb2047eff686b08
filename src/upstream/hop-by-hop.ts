/** Connection-level headers that a proxy never relays (RFC 9110 §7.6.1), plus host, which the client sets per hop. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'upgrade', 'trailer', 'host', 'expect', 'http2-settings']);

export function isHopByHop(name: string, connectionHeader: string | undefined): boolean {
  if (HOP_BY_HOP.has(name)) return true;
  if (connectionHeader === undefined) return false;
  return connectionHeader.toLowerCase().split(',').some((token) => token.trim() === name);
}
