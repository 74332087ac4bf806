import { afterEach, describe, expect, it } from 'vitest';
import { startStation, waitFor, type Station } from '../../support/agent-harness';

describe('log of a hostile booking', () => {
  let station: Station;
  afterEach(async () => station?.close());

  it('writes a few KB at most, on lines of its own, for a 3,000-character reference holding a newline', async () => {
    station = await startStation();
    const { agent } = await station.start();
    await agent.poller?.pollOnce();
    const reference = `EVIL\n2026-01-01T00:00:00.000Z job 1 completed label/4x6 shipment shp_fake${'z'.repeat(3_000)}`;
    const booked = await station.sandbox.bookShipment({ source: 'API', reference_id: reference });
    await waitFor(async () => (await station.prints()).length === 1, 'the label', 30_000);
    await agent.pipeline.idle();
    const mine = station.lines.filter((l) => l.includes(booked.shipmentId) || l.includes('EVIL'));
    expect(mine.length).toBeGreaterThan(0);
    expect(station.lines.some((l) => l.startsWith('2026-01-01T00:00:00.000Z job 1'))).toBe(false);
    expect(mine.every((l) => !l.includes('\n'))).toBe(true);
    expect(mine.join('\n').length).toBeLessThan(8 * 1024);
  }, 60_000);
});
