/**
 * The service's clock as its answers date it (the Date header): what a fresh station's first
 * start is measured on. Against the sandbox with its clock moved, and the estimate's rules.
 */
import { describe, expect, it } from 'vitest';
import { ServiceConnection } from '../../../src/main/api/service-connection';
import { ServiceClock } from '../../../src/main/api/service-clock';
import { startSandbox } from '../../../src/sandbox/server';

describe('ServiceClock', () => {
  it.each([
    ['ahead of', 90_000],
    ['behind', -150_000],
  ])("reads a service clock %s this machine's from its answers, to the second and never late", async (_how, aheadMs) => {
    const sandbox = await startSandbox({ port: 0, apiKey: 'clock-test-key-0001', now: () => new Date(Date.now() + aheadMs) });
    const connection = new ServiceConnection({ apiUrl: sandbox.baseUrl, apiKey: 'clock-test-key-0001', client: { retries: 0 } });
    try {
      expect(connection.clock.known).toBe(false);
      expect(Math.abs(connection.clock.now() - Date.now())).toBeLessThan(50);
      await connection.current.status();
      expect(connection.clock.known).toBe(true);
      const serviceNow = Date.now() + aheadMs;
      const read = connection.clock.now();
      expect(read).toBeLessThanOrEqual(serviceNow);
      expect(serviceNow - read).toBeLessThan(1_500);
    } finally {
      await connection.close();
      await sandbox.close();
    }
  });

  it('keeps the latest bound, ignores a missing or unreadable Date, and follows a clock set back', () => {
    let local = Date.parse('2026-11-28T10:00:00.700Z');
    const clock = new ServiceClock(() => local);
    clock.observe(null);
    clock.observe('not a date');
    expect(clock.known).toBe(false);
    expect(clock.now()).toBe(local);
    // Dated 10:00:05 (whole seconds), arrived at 10:00:00.700: the service is at least 4.3 s ahead.
    clock.observe('Sat, 28 Nov 2026 10:00:05 GMT');
    expect(clock.now() - local).toBe(4_300);
    // A later answer dated later within its second raises the bound; an earlier-looking one does not lower it.
    local += 1_000;
    clock.observe('Sat, 28 Nov 2026 10:00:06 GMT', local - 500);
    expect(clock.now() - local).toBe(4_800);
    clock.observe('Sat, 28 Nov 2026 10:00:05 GMT');
    expect(clock.now() - local).toBe(4_800);
    // The service's clock set back by minutes: followed, not held at the old bound.
    clock.observe('Sat, 28 Nov 2026 09:55:00 GMT');
    expect(clock.now()).toBe(Date.parse('2026-11-28T09:55:00Z'));
  });
});
