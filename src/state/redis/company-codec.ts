import type { CompanyRecords, CredentialRecord, TokenRecord } from '../records.js';
import type { SecretBox } from '../secret-box.js';
import { checkedVersion, parseRecord, RECORD_VERSION, UnreadableRecord } from '../record-version.js';

/** Company records as stored: JSON with the schema version and every credential secret sealed. */
export function encodeCompany(records: CompanyRecords, box: SecretBox): string {
  return JSON.stringify({
    v: RECORD_VERSION,
    ...records,
    credentials: records.credentials.map((c) => ({ ...c, secret: box.seal(c.secret, `${c.company}/${c.name}`) })),
  });
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function validToken(t: unknown): t is TokenRecord {
  return isObject(t) && isString(t.hash) && isString(t.company) && isString(t.name) && isString(t.address);
}

function validCredential(c: unknown): c is CredentialRecord {
  return (
    isObject(c) &&
    isString(c.company) &&
    isString(c.name) &&
    isString(c.provider) &&
    isString(c.kind) &&
    isString(c.secret) &&
    isString(c.baseUrl) &&
    isString(c.authScheme) &&
    typeof c.maxConcurrency === 'number' &&
    typeof c.priority === 'number' &&
    (c.models === null || (Array.isArray(c.models) && c.models.every(isString)))
  );
}

/**
 * Checked, not cast: a record of a newer schema, or one missing what this
 * build decides on, is refused (UnreadableRecord) instead of read as something
 * it is not.
 */
export function decodeCompany(raw: string, box: SecretBox, key = 'company'): CompanyRecords {
  const stored = parseRecord(raw, 'company', key);
  checkedVersion(stored, 'company', key);
  const s = stored as Record<string, unknown>;
  const settings = s.settings;
  const valid =
    isString(s.company) &&
    isObject(settings) &&
    isString(settings.company) &&
    isString(settings.tokenDomain) &&
    isString(settings.timeZone) &&
    Array.isArray(s.tokens) &&
    s.tokens.every(validToken) &&
    Array.isArray(s.credentials) &&
    s.credentials.every(validCredential);
  if (!valid) throw new UnreadableRecord('company', key, 'invalid', (s.v as number | undefined) ?? 1);
  const { v: _version, ...records } = s as unknown as CompanyRecords & { v?: number };
  return {
    ...records,
    credentials: records.credentials.map((c: CredentialRecord) => ({ ...c, secret: box.open(c.secret, `${c.company}/${c.name}`) })),
  };
}
