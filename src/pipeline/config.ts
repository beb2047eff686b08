export interface PipelineConfig {
  /** The {base_url} path prefix, e.g. `/api`; '' for none. Routes also answer at the root. */
  readonly pathPrefix: string;
  readonly maxBodyBytes: number;
  /** Lease TTL; renewed while a response streams so a crashed process cannot hold a lease for ever. */
  readonly leaseTtlMs: number;
  readonly slotTtlMs: number;
  readonly redactionBudgetMs: number;
}

export const DEFAULT_PIPELINE_CONFIG: PipelineConfig = Object.freeze({
  pathPrefix: '',
  maxBodyBytes: 32 * 1024 * 1024,
  leaseTtlMs: 30_000,
  slotTtlMs: 30_000,
  redactionBudgetMs: 50,
});
