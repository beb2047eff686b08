/** Thrown when leadership went away during a reconcile; the new leader redoes the namespace. */
export class NotLeader extends Error {}

/** Redis refused a write: a writer of epoch `current` wrote there (a takeover, or a Lease that was deleted and restarted its count). */
export class Fenced extends NotLeader {
  constructor(
    readonly current: number,
    message: string,
  ) {
    super(message);
  }
}

/** Runs `work` over `items`, at most `limit` at a time; the first failure fails the lot (after the others settle). */
export async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const results = await Promise.allSettled(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}
