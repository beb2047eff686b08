/**
 * Entries with their expiry times. Sweeping walks every entry, and it runs on each acquire, so
 * at a thousand requests in flight it dominated: the walk is skipped while no entry can have
 * expired yet (`earliest` is a lower bound; a renewal only moves an expiry later).
 */
export class Expiring extends Map<string, number> {
  private earliest = Infinity;

  override set(id: string, expiresAt: number): this {
    if (expiresAt < this.earliest) this.earliest = expiresAt;
    return super.set(id, expiresAt);
  }

  sweep(now: number): this {
    if (now < this.earliest) return this;
    let next = Infinity;
    for (const [id, expiresAt] of this) {
      if (expiresAt <= now) this.delete(id);
      else if (expiresAt < next) next = expiresAt;
    }
    this.earliest = next;
    return this;
  }
}

/** The entries of `key` whose TTL has not run out (expired ones are dropped on the way). */
export function live(map: Map<string, Expiring>, key: string, now: number): Expiring {
  let entries = map.get(key);
  if (!entries) {
    map.set(key, (entries = new Expiring()));
    return entries;
  }
  return entries.sweep(now);
}
