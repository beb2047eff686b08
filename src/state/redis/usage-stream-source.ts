import { randomUUID } from 'node:crypto';
import type { UsageRecord } from '../../metering/usage-record.js';
import { readUsageRecord } from '../../metering/read-usage-record.js';
import type { ExportBatch, ExportLease, Unreadable, UsageSource } from '../usage-source.js';
import type { CompanySettings } from '../records.js';
import type { RedisClient } from './connect.js';
import { keys } from './keys.js';

export const EXPORT_GROUP = 'gw-export';
/** One exporter works at a time (by lease), so every holder reads as the same consumer and so inherits what a crashed one had pending. */
const CONSUMER = 'exporter';
const COMPANIES_REFRESH_MS = 2_000;
/** The marker that stops trimming outlives a week-long exporter outage; after that the streams fall back to their cap. */
export const EXPORTED_MARKER_TTL_MS = 7 * 24 * 60 * 60 * 1000;
const MARKER_REFRESH_MS = 60 * 60 * 1000;

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

type StreamEntry = [id: string, fields: string[] | null];
type StreamReply = Array<[key: string, entries: StreamEntry[]]> | null;

/**
 * The per-company usage streams as a source for the exporter, through one
 * consumer group per stream. Each stream is marked exported, which stops the
 * data plane from trimming it; an entry leaves the stream only once the
 * exporter acknowledged it (XACK, then XDEL).
 */
export class RedisUsageSource implements UsageSource {
  private companies: string[] = [];
  private companiesAt = 0;
  private announcedAt = 0;
  private readonly joined = new Map<string, number>();
  /** Companies whose pending entries (delivered, never acknowledged) were read since this holder started. */
  private readonly pendingDrained = new Set<string>();
  /** The last pending entry handed out per company, while its pending entries are being read. */
  private readonly pendingFrom = new Map<string, string>();
  private cursor = 0;

  constructor(private readonly redis: RedisClient) {}

  /** Called when this process (re)gains the lease: re-read what the previous holder left pending. */
  restart(): void {
    this.pendingDrained.clear();
    this.pendingFrom.clear();
  }

  private async refreshCompanies(): Promise<void> {
    const now = Date.now();
    if (now - this.companiesAt < COMPANIES_REFRESH_MS) return;
    if (now - this.announcedAt >= MARKER_REFRESH_MS) {
      // Tells data planes to mark a company they write first, before this exporter has seen it.
      await this.redis.set(keys.usageExportOn(), '1', 'PX', EXPORTED_MARKER_TTL_MS);
      this.announcedAt = now;
    }
    this.companies = (await this.redis.smembers(keys.usageCompanies())).sort();
    this.companiesAt = now;
    for (const c of this.companies) {
      if (now - (this.joined.get(c) ?? 0) < MARKER_REFRESH_MS) continue;
      // Mark first, then join: from the mark on nothing is trimmed, and the group starts at the stream's first entry.
      await this.redis.set(keys.usageExported(c), '1', 'PX', EXPORTED_MARKER_TTL_MS);
      try {
        await this.redis.xgroup('CREATE', keys.usageStream(c), EXPORT_GROUP, '0', 'MKSTREAM');
      } catch (error) {
        if (!/BUSYGROUP/.test((error as Error).message)) throw error;
      }
      this.joined.set(c, now);
    }
  }

  /**
   * Reads the companies' streams at once (one round trip for all, not one
   * each), sharing `max` among them, and tops up from those that had more.
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
      const replies = await Promise.all(asked.map((company, i) => this.readCompany(company, counts[i] as number)));
      const more: string[] = [];
      replies.forEach((entries, i) => {
        const company = asked[i] as string;
        const ids = taken.get(company) ?? [];
        for (const [id, fields] of entries) {
          ids.push(id);
          // An entry deleted after delivery has no fields left: acknowledge it and move on.
          const json = fields?.[1];
          if (json === undefined) continue;
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
        // Set aside before acknowledging: a crash in between re-delivers (and sets aside again), never loses.
        if (aside.length > 0) await this.setAside(aside);
        // Every XACK and XDEL is sent before any answer is awaited (one round trip, not one per command).
        const sent: Array<Promise<unknown>> = [];
        for (const [company, ids] of taken) {
          const stream = keys.usageStream(company);
          for (let i = 0; i < ids.length; i += 1_000) {
            const slice = ids.slice(i, i + 1_000);
            sent.push(this.redis.xack(stream, EXPORT_GROUP, ...slice), this.redis.xdel(stream, ...slice));
          }
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

  /**
   * Up to `count` of one company's entries: first those delivered before and
   * never acknowledged (read on from the last one handed out, so a batch not
   * yet acknowledged is not handed out twice), then new ones.
   */
  private async readCompany(company: string, count: number): Promise<StreamEntry[]> {
    try {
      return await this.readCompanyEntries(company, count);
    } catch (error) {
      // The group is gone: a failover promoted a replica that never got XGROUP CREATE (or the stream's marker).
      // Join again at the next read rather than in an hour; the group restarts at the stream's first entry and
      // PostgreSQL ignores what it already holds.
      if (/NOGROUP/.test((error as Error).message)) {
        this.joined.delete(company);
        this.companiesAt = 0;
        this.announcedAt = 0;
      }
      throw error;
    }
  }

  private async readCompanyEntries(company: string, count: number): Promise<StreamEntry[]> {
    const stream = keys.usageStream(company);
    if (!this.pendingDrained.has(company)) {
      const pending = await this.read(stream, count, this.pendingFrom.get(company) ?? '0');
      const last = pending[pending.length - 1];
      if (last !== undefined) {
        this.pendingFrom.set(company, last[0]);
        return pending;
      }
      this.pendingDrained.add(company);
    }
    return this.read(stream, count, '>');
  }

  private async read(stream: string, count: number, from: string): Promise<StreamEntry[]> {
    const reply = (await this.redis.xreadgroup('GROUP', EXPORT_GROUP, CONSUMER, 'COUNT', count, 'STREAMS', stream, from)) as StreamReply;
    return reply?.[0]?.[1] ?? [];
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
    private readonly onAcquired: () => void = () => {},
  ) {
    this.holder = identity;
  }

  async acquire(): Promise<boolean> {
    const ok = (await this.redis.set(keys.exporterLease(), this.holder, 'PX', this.ttlMs, 'NX')) === 'OK';
    if (ok) this.onAcquired();
    return ok;
  }

  async renew(): Promise<boolean> {
    return (await this.redis.eval(RENEW, 1, keys.exporterLease(), this.holder, this.ttlMs)) === 1;
  }

  async release(): Promise<void> {
    await this.redis.eval(RELEASE, 1, keys.exporterLease(), this.holder);
  }
}
