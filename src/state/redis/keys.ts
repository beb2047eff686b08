/**
 * Every Redis key the gateway uses. Company keys carry a `{company}` hash
 * tag so all of a company's keys live in one Cluster slot and one Lua script
 * may touch them together. Token keys are looked up by hash alone (the
 * company is not known yet), so they stand on their own.
 */
export const keys = {
  token: (hash: string) => `gw:token:${hash}`,
  companies: () => 'gw:companies',
  /** The writer's mark of a complete picture; its absence means the data was lost (or never written). */
  generation: () => 'gw:generation',
  /** The newest leadership epoch that wrote this company. */
  fence: (c: string) => `gw:{${c}}:fence`,
  /** Companies that have usage records (a removed company's usage stays readable). */
  usageCompanies: () => 'gw:usage-companies',
  records: (c: string) => `gw:{${c}}:records`,
  tokenSet: (c: string) => `gw:{${c}}:tokens`,
  leases: (c: string, credential: string) => `gw:{${c}}:leases:${credential}`,
  health: (c: string, credential: string) => `gw:{${c}}:health:${credential}`,
  fingerprint: (c: string, credential: string) => `gw:{${c}}:fp:${credential}`,
  sticky: (c: string, session: string) => `gw:{${c}}:sticky:${session}`,
  slots: (c: string, tokenHash: string) => `gw:{${c}}:slots:${tokenHash}`,
  spend: (c: string, counter: string) => `gw:{${c}}:spend:${counter}`,
  /** What one request holds reserved in its spend counters, until its usage record settles it. */
  spendReservation: (c: string, requestId: string) => `gw:{${c}}:spend-reserved:${requestId}`,
  usageId: (c: string, requestId: string) => `gw:{${c}}:usage-id:${requestId}`,
  usageStream: (c: string) => `gw:{${c}}:usage`,
  /** Usage entries the exporter could not store (malformed, or refused by PostgreSQL), set aside with the reason. */
  usageDeadLetters: (c: string) => `gw:{${c}}:usage-dead-letters`,
  /** Present while an exporter moves this company's stream to PostgreSQL: then the stream is never trimmed. */
  usageExported: (c: string) => `gw:{${c}}:usage-exported`,
  /** Present while exporters run against this Redis (set by each, 7 days): a data plane marks a company it writes first. */
  usageExportOn: () => 'gw:usage-export-on',
  /** Held by the one exporter working now. */
  exporterLease: () => 'gw:usage-exporter',
  aggregate: (c: string, day: string, group: string) => `gw:{${c}}:agg:${day}:${group}`,
  aggregateDays: (c: string) => `gw:{${c}}:agg-days`,
  invalidations: () => 'gw:invalidate',
} as const;
