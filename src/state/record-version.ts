/**
 * The schema version every record the operator writes for the data planes
 * carries (company records and token keys). A reader accepts every version up
 * to its own and refuses a newer one: it cannot know what a newer writer
 * meant (a new field may restrict what the record allows), so it fails closed
 * rather than decide on a guess. A record without a version was written by a
 * build before versions existed and reads as version 1, which it is.
 *
 * Changing what a record means takes a new version; adding a field that an
 * older reader may ignore safely does not. See docs/operator.md, "Upgrades".
 */
export const RECORD_VERSION = 1;

export type RecordKind = 'company' | 'token';
export type UnreadableReason = 'newer' | 'invalid';

/** A record this build must not decide on; the caller's request fails closed (503 unavailable). */
export class UnreadableRecord extends Error {
  constructor(
    readonly record: RecordKind,
    readonly key: string,
    readonly reason: UnreadableReason,
    readonly version: number | null,
  ) {
    super(
      reason === 'newer'
        ? `${record} record ${key} has schema version ${version}, newer than the ${RECORD_VERSION} this build reads: upgrade this process (data planes before the operator)`
        : `${record} record ${key} is not a valid version ${version ?? 1} record`,
    );
    this.name = 'UnreadableRecord';
  }
}

/** Told of every unreadable record met (to log it and count it); the read still fails. */
export type UnreadableListener = (error: UnreadableRecord) => void;

/** The version a stored record declares, checked; throws UnreadableRecord for a newer or malformed one. */
export function checkedVersion(stored: unknown, record: RecordKind, key: string): number {
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) throw new UnreadableRecord(record, key, 'invalid', null);
  const declared = (stored as { v?: unknown }).v;
  if (declared === undefined) return 1;
  if (typeof declared !== 'number' || !Number.isInteger(declared) || declared < 1) throw new UnreadableRecord(record, key, 'invalid', null);
  if (declared > RECORD_VERSION) throw new UnreadableRecord(record, key, 'newer', declared);
  return declared;
}

/** Parses a stored record's JSON; text that is not JSON is an invalid record, not a crash. */
export function parseRecord(raw: string, record: RecordKind, key: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw new UnreadableRecord(record, key, 'invalid', null);
  }
}
