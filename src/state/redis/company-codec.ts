import type { CompanyRecords, CredentialRecord } from '../records.js';
import type { SecretBox } from '../secret-box.js';

/** Company records as stored: JSON with every credential secret sealed. */
export function encodeCompany(records: CompanyRecords, box: SecretBox): string {
  return JSON.stringify({
    ...records,
    credentials: records.credentials.map((c) => ({ ...c, secret: box.seal(c.secret, `${c.company}/${c.name}`) })),
  });
}

export function decodeCompany(raw: string, box: SecretBox): CompanyRecords {
  const stored = JSON.parse(raw) as CompanyRecords;
  return {
    ...stored,
    credentials: stored.credentials.map((c: CredentialRecord) => ({ ...c, secret: box.open(c.secret, `${c.company}/${c.name}`) })),
  };
}
