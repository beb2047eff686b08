import type { UsageRecord } from '../../metering/usage-record.js';
import { addToTotals, emptyTotals, groupKey, sameModel, type LogQuery, type UsageQuery, type UsageTotals } from '../queries.js';
import type { UsageLog, UsageRecorder } from '../state.js';
import { UsageBuffer } from '../usage-buffer.js';
import type { ExportBatch, UsageSource } from '../usage-source.js';
import type { MemoryStore } from './store.js';

/** Refused records kept in memory for inspection (the newest; each was counted and logged). */
export const MEMORY_DEAD_LETTER_MAX = 1_000;

/** Usage records in a byte-bounded buffer, read by the queries and drained by the exporter. */
export class MemoryUsageLog implements UsageRecorder, UsageLog {
  private readonly usage: UsageBuffer;
  /** Records PostgreSQL refused for their content, newest last (the exporter counted and logged each). */
  private readonly deadLetters: Array<{ record: UsageRecord; reason: string }> = [];

  constructor(
    private readonly store: MemoryStore,
    usageMemoryBytes: number | undefined,
    onUsageDropped: ((record: UsageRecord) => void) | undefined,
    /** Called after each new record. */
    private readonly onRecorded: () => void,
  ) {
    this.usage = new UsageBuffer(usageMemoryBytes, onUsageDropped);
  }

  async recordUsage(record: UsageRecord): Promise<void> {
    this.addRecord(record);
  }

  /** True when the record is new (a second write of its id changes nothing). */
  addRecord(record: UsageRecord): boolean {
    if (!this.usage.add(record)) return false;
    this.onRecorded();
    return true;
  }

  async queryLogs(query: LogQuery): Promise<UsageRecord[]> {
    const limit = query.limit ?? 100;
    const out: UsageRecord[] = [];
    for (const record of this.matching(query.company, query.since)) {
      if (query.address !== undefined && record.address !== query.address) continue;
      if (query.model !== undefined && !sameModel(record, query.model)) continue;
      out.push(record);
    }
    out.sort((a, b) => (a.time < b.time ? 1 : a.time > b.time ? -1 : 0));
    return out.slice(0, limit);
  }

  /** `since` counts whole days (UTC), as the Redis per-day aggregates do. */
  async queryUsage(query: UsageQuery): Promise<UsageTotals[]> {
    const groups = new Map<string | null, UsageTotals>();
    for (const record of this.matching(query.company, query.since?.slice(0, 10))) {
      const key = groupKey(record, query.groupBy);
      let totals = groups.get(key);
      if (!totals) groups.set(key, (totals = emptyTotals(key)));
      addToTotals(totals, record);
    }
    return [...groups.values()].sort((a, b) => b.cost_usd - a.cost_usd || b.requests - a.requests);
  }

  async usageDropped(company: string | undefined): Promise<number> {
    return this.usage.droppedRecords(company);
  }

  /** The records set aside by the exporter, oldest first. */
  setAside(): ReadonlyArray<{ readonly record: UsageRecord; readonly reason: string }> {
    return this.deadLetters;
  }

  /** Every record held, oldest first. */
  records(): Iterable<UsageRecord> {
    return this.usage.records();
  }

  /** The records held as a source for the exporter: once stored in PostgreSQL they leave memory. */
  source(): UsageSource {
    return {
      next: async (max: number): Promise<ExportBatch | null> => {
        const { records, through } = this.usage.oldest(max);
        if (records.length === 0) return null;
        return {
          records,
          ack: async (refused = []) => {
            for (const { index, reason } of refused) {
              const record = records[index];
              if (record) this.deadLetters.push({ record, reason });
            }
            if (this.deadLetters.length > MEMORY_DEAD_LETTER_MAX) this.deadLetters.splice(0, this.deadLetters.length - MEMORY_DEAD_LETTER_MAX);
            this.usage.removeThrough(through);
          },
        };
      },
      backlog: async () => this.usage.size(),
      timeZones: async (companies) => {
        const out = new Map<string, string>();
        for (const c of companies) {
          const zone = this.store.companies.get(c)?.settings.timeZone;
          if (zone !== undefined) out.set(c, zone);
        }
        return out;
      },
    };
  }

  private *matching(company: string | undefined, since: string | undefined): Iterable<UsageRecord> {
    for (const record of this.usage.records()) {
      if (company !== undefined && record.company !== company) continue;
      if (since === undefined || record.time >= since) yield record;
    }
  }
}
