/** Token counts of one request, merged field by field from what the provider reported. */
export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  /** Split of cache_creation_input_tokens by TTL where the provider gave it. */
  cache_creation_5m_input_tokens: number | null;
  cache_creation_1h_input_tokens: number | null;
}

export function emptyUsage(): Usage {
  return {
    input_tokens: 0,
    output_tokens: 0,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    cache_creation_5m_input_tokens: null,
    cache_creation_1h_input_tokens: null,
  };
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/**
 * Merge a provider `usage` object into `target`. Later reports win field by
 * field (message_delta carries cumulative counts, and newer providers repeat
 * input and cache counts there), but a field a report leaves out keeps what
 * an earlier report said: reading message_start alone under-counts output,
 * reading message_delta alone loses cache tokens.
 */
export function mergeUsage(target: Usage, reported: unknown): void {
  if (typeof reported !== 'object' || reported === null) return;
  const u = reported as Record<string, unknown>;
  const input = count(u.input_tokens);
  if (input !== undefined) target.input_tokens = input;
  const output = count(u.output_tokens);
  if (output !== undefined) target.output_tokens = output;
  const creation = count(u.cache_creation_input_tokens);
  if (creation !== undefined) target.cache_creation_input_tokens = creation;
  const read = count(u.cache_read_input_tokens);
  if (read !== undefined) target.cache_read_input_tokens = read;
  const split = u.cache_creation;
  if (typeof split === 'object' && split !== null) {
    const s = split as Record<string, unknown>;
    const m5 = count(s.ephemeral_5m_input_tokens);
    if (m5 !== undefined) target.cache_creation_5m_input_tokens = m5;
    const h1 = count(s.ephemeral_1h_input_tokens);
    if (h1 !== undefined) target.cache_creation_1h_input_tokens = h1;
  }
}
