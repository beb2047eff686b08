import { GatewayError } from '../errors/gateway-error.js';
import { MESSAGES } from '../errors/messages.js';
import { normalizeModelId } from './normalize.js';
import { BARE_PROVIDER, PINNABLE_PROVIDERS, type ProviderName } from './providers.js';

export interface ParsedModel {
  /** As the caller wrote it. */
  readonly raw: string;
  readonly provider: ProviderName;
  /** The provider's own model id: everything after the first colon, unchanged, or the bare id. */
  readonly id: string;
  readonly pinned: boolean;
}

const PINNABLE = new Map<string, ProviderName>(PINNABLE_PROVIDERS.map((p) => [normalizeModelId(p), p]));

/** Spec §2.4: the part before the first colon names the provider; a bare id runs on the vendor. */
export function parseModel(raw: string): ParsedModel {
  const colon = raw.indexOf(':');
  if (colon === -1) return { raw, provider: BARE_PROVIDER, id: raw, pinned: false };
  const prefix = raw.slice(0, colon);
  const provider = PINNABLE.get(normalizeModelId(prefix));
  if (!provider) throw new GatewayError('model_not_allowed', MESSAGES.unknownProvider(prefix, PINNABLE_PROVIDERS));
  return { raw, provider, id: raw.slice(colon + 1), pinned: true };
}
