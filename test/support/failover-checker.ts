/**
 * The failover checker's judgements (docs/resilience.md, "Redis failover"),
 * shared by the failover test (test/e2e/resilience/redis-failover.test.ts)
 * and the longer randomized run in `make bench`. Pure: it is handed what
 * the load saw (every request's outcome, client-side), what the provider saw
 * (when each forwarded request was there) and the fault windows, and says
 * what broke a promise.
 */

/** One request as the load saw it. */
export interface Outcome {
  readonly token: string;
  readonly gateway: number;
  readonly startedAt: number;
  readonly endedAt: number;
  readonly status: number;
  readonly fault: string | null;
  readonly requestId: string | null;
}

/** A fault and the promotion that ended it: from the moment state could start to be lost (the replicas stopped, or the primary) to the new primary. */
export interface FaultWindow {
  readonly from: number;
  readonly promotedAt: number;
}

/** How long before a fault a request's effects may still be unreplicated: a confirmation round is due every 100 ms (500 ms after an unconfirmed one), its WAIT waits 100 ms. */
export const UNREPLICATED_SLACK_MS = 1_000;

/**
 * The requests whose state a fault could lose: those not ended (client-side,
 * which is later than the gateway's end) before the window opened, less the
 * slack, and started before the promotion. This is "the requests in flight at
 * the failover" of the spend and cap bounds, counting as in flight a request
 * whose record its data plane had not yet seen on a replica.
 */
export function inFlightAt(outcomes: readonly Outcome[], window: FaultWindow, token?: string): Outcome[] {
  return outcomes.filter((o) => (token === undefined || o.token === token) && o.endedAt >= window.from - UNREPLICATED_SLACK_MS && o.startedAt <= window.promotedAt);
}

/** The most intervals open at once (an interval ending at t does not overlap one starting at t). */
export function maxConcurrency(intervals: ReadonlyArray<readonly [number, number]>): number {
  const edges = intervals.flatMap(([from, to]) => [
    [from, 1],
    [to, -1],
  ]) as Array<[number, number]>;
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let open = 0;
  let most = 0;
  for (const [, delta] of edges) {
    open += delta;
    most = Math.max(most, open);
  }
  return most;
}

/**
 * The bound a cap may be passed by: the token's requests in flight at a promotion (started before it, ended after
 * it, client-side), whose slots the promoted node may lack. Only they can be outrun: a request that ended before the
 * promotion is not concurrent with any admitted in its place. The largest count over the promotions applies.
 */
export function capBound(outcomes: readonly Outcome[], windows: readonly FaultWindow[], token: string): number {
  return Math.max(0, ...windows.map((w) => outcomes.filter((o) => o.token === token && o.startedAt <= w.promotedAt && o.endedAt >= w.promotedAt).length));
}

/** The intervals that touch no fault period (from the fault to `afterMs` past its promotion): among them a cap holds exactly. */
export function outsideFaults(intervals: ReadonlyArray<readonly [number, number]>, windows: readonly FaultWindow[], afterMs: number): Array<readonly [number, number]> {
  return intervals.filter(([from, to]) => windows.every((w) => to < w.from - UNREPLICATED_SLACK_MS || from > w.promotedAt + afterMs));
}

/** Spend may pass a limit by at most the worst-case reservations of the requests in flight at each failover. */
export function spendBound(outcomes: readonly Outcome[], windows: readonly FaultWindow[], token: string, worstCaseMicros: number): number {
  return windows.reduce((sum, w) => sum + inFlightAt(outcomes, w, token).length * worstCaseMicros, 0);
}

/**
 * "Served again within `withinMs` of the promotion", judged on what the gateway answered rather than on when the
 * load happened to send: the token got a 200 (or a governed answer: 429 `user_cap` from its cap, and for a token
 * that may reach its spend limit a 402 `over_budget`) for a request sent after the promotion, and every request of the token sent from
 * `withinMs` after the promotion, and over before the next fault began, got such an answer. (A first 200 that
 * merely ended late, because the machine was busy or the token's turn came late, is no broken promise.)
 */
export function servedAgain(outcomes: readonly Outcome[], token: string, windows: readonly FaultWindow[], index: number, withinMs: number, overBudgetCounts = false): string[] {
  const at = (windows[index] as FaultWindow).promotedAt;
  const nextFault = windows[index + 1]?.from ?? Infinity;
  const served = (o: Outcome): boolean => isServed(o, overBudgetCounts);
  const mine = outcomes.filter((o) => o.token === token && o.startedAt >= at);
  const problems: string[] = [];
  if (!mine.some(served)) problems.push(`${token}: no answer after the failover at ${new Date(at).toISOString()}`);
  for (const o of mine)
    if (!served(o) && o.startedAt >= at + withinMs && o.endedAt < nextFault)
      problems.push(`${token}: ${o.status} ${o.fault ?? ''} for a request sent ${o.startedAt - at} ms after the failover (gateway ${o.gateway}, ${new Date(o.startedAt).toISOString()})`);
  return problems;
}

/** Answers no failover may give: anything but 200, 401 for a revoked token, 503 `unavailable`, 429 `user_cap`, and 402 `over_budget` for a token with a spend limit. */
export function unexpectedAnswers(outcomes: readonly Outcome[], revoked: readonly string[], spendLimited: readonly string[]): Outcome[] {
  return outcomes.filter(
    (o) =>
      o.status !== 200 &&
      !(o.status === 401 && revoked.includes(o.token)) &&
      !(o.status === 503 && o.fault === 'unavailable') &&
      !(o.status === 429 && o.fault === 'user_cap') &&
      !(o.status === 402 && o.fault === 'over_budget' && spendLimited.includes(o.token)),
  );
}

/** 200s a revoked token got for requests started after its revocation was acknowledged. */
export function servedAfterRevocation(outcomes: readonly Outcome[], token: string, acknowledgedAt: number): Outcome[] {
  return outcomes.filter((o) => o.token === token && o.status === 200 && o.startedAt > acknowledgedAt);
}

/** An answer that counts as serving the token: 200, 429 `user_cap` from its own cap, or 402 `over_budget` where the token may reach a spend limit. */
function isServed(o: Outcome, overBudgetCounts: boolean): boolean {
  return o.status === 200 || (o.status === 429 && o.fault === 'user_cap') || (overBudgetCounts && o.status === 402 && o.fault === 'over_budget');
}

/** How long after window `index`'s promotion the last request that got no served answer (by `servedAgain`'s rule) was sent, over the tokens; 0 if none. Reported beside the 5 s promise so that a run shows how close it came. */
export function lastUnservedMs(outcomes: readonly Outcome[], tokens: readonly string[], windows: readonly FaultWindow[], index: number, overBudgetTokens: readonly string[]): number {
  const at = (windows[index] as FaultWindow).promotedAt;
  const nextFault = windows[index + 1]?.from ?? Infinity;
  let last = 0;
  for (const o of outcomes) {
    if (!tokens.includes(o.token) || o.startedAt < at || o.endedAt >= nextFault) continue;
    if (!isServed(o, overBudgetTokens.includes(o.token))) last = Math.max(last, o.startedAt - at);
  }
  return last;
}
