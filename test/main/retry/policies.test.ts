import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../../src/main/retry/backoff';
import { SCALE_REOPEN, SITE_CONSUMER, SITE_JOIN, SITE_SETUP, SPOOLER_FOLLOW } from '../../../src/main/retry/policies';
import { ReopenBackoff } from '../../../src/main/devices/reopen-backoff';

const waits = (policy: Parameters<typeof backoffDelay>[0], from: number, count: number): number[] =>
  Array.from({ length: count }, (_, i) => backoffDelay(policy, from + i));

/** The waits each place had before it took its policy from retry/: the same, retry for retry. */
describe('named backoff policies', () => {
  it('SITE_JOIN: a station joins again after 2 s doubling to 60 s', () => {
    expect(waits(SITE_JOIN, 0, 7)).toEqual([2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000]);
  });

  it('SITE_CONSUMER: the bookings stream is read again after 1 s doubling to 10 s (failures less one)', () => {
    expect(waits(SITE_CONSUMER, 0, 7)).toEqual([1_000, 2_000, 4_000, 8_000, 10_000, 10_000, 10_000]);
  });

  it('SITE_SETUP: the setup is tried again every second', () => {
    expect(waits(SITE_SETUP, 0, 4)).toEqual([1_000, 1_000, 1_000, 1_000]);
  });

  it('SPOOLER_FOLLOW: the interval doubled per still tick up to the longest, with the follower bounds', () => {
    expect(waits({ ...SPOOLER_FOLLOW, baseMs: 500, maxMs: 5_000 }, 0, 6)).toEqual([500, 1_000, 2_000, 4_000, 5_000, 5_000]);
  });

  it('SCALE_REOPEN: a scale port opened again after 250 ms doubling to 2 s, starting over after a reset', () => {
    const backoff = new ReopenBackoff(SCALE_REOPEN.baseMs, SCALE_REOPEN.maxMs);
    expect(Array.from({ length: 6 }, () => backoff.next())).toEqual([250, 500, 1_000, 2_000, 2_000, 2_000]);
    backoff.reset();
    expect(backoff.next()).toBe(250);
  });
});
