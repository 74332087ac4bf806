import { describe, expect, it } from 'vitest';
import { backoffDelay, nextDelay, parseRetryAfter } from '../../../src/main/api/retry-policy';

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-10-01T10:00:00Z');
  it('reads delay-seconds', () => expect(parseRetryAfter('3', now)).toBe(3_000));
  it('reads an HTTP date', () => expect(parseRetryAfter('Thu, 01 Oct 2026 10:00:05 GMT', now)).toBe(5_000));
  it('a past date means now', () => expect(parseRetryAfter('Thu, 01 Oct 2026 09:00:00 GMT', now)).toBe(0));
  it('absent or unreadable is null', () => {
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('-1', now)).toBeNull();
  });
});

describe('backoff with full jitter', () => {
  it('grows exponentially up to the cap, scaled by the random draw', () => {
    expect(backoffDelay(0, 250, 10_000, () => 0.999)).toBe(249);
    expect(backoffDelay(3, 250, 10_000, () => 0.5)).toBe(1_000);
    expect(backoffDelay(10, 250, 10_000, () => 0.5)).toBe(5_000);
    expect(backoffDelay(2, 250, 10_000, () => 0)).toBe(0);
  });

  it('Retry-After wins over backoff, and one beyond the cap ends the retries', () => {
    expect(nextDelay(0, 3_000, 250, 10_000, () => 0)).toBe(3_000);
    expect(nextDelay(0, 30_000, 250, 10_000)).toBeNull();
    expect(nextDelay(1, null, 250, 10_000, () => 0.5)).toBe(250);
  });
});
