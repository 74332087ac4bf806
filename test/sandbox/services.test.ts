import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server';
import { createShipment, rates, started } from '../support/sandbox-api';

interface Received {
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: any;
}

let receiver: Server | null = null;
let sandbox: Sandbox | null = null;
afterEach(async () => {
  await sandbox?.close();
  sandbox = null;
  await new Promise<void>((r) => (receiver ? receiver.close(() => r()) : r()));
  receiver = null;
});

async function listen(): Promise<{ url: string; received: Received[]; waitFor: (n: number) => Promise<void> }> {
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.writeHead(204).end();
      waiters.splice(0).forEach((w) => w());
    });
  });
  await new Promise<void>((r) => receiver!.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const waitFor = async (n: number): Promise<void> => {
    while (received.length < n) await new Promise<void>((r) => waiters.push(r));
  };
  return { url, received, waitFor };
}

describe('events', () => {
  it('booking through the API sends SHIPMENT_BOOKED with source API in the spec envelope', async () => {
    const hook = await listen();
    const s = await started({ webhooks: [{ url: hook.url, secret: 'whsec' }] });
    sandbox = s.sandbox;
    const id = await createShipment(s.api, { reference_id: 'ORD-7', invoice_reference: 'INV-7', sender_reference: 'CUST-7' });
    const rate = (await rates(s.api, id)).body.rates.find((r: any) => r.carrier_product_code === 'mypack_home');
    const booked = await s.api.call('POST', '/shipments/book', { booking_token: rate.booking_token });
    await hook.waitFor(1);
    const event = hook.received[0]!;
    expect(event.headers['service-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const shipment = (await s.api.call('GET', `/shipments/${id}`)).body;
    expect(event.body).toMatchObject({
      message_id: expect.any(String),
      type: 'SHIPMENT_BOOKED',
      shipment_id: id,
      data: {
        carrier: 'postnord',
        product: 'mypack_home',
        source: 'API',
        agreement: 'SERVICE',
        tracking_id: booked.body.main_tracking_id,
        reference_id: 'ORD-7',
        invoice_reference: 'INV-7',
        customer_reference: 'CUST-7',
        booked_at: shipment.booked_at,
      },
    });
  });

  it('admin booking is source APP and only reaches endpoints subscribed to SHIPMENT_BOOKED_APP', async () => {
    const app = await listen();
    const s = await started();
    sandbox = s.sandbox;
    const apiOnly = createServer((_req, res) => res.writeHead(500).end());
    await new Promise<void>((r) => apiOnly.listen(0, '127.0.0.1', () => r()));
    let apiHits = 0;
    apiOnly.on('request', () => apiHits++);
    try {
      const set = await s.api.call('POST', `${s.sandbox.origin}/admin/webhooks`, [
        { url: app.url, secret: 'a', subscriptions: ['SHIPMENT_BOOKED_APP'] },
        { url: `http://127.0.0.1:${(apiOnly.address() as AddressInfo).port}/`, secret: 'b', subscriptions: ['SHIPMENT_BOOKED_API'] },
      ]);
      expect(set.status).toBe(200);
      const res = await s.api.call('POST', `${s.sandbox.origin}/admin/book`, { reference_id: 'APP-1', packages: 2 });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ shipmentId: expect.any(String), trackingId: expect.any(String), referenceId: 'APP-1' });
      await app.waitFor(1);
      expect(app.received[0]!.body.data).toMatchObject({ source: 'APP', reference_id: 'APP-1', tracking_id: res.body.trackingId });
      const shipment = (await s.api.call('GET', `/shipments/${res.body.shipmentId}`)).body;
      expect(shipment).toMatchObject({ status: 'BOOKED', reference_id: 'APP-1' });
      expect(shipment.packages).toHaveLength(2);
      expect(apiHits).toBe(0);
    } finally {
      await new Promise<void>((r) => apiOnly.close(() => r()));
    }
  });

  it('with simulateCarrier, shipments move through carrier events, each a TRACKING_EVENT webhook', async () => {
    const hook = await listen();
    const s = await started({ webhooks: [{ url: hook.url, secret: 'x' }], simulateCarrier: true, carrierStepMs: 20, seed: 1 });
    sandbox = s.sandbox;
    const { shipmentId, trackingId } = await s.sandbox.bookShipment({ source: 'API' });
    const expected = 1 + 4; // SHIPMENT_BOOKED, then PICKUP .. DELIVERED (perhaps one DELAYED more)
    await hook.waitFor(expected);
    while (!hook.received.some((r) => r.body.data.event === 'DELIVERED')) await hook.waitFor(hook.received.length + 1);
    const tracking = hook.received.filter((r) => r.body.type === 'TRACKING_EVENT');
    const names = tracking.map((r) => r.body.data.event);
    expect(names.filter((n: string) => n !== 'DELAYED')).toEqual(['PICKUP', 'IN_TRANSIT', 'OUT_FOR_DELIVERY', 'DELIVERED']);
    for (const t of tracking) {
      expect(t.body.shipment_id).toBe(shipmentId);
      expect(t.body.data).toMatchObject({
        carrier: 'postnord',
        tracking_id: trackingId,
        reason: expect.any(String),
        location: expect.any(String),
      });
      expect(t.body.data.event_time).toMatch(/\.\d{9}Z$/);
    }
    const events = (await s.api.call('GET', `/shipments/${shipmentId}/tracking`)).body;
    expect(events.map((e: any) => e.status)).toEqual(['ORDERED', ...names]);
    expect((await s.api.call('GET', `/shipments/${shipmentId}`)).body.tracking_status.status).toBe('DELIVERED');
  });

  it('a shipment picked up by the carrier refuses cancel (409 shipment_with_carrier) and travels on', async () => {
    // Steps far enough apart that the cancel meets the shipment in transit; on a machine slow
    // enough to pass a step meanwhile it meets it delivered, which is refused the same way.
    const s = await started({ simulateCarrier: true, carrierStepMs: 250, seed: 2 });
    sandbox = s.sandbox;
    const { shipmentId } = await s.sandbox.bookShipment();
    while ((await s.api.call('GET', `/shipments/${shipmentId}/tracking`)).body.length < 2) await new Promise((r) => setTimeout(r, 10));
    const refused = await s.api.call('POST', '/shipments/cancel', { shipment_id: shipmentId });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('shipment_with_carrier');
    expect(refused.body.message).toMatch(/already with the carrier \((IN_TRANSIT|DELIVERED)\): it can no longer be canceled/);
    while ((await s.api.call('GET', `/shipments/${shipmentId}`)).body.status !== 'DELIVERED') await new Promise((r) => setTimeout(r, 10));
    const delivered = await s.api.call('POST', '/shipments/cancel', { shipment_id: shipmentId });
    expect(delivered.body.code).toBe('shipment_with_carrier');
  });

  it('a booked shipment still waiting for pickup can be canceled; its simulation stops', async () => {
    const s = await started({ simulateCarrier: true, carrierStepMs: 150, seed: 2 });
    sandbox = s.sandbox;
    const { shipmentId } = await s.sandbox.bookShipment();
    expect((await s.api.call('POST', '/shipments/cancel', { shipment_id: shipmentId })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 400));
    expect((await s.api.call('GET', `/shipments/${shipmentId}`)).body.status).toBe('CANCELED');
    expect((await s.api.call('GET', `/shipments/${shipmentId}/tracking`)).body).toEqual([]);
  });

  it('seedBooked fills a large history that pages newest first', async () => {
    const s = await started();
    sandbox = s.sandbox;
    // 20k keeps the machine free; bench/ seeds 100k.
    s.sandbox.seedBooked(20_000);
    const latest = await s.sandbox.bookShipment({ reference_id: 'LATEST' });
    const page = await s.api.call('GET', '/shipments?limit=50');
    expect(page.headers.get('x-total-count')).toBe('20001');
    expect(page.body).toHaveLength(50);
    expect(page.body[0].id).toBe(latest.shipmentId);
    expect(page.body[1].reference_id).toBe('SEED-20000');
    expect(page.body.every((x: any) => x.status === 'BOOKED')).toBe(true);
    const last = await s.api.call('GET', '/shipments?limit=10&offset=19996');
    expect(last.body.map((x: any) => x.reference_id)).toEqual(['SEED-5', 'SEED-4', 'SEED-3', 'SEED-2', 'SEED-1']);
    expect((await s.api.call('GET', '/shipments?reference_id=SEED-77')).body).toHaveLength(1);
  });
});
