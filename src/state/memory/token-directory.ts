import type { CompanyRecords, TokenRecord } from '../records.js';
import type { TokenDirectory } from '../state.js';
import type { MemoryStore } from './store.js';

export class MemoryTokenDirectory implements TokenDirectory {
  constructor(private readonly store: MemoryStore) {}

  async findToken(hash: string): Promise<TokenRecord | null> {
    return this.store.tokens.get(hash) ?? null;
  }

  async getCompany(company: string): Promise<CompanyRecords | null> {
    return this.store.companies.get(company) ?? null;
  }

  async loaded(): Promise<boolean> {
    // One process holds its state and its writer: it cannot lose one without the other.
    return true;
  }

  async generation(): Promise<string | null> {
    return this.store.generation;
  }
}
