import type { CredentialHealth, CredentialHealthStore, SeatWindow } from '../state.js';
import { credentialKey, HEALTHY, type MemoryStore } from './store.js';

export class MemoryCredentialHealth implements CredentialHealthStore {
  constructor(private readonly store: MemoryStore) {}

  async credentialHealth(company: string, credential: string): Promise<CredentialHealth> {
    return this.store.health.get(credentialKey(company, credential)) ?? HEALTHY;
  }

  async markCredentialUnhealthy(company: string, credential: string, reason: string): Promise<void> {
    const key = credentialKey(company, credential);
    const current = this.store.health.get(key) ?? HEALTHY;
    this.store.health.set(key, { ...current, healthy: false, reason });
  }

  async markCredentialHealthy(company: string, credential: string): Promise<void> {
    const key = credentialKey(company, credential);
    const current = this.store.health.get(key);
    if (current) this.store.health.set(key, { ...current, healthy: true, reason: null });
  }

  async updateSeatWindows(company: string, credential: string, windows: readonly SeatWindow[]): Promise<void> {
    const key = credentialKey(company, credential);
    const current = this.store.health.get(key) ?? HEALTHY;
    const merged = new Map(current.windows.map((w) => [w.window, w]));
    for (const w of windows) merged.set(w.window, w);
    this.store.health.set(key, { ...current, windows: [...merged.values()] });
  }
}
