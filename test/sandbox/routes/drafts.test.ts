import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/server';
import { PICKUP, started, type Api } from '../../support/sandbox-api';

let sandbox: Sandbox | null = null;
afterEach(async () => {
  await sandbox?.close();
  sandbox = null;
});

async function open(): Promise<Api> {
  const s = await started();
  sandbox = s.sandbox;
  return s.api;
}

const draft = (api: Api, body: Record<string, unknown>) => api.call('POST', `${api.sandbox.origin}/admin/drafts`, body);

describe('POST /admin/drafts: unbooked shipments with chosen gaps', () => {
  it('creates a PENDING shipment, found by its reference, missing what was left out', async () => {
    const api = await open();
    const created = await draft(api, { reference_id: 'DRAFT-0003', gaps: ['weight'], packages: 2 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      referenceId: 'DRAFT-0003',
      gaps: ['weight'],
      missing: { 'packages[0].weight_kg': ['is required'], 'packages[1].weight_kg': ['is required'] },
    });
    expect(Object.keys(created.body.missing)).toHaveLength(2);
    // The scan's service lookup: GET /shipments?reference_id=...
    const found = await api.call('GET', '/shipments?reference_id=DRAFT-0003');
    expect(found.body.map((s: any) => [s.id, s.status, s.tracking_id, s.booked_at])).toEqual([
      [created.body.shipmentId, 'PENDING', null, null],
    ]);
    expect(found.body[0].packages).toHaveLength(2);
    // Rates say what is missing, as for any incomplete shipment (README 12).
    const rates = await api.call('POST', '/shipments/rates', { shipment_id: created.body.shipmentId, requested_pickup_time: PICKUP });
    expect(rates.status).toBe(422);
    expect(rates.body.errors).toEqual(created.body.missing);
  });

  it('each gap leaves out its field; without gaps a draft is bookable as it stands', async () => {
    const api = await open();
    const get = async (gaps: string[]): Promise<any> => {
      const created = (await draft(api, { gaps })).body;
      return { created, shipment: (await api.call('GET', `/shipments/${created.shipmentId}`)).body };
    };
    const complete = await get([]);
    expect(complete.created.missing).toEqual({});
    expect(complete.shipment.to.contact.phone).toBeTruthy();
    expect((await get(['dimensions'])).created.missing).toEqual({
      'packages[0].depth_cm': ['is required'],
      'packages[0].height_cm': ['is required'],
      'packages[0].width_cm': ['is required'],
    });
    expect((await get(['packages'])).created.missing).toEqual({ packages: ['is required'] });
    expect((await get(['receiver_contact'])).created.missing).toEqual({ 'to.contact': ['is required'] });
    // A phone is not needed for bookability (README 10: any contact), but it is gone.
    const phoneless = await get(['receiver_phone']);
    expect(phoneless.created.missing).toEqual({});
    expect(phoneless.shipment.to.contact).toEqual({ name: 'Receiving desk', email: 'goods@example.com' });
    // Default references count per sandbox.
    expect([complete, phoneless].map((d) => d.created.referenceId)).toEqual(['DRAFT-0001', 'DRAFT-0005']);
  });

  it('a non-EU draft carries complete customs data unless customs is the gap, and then needs a customs invoice', async () => {
    const api = await open();
    const needs = async (gaps: string[]): Promise<string[]> => {
      const { shipmentId } = (await draft(api, { destination: 'non_eu', gaps })).body;
      const rates = await api.call('POST', '/shipments/rates', {
        shipment_id: shipmentId,
        requested_pickup_time: PICKUP,
        included_non_eu_rates: true,
      });
      expect(rates.status).toBe(200);
      return [...new Set((rates.body.rates as any[]).flatMap((r) => r.required_documents ?? []))];
    };
    expect(await needs([])).not.toContain('customsinvoice');
    expect(await needs(['customs'])).toContain('customsinvoice');
  });

  it('a finished draft books like any shipment', async () => {
    const api = await open();
    const { shipmentId } = (await draft(api, { gaps: ['weight'] })).body;
    const stored = (await api.call('GET', `/shipments/${shipmentId}`)).body;
    const put = await api.call('PUT', `/shipments/${shipmentId}`, {
      packages: [{ ...stored.packages[0], weight_kg: 2.4 }],
      enable_bookable_validation: true,
    });
    expect(put.status).toBe(200);
    const rates = await api.call('POST', '/shipments/rates', { shipment_id: shipmentId, requested_pickup_time: PICKUP });
    const booked = await api.call('POST', '/shipments/book', { booking_token: rates.body.rates[0].booking_token });
    expect(booked.status).toBe(200);
    expect((await api.call('GET', `/shipments/${shipmentId}`)).body.status).toBe('BOOKED');
  });

  it('refuses an unknown gap, naming the field; Sandbox.createDraft does the same as the route', async () => {
    const api = await open();
    const bad = await draft(api, { gaps: ['colour'] });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(['gaps[0]']);
    const made = api.sandbox.createDraft({ reference_id: 'DRAFT-X', gaps: ['receiver_contact'] });
    expect(made.missing).toEqual({ 'to.contact': ['is required'] });
    expect((await api.call('GET', '/shipments?reference_id=DRAFT-X')).body[0].status).toBe('PENDING');
  });
});
