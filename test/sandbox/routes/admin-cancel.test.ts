import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/server';
import { Api, createShipment, started } from '../../support/sandbox-api';
import { Receiver } from '../webhooks/receiver';

let sandbox: Sandbox;
let api: Api;
let receiver: Receiver;
beforeAll(async () => {
  ({ sandbox, api } = await started());
  receiver = await Receiver.start();
  sandbox.setWebhooks([{ url: receiver.url, secret: 'whsec_admin_cancel_0123456789' }]);
});
afterAll(async () => {
  await sandbox.close();
  await receiver.close();
});

const events = (): Array<{ event_type?: string; type?: string; shipment_id: string; data: Record<string, unknown> }> =>
  receiver.received.map((r) => JSON.parse(r.raw.toString('utf8')));

describe('POST /admin/cancel (as the web application cancels)', () => {
  it('cancels a booked shipment like POST /shipments/cancel; with tracking_event it also sends TRACKING_EVENT CANCELED', async () => {
    const plain = await sandbox.bookShipment({ source: 'APP' });
    const announced = await sandbox.bookShipment({ source: 'APP' });
    await receiver.waitFor(2);

    const first = await api.call('POST', `${sandbox.origin}/admin/cancel`, { shipment_id: plain.shipmentId });
    expect(first).toMatchObject({ status: 200, body: { shipment_id: plain.shipmentId, status: 'CANCELED' } });
    expect((await api.call('GET', `/shipments/${plain.shipmentId}`)).body.status).toBe('CANCELED');
    const second = await api.call('POST', `${sandbox.origin}/admin/cancel`, { shipment_id: announced.shipmentId, tracking_event: true });
    expect(second.status).toBe(200);
    await receiver.waitFor(3);

    const tracking = events().filter((e) => JSON.stringify(e).includes('TRACKING_EVENT'));
    expect(tracking).toHaveLength(1);
    expect(tracking[0]).toMatchObject({
      shipment_id: announced.shipmentId,
      data: { event: 'CANCELED', tracking_id: announced.trackingId },
    });
    // Not part of the shipment's tracking (README 34): canceled before any carrier event, it has none.
    expect((await api.call('GET', `/shipments/${announced.shipmentId}/tracking`)).body).toEqual([]);
  });

  it('refuses what is not booked with 409 shipment_not_booked, as the API does', async () => {
    const draft = await createShipment(api);
    const answer = await api.call('POST', `${sandbox.origin}/admin/cancel`, { shipment_id: draft });
    expect(answer).toMatchObject({ status: 409, body: { code: 'shipment_not_booked' } });
  });
});
