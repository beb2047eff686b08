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
  /**
   * Entries the source could not read as a record (not JSON, or not a
   * record's shape): left out of `records`, and set aside by `ack`.
   */
  readonly unreadable?: readonly Unreadable[];
  /**
   * Forget these records at the source: call only after the sink committed
   * them. `refused` (indexes into `records`) are the ones the sink can
   * never store: they, and the unreadable entries, are first set aside
   * (the dead letters), so nothing is lost and the rest flows.
   */
  ack(refused?: readonly Refused[]): Promise<void>;
}

/** An entry the source could not read; the reason names no content. */
export interface Unreadable {
  readonly company: string;
  /** The request id when the entry still shows one. */
  readonly requestId: string | null;
  readonly reason: string;
}

/** A record of a batch the sink refused for its content. */
export interface Refused {
  readonly index: number;
  readonly reason: string;
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
