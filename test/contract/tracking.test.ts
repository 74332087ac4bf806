import { describe, expect, it } from 'vitest';
import { createAndBook, useHarness } from '../support/contract-harness';

const h = useHarness({ simulateCarrier: true, carrierStepMs: 60 });

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 5_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((r) => setTimeout(r, 30));
  }
}

describe('tracking with simulated carrier events', () => {
  it('a booked shipment moves from ORDERED through carrier events; the shipment’s tracking_status follows', async () => {
    const { id } = await createAndBook(h.client);
    const events = await waitFor(
      () => h.client.tracking(id),
      (list) => list.some((e) => e.status === 'DELIVERED'),
    );
    expect(events[0]!.status).toBe('ORDERED');
    expect(events.map((e) => e.status)).toContain('IN_TRANSIT');
    expect(events.at(-1)!.status).toBe('DELIVERED');
    const times = events.map((e) => Date.parse(e.created_at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect((await h.client.getShipment(id)).tracking_status?.status).toBe('DELIVERED');
  });

  it('a shipment the carrier has picked up cannot be canceled: 409 naming why, tracking and status kept', async () => {
    const { id } = await createAndBook(h.client);
    const before = await waitFor(
      () => h.client.tracking(id),
      (list) => list.length > 1,
    );
    const refused = await h.client.cancel({ shipment_id: id }).then(
      () => null,
      (error: unknown) => error as { code: string; message: string },
    );
    expect(refused?.code).toBe('SERVICE_CONFLICT');
    expect(refused?.message).toMatch(/already with the carrier/);
    expect((await h.client.tracking(id)).length).toBeGreaterThanOrEqual(before.length);
    expect((await h.client.getShipment(id)).status).not.toBe('CANCELED');
  });
});
