/**
 * Every parcel of a multi-parcel shipment carries its own tracking number
 * (`packages[].tracking_ids`): a scan of any of them finds the shipment, whether the
 * station learnt the booking by webhook (no packages in it) or by a poll (full record).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Api } from '../../support/sandbox-api';
import { startStation, waitFor, type Station } from '../../support/agent-harness';

let station: Station;
beforeEach(async () => {
  station = await startStation();
});
afterEach(async () => {
  await station.close();
});

async function parcelNumbers(shipmentId: string): Promise<string[]> {
  const record = (await new Api(station.sandbox).call('GET', `/shipments/${shipmentId}`)).body;
  return record.packages.flatMap((p: { tracking_ids: string[] }) => p.tracking_ids);
}

describe('scanning any parcel of a multi-parcel shipment', () => {
  it('finds a webhook booking by its third parcel, then resolves it from the local index', async () => {
    const { agent } = await station.start();
    const booked = await station.sandbox.bookShipment({ reference_id: 'THREE-BOXES', packages: 3 });
    await waitFor(async () => (await station.prints()).length === 1, 'the label');
    const numbers = await parcelNumbers(booked.shipmentId);
    expect(numbers).toHaveLength(3);
    expect(numbers[0]).toBe(booked.trackingId);

    const result = await agent.api.lookup({ scan: ` ${numbers[2]!.toLowerCase()}\r` });
    expect(result.kind).toBe('found');
    if (result.kind !== 'found') return;
    expect(result.shipment.id).toBe(booked.shipmentId);
    expect(result.matchedBy).toBe('tracking_id');

    // Indexed now: the second parcel resolves without asking the service for the record again.
    const gets = () =>
      station.sandbox.requestLog().filter((r) => r.method === 'GET' && r.url.endsWith(`/shipments/${booked.shipmentId}`)).length;
    const before = gets();
    expect(agent.ledger.findShipmentIdByScan(numbers[1]!)).toBe(booked.shipmentId);
    expect((await agent.api.lookup({ scan: numbers[1]! })).kind).toBe('found');
    expect(gets() - before).toBe(1); // the lookup's own GET of the found shipment, no search
  });

  it('indexes every parcel number from a poll, so a scan of parcel 3 resolves locally', async () => {
    const { agent } = await station.start({ pollIntervalSeconds: 1, webhookPort: undefined });
    await agent.poller!.pollOnce();
    const booked = await station.sandbox.bookShipment({ reference_id: 'POLLED-BOXES', packages: 3 });
    await agent.poller!.pollOnce();
    const numbers = await parcelNumbers(booked.shipmentId);
    expect(agent.ledger.findShipmentIdByScan(numbers[2]!)).toBe(booked.shipmentId);
    const result = await agent.api.lookup({ scan: numbers[2]! });
    expect(result.kind === 'found' && result.shipment.id).toBe(booked.shipmentId);
  });
});
