import type { CredentialRecord } from '../state/records.js';

/** The secret scanner as the pipeline sees it (implemented in src/redaction). */
export interface RedactorPort {
  (body: Buffer, options: { budgetMs: number }): {
    body: Buffer;
    countsByRule: Record<string, number>;
    budgetExhausted: boolean;
  };
}

/**
 * Credential health as the pipeline sees it (implemented in src/credentials):
 * the pipeline reports what it saw, the implementation decides on evidence
 * about the key alone.
 */
export interface CredentialHealthPort {
  /** A provider answered 401/403 to a caller's request on this credential. */
  suspect(credential: CredentialRecord, status: number): void;
  /** Leasing found only these credentials, all marked rejected: make sure they are being re-checked. */
  rejectedInUse(credentials: readonly CredentialRecord[]): void;
}
