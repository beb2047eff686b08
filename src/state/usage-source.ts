import type { UsageRecord } from '../metering/usage-record.js';

/**
 * How the usage exporter (src/usage/export) reads records where the data
 * plane left them. Defined here, beside the states that implement it, so the
 * state layer never imports the exporter above it.
 */

/** Records read from where the data plane left them, not yet known to be stored. */
export interface ExportBatch {
  readonly records: readonly UsageRecord[];
  /**
   * Each record's JSON exactly as the data plane stored it, in the same
   * order, where the source has it (Redis): the sink stores it as it is
   * instead of serialising the parsed record again.
   */
  readonly texts?: readonly string[];
  /** Forget these records at the source: call only after the sink committed them. */
  ack(): Promise<void>;
}

/** Where records wait for export: a Redis stream consumer group, or this process's memory. */
export interface UsageSource {
  /** Up to `max` records, those delivered before and never acknowledged first; null when none wait. */
  next(max: number): Promise<ExportBatch | null>;
  /** Records waiting, for the backlog metric. */
  backlog(): Promise<number>;
  /** The time zone each company's settings name (companies without settings are left out). */
  timeZones(companies: readonly string[]): Promise<Map<string, string>>;
}

/** At most one exporter works at a time (replicas and the operator may all run one). */
export interface ExportLease {
  acquire(): Promise<boolean>;
  /** False once another holder has it. */
  renew(): Promise<boolean>;
  release(): Promise<void>;
}
