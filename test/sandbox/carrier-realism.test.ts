import { afterEach, describe, expect, it } from 'vitest';
import { carrierSteps } from '../../src/sandbox/carrier-sim';
import type { Sandbox } from '../../src/sandbox/server';
import { book, createShipment, started, type Api } from '../support/sandbox-api';

let sandbox: Sandbox | null = null;
afterEach(async () => {
  await sandbox?.close();
  sandbox = null;
});

const MALMO = {
  name: 'Café Lindqvist',
  address: { address_line_1: 'Stortorget 3', postal_code: '21122', city: 'Malmö', country_code: 'SE' },
  contact: { name: 'Lina Lindqvist', email: 'lina@example.com', phone: '+46401234567' },
};
/** What the shipment's status must read for a given latest tracking event. */
const STATUS_FOR: Record<string, string> = {
  ORDERED: 'BOOKED',
  PICKUP: 'IN_TRANSIT',
  IN_TRANSIT: 'IN_TRANSIT',
  DELAYED: 'IN_TRANSIT',
  OUT_FOR_DELIVERY: 'IN_TRANSIT',
  DELIVERED: 'DELIVERED',
};

async function bookToMalmo(api: Api): Promise<string> {
  const id = await createShipment(api, { to: MALMO });
  const booked = await book(api, id, { required_addons: { without_pickup: true } });
  expect(booked.status).toBe(200);
  return id;
}

describe('simulated carrier: a journey a packer would believe', () => {
  it("events follow the booking in order, never ahead of the clock, from the sender's city to the receiver's", async () => {
    const s = await started({ simulateCarrier: true, carrierStepMs: 15, seed: 3 });
    sandbox = s.sandbox;
    const id = await bookToMalmo(s.api);
    let events: any[] = [];
    while (!events.some((e) => e.status === 'DELIVERED')) {
      await new Promise((r) => setTimeout(r, 10));
      events = (await s.api.call('GET', `/shipments/${id}/tracking`)).body;
      // The answer is read now: an event dated between asking and reading is not ahead of the clock.
      const readAt = Date.now();
      // A compressed journey that has already happened: no event is dated after the moment it is read.
      for (const e of events) expect(Date.parse(e.created_at), `${e.status} at ${e.created_at}`).toBeLessThanOrEqual(readAt);
    }
    const shipment = (await s.api.call('GET', `/shipments/${id}`)).body;
    expect(Date.parse(events[0].created_at)).toBe(Date.parse(shipment.booked_at));
    for (let i = 1; i < events.length; i++) {
      // In order (the nanosecond ISO times sort as text), each after the one before.
      expect(events[i].created_at > events[i - 1].created_at, `${events[i - 1].status} -> ${events[i].status}`).toBe(true);
    }
    expect(events[1]).toMatchObject({ status: 'PICKUP', location_name: 'Göteborg' }); // the team's home address
    expect(events.at(-1)).toMatchObject({ status: 'DELIVERED', location_name: 'Malmö' });
    expect(events.find((e) => e.status === 'OUT_FOR_DELIVERY')).toMatchObject({ location_name: 'Malmö' });
    expect(events.every((e) => !/Stockholm/.test(e.location_name))).toBe(true);
  });

  it('the shipment status agrees with its latest event at every step; lists filter by it without reordering', async () => {
    const s = await started({ simulateCarrier: true, carrierStepMs: 150, seed: 5 });
    sandbox = s.sandbox;
    const id = await bookToMalmo(s.api);
    // A booking without carrier progress (seeded history), more recently updated than `id`.
    s.sandbox.seedBooked(1);
    const other = (await s.api.call('GET', '/shipments?reference_id=SEED-2')).body[0].id as string;
    const seen = new Set<string>();
    for (;;) {
      const shipment = (await s.api.call('GET', `/shipments/${id}`)).body;
      expect(shipment.status, `latest event ${shipment.tracking_status.status}`).toBe(STATUS_FOR[shipment.tracking_status.status]);
      seen.add(shipment.status);
      if (shipment.status === 'DELIVERED') break;
      await new Promise((r) => setTimeout(r, 5));
    }
    expect([...seen]).toEqual(['BOOKED', 'IN_TRANSIT', 'DELIVERED']);
    const ids = async (query: string): Promise<string[]> => (await s.api.call('GET', `/shipments${query}`)).body.map((x: any) => x.id);
    expect(await ids('?status=DELIVERED')).toEqual([id]);
    expect(await ids('?status=booked')).toEqual([other]);
    // Carrier events are not updates: the order by updated_at stays that of the bookings.
    expect(await ids('')).toEqual([other, id]);
    // Still booked for every rule: printable, cancelable, not changeable.
    expect((await s.api.call('PUT', `/shipments/${id}`, { reference_id: 'X' })).body.code).toBe('shipment_booked');
    const print = await s.api.call('POST', '/shipments/print', { shipment_ids: [id], document_type: 'label', output_format: 'url' });
    expect(print.status).toBe(200);
  });

  it('delays land between the origin terminal and delivery', () => {
    let seed = 1;
    const random = (): number => (seed = (seed * 16807) % 2147483647) / 2147483647;
    let delayed = 0;
    for (let i = 0; i < 300; i++) {
      const steps = carrierSteps(random);
      expect(steps.slice(0, 2).map((step) => step.event)).toEqual(['PICKUP', 'IN_TRANSIT']);
      expect(steps.at(-2)!.event).toBe('OUT_FOR_DELIVERY');
      expect(steps.at(-1)).toMatchObject({ event: 'DELIVERED', place: 'receiver', shipmentStatus: 'DELIVERED' });
      if (steps.some((step) => step.event === 'DELAYED')) delayed += 1;
    }
    expect(delayed).toBeGreaterThan(20);
    expect(delayed).toBeLessThan(100);
  });
});
