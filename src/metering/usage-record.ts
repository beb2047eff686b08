/**
 * One entry of Usage and Logs per request (spec §2.2). repo, application and
 * end_user are present only as the specification and the company's settings
 * allow.
 */
export interface UsageRecord {
  request_id: string;
  time: string;
  company: string;
  address: string;
  endpoint: 'messages' | 'count_tokens';
  /**
   * The canonical model id (catalogue or provider-list spelling, `provider:`
   * prefix when pinned): reports group by it. null when the request ended
   * before its model was decided.
   */
  model: string | null;
  /** The model exactly as the caller wrote it, when that differs from `model`. */
  requested_model?: string;
  provider: string | null;
  provider_model: string | null;
  credential: string | null;
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  cost_usd: number | null;
  status: number;
  fault: string | null;
  stream: boolean;
  duration_ms: number;
  ttfb_ms: number | null;
  /** How the exchange ended: complete, client_disconnect, upstream_error, gateway_error. */
  outcome: string;
  repo?: string;
  application?: string;
  end_user?: string;
  redactions?: Record<string, number>;
}
