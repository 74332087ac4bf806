/**
 * When to try a safe call again: the service call policy (retry/policies.ts SERVICE_CALL,
 * exponential backoff with full jitter, which spreads the stations of a warehouse apart
 * after an outage); a Retry-After from the service replaces the computed wait.
 */
import { backoffDelay as policyDelay } from '../retry/backoff';
import { SERVICE_CALL } from '../retry/policies';

/** Milliseconds to wait before retry number `retryIndex` (0 = first retry). */
export function backoffDelay(retryIndex: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  return policyDelay({ ...SERVICE_CALL, baseMs, maxMs }, retryIndex, random);
}

/** Retry-After as delay-seconds or an HTTP date → milliseconds from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now: number = Date.now()): number | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return null;
  const text = raw.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // HTTP dates always name a day or month; this keeps `-1` and the like from parsing as years.
  if (!/[a-z]/i.test(text)) return null;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now);
}

/**
 * The wait before the next attempt, or null to give up now. A Retry-After longer than
 * `maxMs` is not shortened (that would hammer a service that asked for quiet) and not
 * waited out inside one call either: the call fails with `retryAfterMs` set, so the job
 * queue reschedules it without holding a connection and a caller open.
 */
export function nextDelay(
  retryIndex: number,
  retryAfterMs: number | null,
  baseMs: number,
  maxMs: number,
  random: () => number = Math.random,
): number | null {
  if (retryAfterMs !== null) return retryAfterMs <= maxMs ? retryAfterMs : null;
  return backoffDelay(retryIndex, baseMs, maxMs, random);
}
