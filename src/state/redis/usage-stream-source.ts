import { randomUUID } from 'node:crypto';
import type { UsageRecord } from '../../metering/usage-record.js';
import { readUsageRecord } from '../../metering/read-usage-record.js';
import type { ExportBatch, ExportLease, Unreadable, UsageSource } from '../usage-source.js';
import type { CompanySettings } from '../records.js';
import type { RedisClient } from './connect.js';
import { keys } from './keys.js';

/**
 * The consumer group that exporters of earlier versions read through. Nothing reads through it now; each process
 * destroys it once per stream, so its pending list (ids only) does not stay in Redis for good.
 */
export const LEGACY_EXPORT_GROUP = 'gw-export';
const COMPANIES_REFRESH_MS = 2_000;
/** The marker that stops trimming outlives a week-long exporter outage; after that the streams fall back to their cap. */
export const EXPORTED_MARKER_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/**
 * How often the markers are written again. A failover can promote a replica that never got a marker written just
 * before it; until it is written again that stream may be trimmed past the data plane's cap. Once a minute keeps
 * that window short (one SET per company per minute, sent together).
 */
const MARKER_REFRESH_MS = 60 * 1000;
/** Ids per XDEL: one command stays a bounded amount of Redis work. */
const DELETE_SLICE = 1_000;

/**
 * Entries kept per company's dead-letter stream: past it the oldest go (each
 * was counted and logged when set aside). Documented in docs/usage-store.md.
 */
export const DEAD_LETTER_MAX = 10_000;

/** An entry set aside: where it was, why, and its text as written. */
interface DeadLetter {
  readonly company: string;
  readonly id: string;
  readonly requestId: string | null;
  readonly reason: string;
  readonly text: string;
}

type StreamEntry = [id: string, fields: string[]];

/**
 * The per-company usage streams as a source for the exporter. Each stream is
 * marked exported, which stops the data plane from trimming it; from then on
 * an entry leaves the stream only when the exporter deletes it (XDEL) after
 * PostgreSQL committed it. So what a stream holds is exactly what waits for
 * export, and a read starts at its first entry: no consumer group, no
 * pending list, no position to keep. Why (docs/usage-store.md): a group
 * costs Redis a pending-list insert per entry read and a removal per entry
 * acknowledged (about half of Redis's CPU per exported record), and a
 * promoted replica that never got the group cannot serve reads until it is
 * joined again; a stream read works on any copy of the stream, and whatever
 * a failover brings back is stored once by request id.
 */
export class RedisUsageSource implements UsageSource {
  private companies: string[] = [];
  private companiesAt = 0;
  private announcedAt = 0;
  private readonly marked = new Map<string, number>();
  private readonly legacyDropped = new Set<string>();
  private cursor = 0;

  constructor(
    private readonly redis: RedisClient,
    private readonly markerRefreshMs = MARKER_REFRESH_MS,
  ) {}

  private async refreshCompanies(): Promise<void> {
    const now = Date.now();
    if (now - this.companiesAt < COMPANIES_REFRESH_MS) return;
    if (now - this.announcedAt >= this.markerRefreshMs) {
      // Tells data planes to mark a company they write first, before this exporter has seen it.
      await this.redis.set(keys.usageExportOn(), '1', 'PX', EXPORTED_MARKER_TTL_MS);
      this.announcedAt = now;
    }
    this.companies = (await this.redis.smembers(keys.usageCompanies())).sort();
    this.companiesAt = now;
    const due = this.companies.filter((c) => now - (this.marked.get(c) ?? 0) >= this.markerRefreshMs);
    // From the mark on nothing is trimmed: every entry the stream holds, or gets, waits for this exporter.
    await Promise.all(due.map((c) => this.redis.set(keys.usageExported(c), '1', 'PX', EXPORTED_MARKER_TTL_MS)));
    for (const c of due) this.marked.set(c, now);
    const legacy = due.filter((c) => !this.legacyDropped.has(c));
    // A missing stream or group answers with an error or 0: either way there is nothing left to drop.
    await Promise.all(legacy.map((c) => this.redis.xgroup('DESTROY', keys.usageStream(c), LEGACY_EXPORT_GROUP).catch(() => 0)));
    for (const c of legacy) this.legacyDropped.add(c);
  }

  /**
   * Reads the companies' streams at once (one round trip for all, not one
   * each), sharing `max` among them, and tops up from those that had more.
   * Every read starts at the stream's first entry, so a batch not yet
   * acknowledged is handed out again, as the interface promises.
   */
  async next(max: number): Promise<ExportBatch | null> {
    await this.refreshCompanies();
    const n = this.companies.length;
    const order = Array.from({ length: n }, (_, i) => this.companies[(this.cursor + i) % n] as string);
    this.cursor = n === 0 ? 0 : (this.cursor + 1) % n;
    const taken = new Map<string, string[]>();
    const records: UsageRecord[] = [];
    const texts: string[] = [];
    /** Where each record came from, for setting it aside if the sink refuses it. */
    const origins: Array<{ company: string; id: string }> = [];
    const unreadable: Unreadable[] = [];
    const deadLetters: DeadLetter[] = [];
    let wanting = order;
    while (wanting.length > 0 && records.length + unreadable.length < max) {
      const room = max - records.length - unreadable.length;
      const counts = wanting.map((_, i) => Math.floor(room / wanting.length) + (i < room % wanting.length ? 1 : 0));
      const asked = wanting.filter((_, i) => (counts[i] as number) > 0);
      const replies = await Promise.all(asked.map((company, i) => this.read(company, counts[i] as number, taken.get(company))));
      const more: string[] = [];
      replies.forEach((entries, i) => {
        const company = asked[i] as string;
        const ids = taken.get(company) ?? [];
        for (const [id, fields] of entries) {
          ids.push(id);
          // An entry written by hand without the record field reads as an empty text: set aside as not JSON.
          const json = fields[1] ?? '';
          const read = readUsageRecord(json);
          if ('record' in read) {
            // Parsed for the columns; stored as written.
            records.push(read.record);
            texts.push(json);
            origins.push({ company, id });
          } else {
            unreadable.push({ company, requestId: read.requestId, reason: read.reason });
            deadLetters.push({ company, id, requestId: read.requestId, reason: read.reason, text: json });
          }
        }
        if (ids.length > 0) taken.set(company, ids);
        if (entries.length === counts[i]) more.push(company);
      });
      wanting = more;
    }
    if (taken.size === 0) return null;
    return {
      records,
      texts,
      unreadable,
      ack: async (refused = []) => {
        const aside = [...deadLetters];
        for (const { index, reason } of refused) {
          const origin = origins[index];
          const record = records[index];
          if (origin && record) aside.push({ ...origin, requestId: record.request_id, reason, text: texts[index] as string });
        }
        // Set aside before deleting: a crash in between hands the entries out again (and sets them aside again), never loses.
        if (aside.length > 0) await this.setAside(aside);
        // Every XDEL is sent before any answer is awaited (one round trip, not one per command).
        const sent: Array<Promise<unknown>> = [];
        for (const [company, ids] of taken) {
          const stream = keys.usageStream(company);
          for (let i = 0; i < ids.length; i += DELETE_SLICE) sent.push(this.redis.xdel(stream, ...ids.slice(i, i + DELETE_SLICE)));
        }
        await Promise.all(sent);
      },
    };
  }

  /** Appends each to its company's dead-letter stream, with the original entry id, the reason and the record as it was. */
  private async setAside(letters: readonly DeadLetter[]): Promise<void> {
    await Promise.all(
      letters.map((l) => this.redis.xadd(keys.usageDeadLetters(l.company), 'MAXLEN', '~', DEAD_LETTER_MAX, '*', 'entry', l.id, 'request_id', l.requestId ?? '', 'reason', l.reason, 'record', l.text)),
    );
  }

  /** Up to `count` of one company's entries from the first, or after `taken`'s last when this batch already read some. */
  private async read(company: string, count: number, taken: readonly string[] | undefined): Promise<StreamEntry[]> {
    const last = taken?.[taken.length - 1];
    return (await this.redis.xrange(keys.usageStream(company), last === undefined ? '-' : `(${last}`, '+', 'COUNT', count)) as StreamEntry[];
  }

  async backlog(): Promise<number> {
    await this.refreshCompanies();
    let total = 0;
    for (const c of this.companies) total += await this.redis.xlen(keys.usageStream(c));
    return total;
  }

  async timeZones(companies: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const c of companies) {
      const raw = await this.redis.get(keys.records(c));
      if (raw === null) continue;
      // Only the settings are read: the sealed credential secrets stay sealed (no key needed here).
      const settings = (JSON.parse(raw) as { settings?: Partial<CompanySettings> }).settings;
      if (typeof settings?.timeZone === 'string') out.set(c, settings.timeZone);
    }
    return out;
  }
}

const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2])) end
return 0
`;
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/** The exporter lease in Redis, shared by every gw serve replica, gw export-usage and the operator. */
export class RedisExportLease implements ExportLease {
  readonly holder: string;
  constructor(
    private readonly redis: RedisClient,
    private readonly ttlMs = 15_000,
    identity = `${process.pid}-${randomUUID()}`,
  ) {
    this.holder = identity;
  }

  async acquire(): Promise<boolean> {
    return (await this.redis.set(keys.exporterLease(), this.holder, 'PX', this.ttlMs, 'NX')) === 'OK';
  }

  async renew(): Promise<boolean> {
    return (await this.redis.eval(RENEW, 1, keys.exporterLease(), this.holder, this.ttlMs)) === 1;
  }

  async release(): Promise<void> {
    await this.redis.eval(RELEASE, 1, keys.exporterLease(), this.holder);
  }
}
