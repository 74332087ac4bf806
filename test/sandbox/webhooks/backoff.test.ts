import { describe, expect, it } from 'vitest';
import { retryDelayMs } from '../../../src/sandbox/webhooks/backoff';

describe('retryDelayMs', () => {
  it('keeps the first retry between half of and the full first delay', () => {
    expect(retryDelayMs(1, 1000, 60_000, () => 0)).toBe(500);
    expect(retryDelayMs(1, 1000, 60_000, () => 0.999_999)).toBeLessThanOrEqual(1000);
  });

  it('doubles per retry and stops at the cap', () => {
    const at = (retry: number) => retryDelayMs(retry, 1000, 60_000, () => 1);
    expect([1, 2, 3, 4].map(at)).toEqual([1000, 2000, 4000, 8000]);
    expect(at(7)).toBe(60_000);
    expect(at(30)).toBe(60_000);
  });

  it('spreads retries with jitter', () => {
    const delays = new Set(Array.from({ length: 50 }, () => retryDelayMs(3, 1000, 60_000)));
    expect(delays.size).toBeGreaterThan(1);
    for (const delay of delays) {
      expect(delay).toBeGreaterThanOrEqual(2000);
      expect(delay).toBeLessThanOrEqual(4000);
    }
  });
});
