import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labelContents } from '../../../src/sandbox/documents/render';
import type { DocumentShipment } from '../../../src/sandbox/documents/types';
import type { Sandbox } from '../../../src/sandbox/server';
import { book, createShipment, started, type Api } from '../../support/sandbox-api';
import { Poppler } from '../../support/poppler';

let poppler: Poppler;
let sandbox: Sandbox;
let api: Api;
beforeAll(async () => {
  poppler = await Poppler.create();
  ({ sandbox, api } = await started());
});
afterAll(async () => {
  await poppler.dispose();
  await sandbox.close();
});

const BOX = { weight_kg: 2, depth_cm: 30, height_cm: 20, width_cm: 20, description: 'Shoes' };

async function bookedWith(packages: unknown[]): Promise<any> {
  const id = await createShipment(api, { packages });
  expect((await book(api, id, { required_addons: { without_pickup: true } })).status).toBe(200);
  return (await api.call('GET', `/shipments/${id}`)).body;
}

async function labelFile(shipmentId: string): Promise<string> {
  const print = await api.call('POST', '/shipments/print', {
    shipment_ids: [shipmentId],
    document_type: 'label',
    label_layout: 'printer',
    output_format: 'url',
  });
  expect(print.status).toBe(200);
  return poppler.save(new Uint8Array(await (await fetch(print.body.output_url)).arrayBuffer()));
}

describe('labels: one tracking number per parcel, and a date', () => {
  it("gives every parcel its own number; the first is the shipment's main tracking id", async () => {
    const shipment = await bookedWith([
      { ...BOX, quantity: 2 },
      { ...BOX, quantity: 1, description: 'Bag' },
    ]);
    expect(shipment.packages.map((p: any) => p.tracking_ids.length)).toEqual([2, 1]);
    const numbers: string[] = shipment.packages.flatMap((p: any) => p.tracking_ids);
    expect(new Set(numbers).size).toBe(3);
    expect(numbers[0]).toBe(shipment.tracking_id);
    // The carrier's own number format, like the main id: its prefix and twelve digits.
    const prefix = shipment.tracking_id.slice(0, -12);
    for (const n of numbers) expect(n).toMatch(new RegExp(`^${prefix}\\d{12}$`));
    // The request fields stay as stored next to the extra one.
    expect(shipment.packages[1]).toMatchObject({ ...BOX, quantity: 1, description: 'Bag' });
  });

  it("prints each parcel's own number as its barcode, which a scanner reads back", async () => {
    const shipment = await bookedWith([
      { ...BOX, quantity: 2 },
      { ...BOX, quantity: 1 },
    ]);
    const numbers: string[] = shipment.packages.flatMap((p: any) => p.tracking_ids);
    const file = await labelFile(shipment.id);
    expect((await poppler.info(file)).pages).toBe(3);
    for (const [index, number] of numbers.entries()) {
      expect(await poppler.barcodes(file, index + 1)).toEqual([`CODE-128:${number}`]);
      const text = await poppler.text(file, index + 1);
      expect(text).toContain(`Package ${index + 1} of 3`);
      expect(text).toContain(number);
      expect(text).toContain(`Date: ${shipment.booked_at.slice(0, 10)}`);
      // Parcels other than the first also name the shipment's main tracking id.
      expect(text.includes(`Shipment tracking id: ${shipment.tracking_id}`)).toBe(index > 0);
    }
  });

  it('a one-parcel shipment carries the main tracking id, as before', async () => {
    const shipment = await bookedWith([{ ...BOX, quantity: 1 }]);
    const file = await labelFile(shipment.id);
    expect(await poppler.barcodes(file, 1)).toEqual([`CODE-128:${shipment.tracking_id}`]);
  });

  it("the label model hands each unit its parcel number, falling back to the shipment's", () => {
    const base = {
      id: 's',
      carrierName: 'C',
      productName: 'P',
      trackingId: 'MAIN',
      referenceId: null,
      senderReference: null,
      receiverReference: null,
      bookedAt: '2026-11-24T08:00:00Z',
    };
    const party = { name: 'X', contactName: null, addressLines: [], postalCode: null, city: null, countryCode: null };
    const shipment: DocumentShipment = {
      ...base,
      sender: party,
      receiver: party,
      packages: [
        { description: 'a', weightKg: 1, quantity: 2, trackingIds: ['MAIN', 'P2'] },
        { description: 'b', weightKg: 1, quantity: 2, trackingIds: ['P3'] },
      ],
    };
    expect(labelContents([shipment]).map((l) => [l.unit, l.trackingId])).toEqual([
      [1, 'MAIN'],
      [2, 'P2'],
      [3, 'P3'],
      [4, 'MAIN'],
    ]);
  });
});
