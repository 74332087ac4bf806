import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../../src/main/retry/backoff';
import { JOB_FETCH, LEDGER, PENDING_DECISION, POLL, PRINTER_PROBE, SERVICE_CALL } from '../../../src/main/retry/policies';

describe('backoffDelay', () => {
  it('doubles from the base up to the ceiling, a random share of it with full jitter (whole ms, rounded down)', () => {
    expect(backoffDelay(SERVICE_CALL, 0, () => 0.999)).toBe(249);
    expect(backoffDelay(SERVICE_CALL, 3, () => 0.5)).toBe(1_000);
    expect(backoffDelay(SERVICE_CALL, 10, () => 0.5)).toBe(5_000);
    expect(backoffDelay(JOB_FETCH, 0, () => 1)).toBe(500);
    expect(backoffDelay(JOB_FETCH, 2, () => 0)).toBe(0);
  });

  it('waits the ceiling itself without jitter, and stops doubling after maxDoublings', () => {
    expect([0, 1, 2, 3].map((n) => backoffDelay(PRINTER_PROBE, n))).toEqual([500, 1_000, 2_000, 4_000]);
    expect(backoffDelay(PRINTER_PROBE, 50)).toBe(30_000);
    expect([0, 1, 5].map((n) => backoffDelay(LEDGER, n))).toEqual([1_000, 2_000, 30_000]);
    expect(backoffDelay({ baseMs: 1, maxMs: Infinity, jitter: 'none' }, 1_000)).toBe(2 ** 20);
    expect(backoffDelay({ ...POLL, baseMs: 1, maxMs: Infinity, jitter: 'none' }, 1_000)).toBe(2 ** 16);
  });

  it('spreads the ceiling by ± the policy spread', () => {
    expect(backoffDelay(PENDING_DECISION, 0, () => 0)).toBe(1_800);
    expect(backoffDelay(PENDING_DECISION, 0, () => 0.5)).toBe(2_000);
    expect(backoffDelay(PENDING_DECISION, 1, () => 1)).toBe(4_400);
    expect(backoffDelay({ ...POLL, baseMs: 10_000 }, 0, () => 1)).toBe(10_100);
  });

  it('treats a negative retry index as the first retry', () => {
    expect(backoffDelay(LEDGER, -1)).toBe(1_000);
  });
});
