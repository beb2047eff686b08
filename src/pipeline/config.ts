export interface PipelineConfig {
  /** The {base_url} path prefix, e.g. `/api`; '' for none. Routes also answer at the root. */
  readonly pathPrefix: string;
  readonly maxBodyBytes: number;
  /** Lease TTL; renewed while a response streams so a crashed process cannot hold a lease for ever. */
  readonly leaseTtlMs: number;
  readonly slotTtlMs: number;
  /** Caller header fields a request may carry (431 beyond). */
  readonly maxRequestHeaders: number;
  /** Bytes of caller header names and values together (431 beyond). */
  readonly maxRequestHeaderBytes: number;
}

export const DEFAULT_PIPELINE_CONFIG: PipelineConfig = Object.freeze({
  pathPrefix: '',
  maxBodyBytes: 32 * 1024 * 1024,
  leaseTtlMs: 30_000,
  slotTtlMs: 30_000,
  // Envoy's own default count; real clients send 10 to 30 headers.
  maxRequestHeaders: 100,
  maxRequestHeaderBytes: 32 * 1024,
});
