import { GatewayError } from '../errors/gateway-error.js';
import { REQUEST_MESSAGES } from '../errors/messages.js';

export interface BodyFields {
  readonly model: string;
  readonly stream: boolean;
  /** session_id inside metadata.user_id (a JSON string Claude Code sends), for sticky leasing. */
  readonly sessionId: string | null;
  readonly maxTokens: number | null;
}

/**
 * Read the few fields the gateway needs, and nothing else: unknown fields,
 * `role: "system"` messages and new beta fields pass through untouched.
 */
export function readBodyFields(body: Buffer, requireMaxTokens: boolean): BodyFields {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw new GatewayError('invalid_request', REQUEST_MESSAGES.bodyNotJson);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new GatewayError('invalid_request', REQUEST_MESSAGES.bodyNotObject);
  }
  const fields = parsed as Record<string, unknown>;
  const model = fields.model;
  if (typeof model !== 'string' || model.length === 0) throw new GatewayError('invalid_request', REQUEST_MESSAGES.modelMissing);
  if (model.length > 256) throw new GatewayError('invalid_request', REQUEST_MESSAGES.modelTooLong);
  const maxTokens = fields.max_tokens;
  if (requireMaxTokens && (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1)) {
    throw new GatewayError('invalid_request', REQUEST_MESSAGES.maxTokensMissing);
  }
  if (!Array.isArray(fields.messages)) throw new GatewayError('invalid_request', REQUEST_MESSAGES.messagesMissing);
  const stream = fields.stream;
  if (stream !== undefined && stream !== null && typeof stream !== 'boolean') throw new GatewayError('invalid_request', REQUEST_MESSAGES.streamNotBoolean);
  return {
    model,
    stream: stream === true,
    sessionId: sessionFromMetadata(fields.metadata),
    maxTokens: typeof maxTokens === 'number' ? maxTokens : null,
  };
}

function sessionFromMetadata(metadata: unknown): string | null {
  if (typeof metadata !== 'object' || metadata === null) return null;
  const userId = (metadata as Record<string, unknown>).user_id;
  if (typeof userId !== 'string' || !userId.startsWith('{')) return null;
  try {
    const inner: unknown = JSON.parse(userId);
    const session = typeof inner === 'object' && inner !== null ? (inner as Record<string, unknown>).session_id : undefined;
    return typeof session === 'string' && session !== '' ? session : null;
  } catch {
    return null;
  }
}
