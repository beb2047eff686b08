import type { UsageRecord } from '../metering/usage-record.js';

/**
 * What a record's field names, numbers and punctuation add to its strings in JSON (about 370 characters for a streamed request with attribution), doubled, plus
 * 200: with the strings' own length doubled, about twice its JSON length, the heap a record costs with the id index and
 * slack. Counted from the fields, not by serializing: this runs once per request, and JSON.stringify of every record
 * was 1 % of gw serve's busy CPU under load (s7 profile).
 */
const FIXED_BYTES = 2 * 370 + 200;

/** Heap a record costs: about twice its JSON length. */
export function approximateBytes(r: UsageRecord): number {
  let chars =
    r.request_id.length +
    r.time.length +
    r.company.length +
    r.address.length +
    (r.model?.length ?? 0) +
    (r.requested_model?.length ?? 0) +
    (r.provider?.length ?? 0) +
    (r.provider_model?.length ?? 0) +
    (r.credential?.length ?? 0) +
    (r.fault?.length ?? 0) +
    r.outcome.length +
    (r.repo?.length ?? 0) +
    (r.application?.length ?? 0) +
    (r.end_user?.length ?? 0);
  if (r.redactions !== undefined) for (const rule in r.redactions) chars += rule.length + 8;
  return 2 * chars + FIXED_BYTES;
}

export const DEFAULT_USAGE_MEMORY_BYTES = 64 * 1024 * 1024;

interface Entry {
  readonly seq: number;
  readonly record: UsageRecord;
  readonly bytes: number;
}

/**
 * The usage records one process holds, bounded globally in bytes: past the
 * bound the oldest go first, counted per company, so a report can say that
 * older records were dropped instead of hiding it. Ids stay unique while a
 * record is held (a second write of the same request id changes nothing).
 */
export class UsageBuffer {
  private entries: Entry[] = [];
  private head = 0;
  private bytes = 0;
  private seq = 0;
  private readonly ids = new Set<string>();
  private readonly dropped = new Map<string, number>();

  constructor(
    private readonly maxBytes: number = DEFAULT_USAGE_MEMORY_BYTES,
    private readonly onDropped: (record: UsageRecord) => void = () => {},
  ) {}

  add(record: UsageRecord): boolean {
    if (this.ids.has(record.request_id)) return false;
    const bytes = approximateBytes(record);
    this.entries.push({ seq: ++this.seq, record, bytes });
    this.ids.add(record.request_id);
    this.bytes += bytes;
    while (this.bytes > this.maxBytes && this.size() > 1) {
      const oldest = this.shift();
      this.dropped.set(oldest.company, (this.dropped.get(oldest.company) ?? 0) + 1);
      this.onDropped(oldest);
    }
    return true;
  }

  size(): number {
    return this.entries.length - this.head;
  }

  heldBytes(): number {
    return this.bytes;
  }

  droppedRecords(company: string | undefined): number {
    if (company !== undefined) return this.dropped.get(company) ?? 0;
    let total = 0;
    for (const n of this.dropped.values()) total += n;
    return total;
  }

  *records(): Iterable<UsageRecord> {
    for (let i = this.head; i < this.entries.length; i++) yield (this.entries[i] as Entry).record;
  }

  /** The oldest `max` records, and the mark to pass to removeThrough once they are stored elsewhere. */
  oldest(max: number): { records: UsageRecord[]; through: number } {
    const end = Math.min(this.entries.length, this.head + max);
    const slice = this.entries.slice(this.head, end);
    return { records: slice.map((e) => e.record), through: slice.length === 0 ? 0 : (slice[slice.length - 1] as Entry).seq };
  }

  /** Forget records up to the mark (some may have been dropped meanwhile). */
  removeThrough(seq: number): void {
    while (this.size() > 0 && (this.entries[this.head] as Entry).seq <= seq) this.shift();
  }

  private shift(): UsageRecord {
    const entry = this.entries[this.head] as Entry;
    this.head++;
    this.bytes -= entry.bytes;
    this.ids.delete(entry.record.request_id);
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
    return entry.record;
  }
}
