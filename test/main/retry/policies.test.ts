import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../../src/main/retry/backoff';
import { SCALE_REOPEN, SITE_CONSUMER, SITE_JOIN, SITE_SETUP, SPOOLER_FOLLOW } from '../../../src/main/retry/policies';
import { ReopenBackoff } from '../../../src/main/devices/reopen-backoff';

const waits = (policy: Parameters<typeof backoffDelay>[0], from: number, count: number): number[] =>
  Array.from({ length: count }, (_, i) => backoffDelay(policy, from + i));

/** The waits each place had before it took its policy from retry/: the same, retry for retry (SITE_JOIN's since spread by jitter). */
describe('named backoff policies', () => {
  it('SITE_JOIN: a station joins again after a random wait up to 2 s doubling to 60 s', () => {
    const ceilings = [2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000];
    const waitsWith = (random: () => number) => ceilings.map((_, retry) => backoffDelay(SITE_JOIN, retry, random));
    // The bounds, retry by retry: from nothing up to (never reaching) the ceiling.
    expect(waitsWith(() => 0)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(waitsWith(() => 0.5)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
    expect(waitsWith(() => 0.999_999)).toEqual(ceilings.map((ceiling) => ceiling - 1));
    for (let retry = 0; retry < ceilings.length; retry++) {
      for (let i = 0; i < 200; i++) {
        const wait = backoffDelay(SITE_JOIN, retry);
        expect(wait).toBeGreaterThanOrEqual(0);
        expect(wait).toBeLessThan(ceilings[retry]!);
        expect(Number.isInteger(wait)).toBe(true);
      }
    }
  });

  it('SITE_JOIN: the stations of a site that failed their joins together come back spread out, not in step', () => {
    // 50 stations after a nats-server restart, each with its own random source: their first
    // and their fifth retry fall across the whole of the ceiling, not on one instant.
    for (const [retry, ceiling] of [
      [0, 2_000],
      [4, 32_000],
    ] as const) {
      const joins = Array.from({ length: 50 }, () => backoffDelay(SITE_JOIN, retry));
      expect(new Set(joins).size).toBeGreaterThan(40);
      expect(Math.max(...joins) - Math.min(...joins)).toBeGreaterThan(ceiling / 2);
    }
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
