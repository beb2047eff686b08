import type { CredentialRecord } from '../state/records.js';
import type { CallerSlots, CredentialHealthStore, CredentialLeases, SpendLedger, TokenDirectory, UsageRecorder } from '../state/state.js';

/** What secret scanning hands back: the body to forward and the findings counted by rule. */
export interface RedactionOutcome {
  body: Buffer;
  countsByRule: Record<string, number>;
}

/**
 * The secret scanner as the pipeline sees it (implemented in src/redaction,
 * run by src/runtime/redaction-pool). It scans every byte of the body; a
 * rejection means the body was not scanned, and it is then not forwarded.
 */
export interface RedactorPort {
  (body: Buffer): Promise<RedactionOutcome>;
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

/**
 * The roles of the gateway state a request uses (src/state): it reads the
 * writer's picture, holds a caller slot and a credential lease, reserves and
 * settles spend, records the seat windows it saw and one usage record. It
 * never writes companies, reads usage back or judges a credential's health.
 */
export type PipelineState = Omit<TokenDirectory, 'generation'> & CallerSlots & CredentialLeases & Pick<CredentialHealthStore, 'updateSeatWindows'> & SpendLedger & UsageRecorder;
