/**
 * The one backoff formula: a wait that doubles with each retry up to a ceiling, spread by
 * jitter. Every retry and backoff in the agent (service calls, job fetches, printer probes,
 * the ledger, polls, pending decisions, the site) computes its wait here, from a named
 * policy (policies.ts), so the formulas cannot drift apart.
 */

/** How the wait is spread around its ceiling. */
export type Jitter =
  /** A random wait in [0, ceiling] (AWS "full jitter"): spreads stations apart after an outage. Whole milliseconds, rounded down. */
  | 'full'
  /** Exactly the ceiling: one line or one ledger waits alone, nothing to spread. */
  | 'none'
  /** The ceiling ± this fraction (0.1 = ±10 %): a steady rhythm that does not fall in step with others. */
  | { readonly spread: number };

export interface BackoffPolicy {
  /** The first wait (retry index 0). */
  readonly baseMs: number;
  /** The longest wait: the doubling stops here. */
  readonly maxMs: number;
  readonly jitter: Jitter;
  /** The doubling stops after this many steps (keeps 2^n finite for a retry that never ends). @default 20 */
  readonly maxDoublings?: number;
}

/**
 * Milliseconds to wait before retry number `retryIndex` (0 = the first retry): the ceiling
 * min(maxMs, baseMs · 2^retryIndex), spread by the policy's jitter. `random` gives [0, 1).
 */
export function backoffDelay(policy: BackoffPolicy, retryIndex: number, random: () => number = Math.random): number {
  const doublings = Math.min(Math.max(0, retryIndex), policy.maxDoublings ?? 20);
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** doublings);
  const { jitter } = policy;
  if (jitter === 'full') return Math.floor(random() * ceiling);
  if (jitter === 'none') return ceiling;
  return Math.round(ceiling * (1 + (random() * 2 - 1) * jitter.spread));
}
