import type { UsageRecord } from '../../metering/usage-record.js';
import type { ExportLease } from '../../state/usage-source.js';

// Implemented by the states (memory, Redis stream), which sit below this module: those shapes live there.
export type { ExportBatch, ExportLease, Refused, Unreadable, UsageSource } from '../../state/usage-source.js';

/** Where records are kept for good. */
export interface UsageSink {
  /** Creates or upgrades the schema. */
  prepare(): Promise<void>;
  /**
   * Stores records idempotently by request id; resolves once committed (PartlyInserted: only some committed).
   * `texts`, when given, are the records' JSON as stored at the source, one per record.
   */
  insert(records: readonly UsageRecord[], texts?: readonly string[]): Promise<number>;
  /**
   * Why an insert's failure is the fault of a record's content (a reason
   * that quotes no content), or null when it is operational (the store is
   * down, the link lost): only the first kind is set aside, the second is
   * retried.
   */
  refusal(error: unknown): string | null;
  saveTimeZones(zones: ReadonlyMap<string, string>): Promise<void>;
  deleteOlderThan(days: number): Promise<number>;
}

/** This process alone exports what it holds (memory state): nothing to share. */
export const SOLE_EXPORTER: ExportLease = {
  acquire: async () => true,
  renew: async () => true,
  release: async () => {},
};

/**
 * Thrown by `UsageSink.insert` when some of a batch committed before the
 * rest failed: the retry skips what is committed (by request id), so what
 * it stored has to be counted now or never.
 */
export class PartlyInserted extends Error {
  constructor(
    /** Records committed (new or already there). */
    readonly committed: number,
    /** Of those, the ones new to the store. */
    readonly stored: number,
    failure: unknown,
  ) {
    super(failure instanceof Error ? failure.message : String(failure), { cause: failure });
    this.name = 'PartlyInserted';
  }
}
