import type { CompanyRecords } from '../records.js';
import { FencedWrite, type CompanyWriter, type RevokedToken, type WriteFence } from '../state.js';
import { credentialKey, type MemoryStore } from './store.js';

export class MemoryCompanyWriter implements CompanyWriter {
  private readonly revoked = new Set<string>();
  private readonly epochs = new Map<string, number>();

  constructor(private readonly store: MemoryStore) {}

  async replaceCompany(records: CompanyRecords, fence?: WriteFence): Promise<void> {
    this.checkFence(records.company, fence);
    const previous = this.store.companies.get(records.company);
    if (previous) {
      for (const token of previous.tokens) this.dropToken(token.hash, records.company);
      // A rotated secret gets a fresh start; an unchanged one keeps what the upstream taught us.
      for (const old of previous.credentials) {
        const now = records.credentials.find((c) => c.name === old.name);
        if (!now || now.secret !== old.secret) this.store.health.delete(credentialKey(records.company, old.name));
      }
    }
    this.store.companies.set(records.company, records);
    for (const token of records.tokens) {
      // Never take over a hash another company holds, and never revive a revoked one.
      if (this.revoked.has(token.hash)) continue;
      const holder = this.store.tokens.get(token.hash);
      if (!holder || holder.company === records.company) this.store.tokens.set(token.hash, token);
    }
  }

  private checkFence(company: string, fence: WriteFence | undefined): void {
    if (!fence) return;
    const current = this.epochs.get(company) ?? 0;
    if (fence.epoch < current) throw new FencedWrite(fence.epoch, current);
    this.epochs.set(company, fence.epoch);
  }

  private dropToken(hash: string, company: string): void {
    if (this.store.tokens.get(hash)?.company === company) this.store.tokens.delete(hash);
  }

  async removeCompany(company: string, fence?: WriteFence): Promise<void> {
    this.checkFence(company, fence);
    const previous = this.store.companies.get(company);
    if (previous) {
      for (const token of previous.tokens) this.dropToken(token.hash, company);
      for (const credential of previous.credentials) this.store.health.delete(credentialKey(company, credential.name));
    }
    this.store.companies.delete(company);
  }

  async revokeTokens(revoked: readonly RevokedToken[]): Promise<void> {
    for (const r of revoked) {
      this.revoked.add(r.hash);
      this.store.tokens.delete(r.hash);
    }
  }

  async markLoaded(generation: string): Promise<void> {
    this.store.generation = generation;
  }

  async listCompanies(): Promise<string[]> {
    return [...this.store.companies.keys()];
  }
}
