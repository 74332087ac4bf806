import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/server';
import { Api, COMPLETE_CUSTOMS, PARCEL, SE_RECEIVER, createShipment, pdfForm, rates, started, upload } from '../../support/sandbox-api';

let sandbox: Sandbox;
let api: Api;
let now = new Date('2026-11-20T08:00:00.000Z');
let createdPending = '';
beforeAll(async () => {
  ({ sandbox, api } = await started({ now: () => now, adrApproved: true }));
  createdPending = await createShipment(api);
});
afterAll(async () => sandbox.close());

const NO_RECEIVER = { ...SE_RECEIVER, address: { ...SE_RECEIVER.address, country_code: 'NO', postal_code: '0150', city: 'Oslo' } };

async function tokenFor(shipmentId: string, product: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await rates(api, shipmentId, extra);
  const rate = res.body.rates?.find((r: any) => r.carrier_product_code === product);
  if (!rate) throw new Error(`no ${product} rate: ${JSON.stringify(res.body)}`);
  return rate.booking_token;
}

const bookWith = (token: string, extra: Record<string, unknown> = {}) =>
  api.call('POST', '/shipments/book', { booking_token: token, ...extra });

describe('POST /shipments/book', () => {
  it('books: {shipment_id, main_tracking_id}; the shipment then shows carrier, product, tracking and documents', async () => {
    const id = await createShipment(api, { reference_id: 'B-1' });
    const res = await bookWith(await tokenFor(id, 'mypack_home'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ shipment_id: id, main_tracking_id: expect.any(String) });
    const got = (await api.call('GET', `/shipments/${id}`)).body;
    expect(got).toMatchObject({
      status: 'BOOKED',
      carrier_name: 'PostNord',
      product_name: 'MyPack Home',
      tracking_id: res.body.main_tracking_id,
      available_documents_types: ['label', 'waybill'],
      booked_at: now.toISOString(),
      expected_price: expect.stringMatching(/^\d+\.\d{2} SEK$/),
    });
    expect(got.tracking_status).toMatchObject({ status: 'ORDERED' });
    expect(got.tracking_status.created_at).toMatch(/^2026-11-20T08:00:00\.000\d{6}Z$/);
  });

  it('lists customsinvoice for non-EU and manifest where the product needs one', async () => {
    const id = await createShipment(api, { to: NO_RECEIVER, customs_information: COMPLETE_CUSTOMS });
    const token = await tokenFor(id, 'system', { included_non_eu_rates: true });
    expect((await upload(api, id, 'abd', pdfForm())).status).toBe(204);
    expect((await bookWith(token)).status).toBe(200);
    const got = (await api.call('GET', `/shipments/${id}`)).body;
    expect(got.available_documents_types).toEqual(['label', 'waybill', 'customsinvoice', 'manifest', 'abd']);
  });

  it('rejects an unknown token (422) and a token older than 30 minutes (422); a token is single-use', async () => {
    const id = await createShipment(api);
    expect((await bookWith('no-such-token')).body.code).toBe('booking_token_invalid');
    const token = await tokenFor(id, 'mypack_home');
    now = new Date(now.getTime() + 30 * 60_000);
    try {
      const expired = await bookWith(token);
      expect(expired.status).toBe(422);
      expect(expired.body.code).toBe('booking_token_expired');
    } finally {
      now = new Date(now.getTime() - 30 * 60_000);
    }
    const fresh = await tokenFor(id, 'mypack_home');
    now = new Date(now.getTime() + 29 * 60_000);
    try {
      expect((await bookWith(fresh)).status).toBe(200);
    } finally {
      now = new Date(now.getTime() - 29 * 60_000);
    }
    expect((await bookWith(fresh)).status).toBe(422);
  });

  it('a service-point rate needs a delivery_service_point_token from POST /locations/servicepoints', async () => {
    const id = await createShipment(api, { to: { ...SE_RECEIVER, is_private_individual: true } });
    const token = await tokenFor(id, 'mypack_collect', { include_service_point_rates: true });
    const missing = await bookWith(token);
    expect(missing.status).toBe(422);
    expect(missing.body.code).toBe('delivery_service_point_required');
    expect((await bookWith(token, { delivery_service_point_token: 'made-up' })).body.code).toBe('delivery_service_point_invalid');
    const points = await api.call('POST', '/locations/servicepoints', {
      address_line: 'Drottninggatan 10',
      postal_code: '11151',
      city: 'Stockholm',
      country_code: 'SE',
    });
    const point = points.body.locations.find((l: any) => l.carrier === 'postnord');
    const ok = await bookWith(token, { delivery_service_point_token: point.service_point_token, delivery_instructions: 'Door code 1234' });
    expect(ok.status).toBe(200);
  });

  it('requires the documents in required_documents to be uploaded first', async () => {
    const id = await createShipment(api, { to: NO_RECEIVER });
    const token = await tokenFor(id, 'business_parcel', { included_non_eu_rates: true });
    const missing = await bookWith(token);
    expect(missing.status).toBe(422);
    expect(missing.body.code).toBe('documents_missing');
    expect(missing.body.message).toContain('customsinvoice, salesinvoice');
    expect((await upload(api, id, 'customsinvoice', pdfForm())).status).toBe(204);
    expect((await bookWith(token)).body.message).toContain('salesinvoice');
    expect((await upload(api, id, 'salesinvoice', pdfForm())).status).toBe(204);
    expect((await bookWith(token)).status).toBe(200);
  });

  it('needs no customsinvoice upload with complete customs data, but fails incomplete customs data at booking', async () => {
    const complete = await createShipment(api, { to: NO_RECEIVER, customs_information: COMPLETE_CUSTOMS });
    expect((await bookWith(await tokenFor(complete, 'express_worldwide', { included_non_eu_rates: true }))).status).toBe(200);
    const partial = await createShipment(api, { to: NO_RECEIVER, customs_information: { signature: 'S', currency: 'NOK' } });
    const token = await tokenFor(partial, 'express_worldwide', { included_non_eu_rates: true });
    await upload(api, partial, 'customsinvoice', pdfForm());
    const res = await bookWith(token);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('customs_information_incomplete');
    expect(res.body.message).toContain('customs_information.items');
  });

  it('ADR needs the adr_dangerousgoods certificate uploaded', async () => {
    const id = await createShipment(api, { packages: [{ ...PARCEL, dangerous_goods_type: 'adr' }] });
    const token = await tokenFor(id, 'system');
    expect((await bookWith(token)).body.message).toContain('adr_dangerousgoods');
    await upload(api, id, 'adr_dangerousgoods', pdfForm());
    expect((await bookWith(token)).status).toBe(200);
  });

  describe('Endpoints rule 9: 422', () => {
    it('when a payer is set and the rate does not support third-party customs billing', async () => {
      const id = await createShipment(api, {
        to: NO_RECEIVER,
        customs_information: COMPLETE_CUSTOMS,
        third_party_customs_payer: { account_number: 'A1', postal_code: '10001', country_code: 'US' },
      });
      await upload(api, id, 'salesinvoice', pdfForm());
      const res = await bookWith(await tokenFor(id, 'business_parcel', { included_non_eu_rates: true }));
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('third_party_customs_payer_not_supported');
      expect((await bookWith(await tokenFor(id, 'express_worldwide', { included_non_eu_rates: true }))).status).toBe(200);
    });

    it("when a package's dangerous_goods_type changed after the rates were fetched", async () => {
      const id = await createShipment(api);
      const token = await tokenFor(id, 'mypack_home');
      await api.call('PUT', `/shipments/${id}`, { packages: [{ ...PARCEL, dangerous_goods_type: 'limited_quantity' }] });
      const res = await bookWith(token);
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('dangerous_goods_changed');
      expect((await bookWith(await tokenFor(id, 'mypack_home'))).status).toBe(200);
    });

    it("when the team's ADR approval was withdrawn since the rates were fetched", async () => {
      const id = await createShipment(api, { packages: [{ ...PARCEL, dangerous_goods_type: 'adr' }] });
      const token = await tokenFor(id, 'system');
      await upload(api, id, 'adr_dangerousgoods', pdfForm());
      const withdrawn = await api.call('POST', `${sandbox.origin}/admin/adr-approval`, { approved: false });
      expect(withdrawn.status).toBe(200);
      try {
        const res = await bookWith(token);
        expect(res.status).toBe(422);
        expect(res.body.code).toBe('adr_approval_withdrawn');
      } finally {
        sandbox.setAdrApproved(true);
      }
      expect((await bookWith(token)).status).toBe(200);
    });
  });

  it('rejects a payer added after a DDP rate search', async () => {
    const id = await createShipment(api, { to: NO_RECEIVER, customs_information: COMPLETE_CUSTOMS });
    const token = await tokenFor(id, 'express_worldwide', { included_non_eu_rates: true, incoterms: 'DDP' });
    await api.call('PUT', `/shipments/${id}`, {
      third_party_customs_payer: { account_number: 'A1', postal_code: '0150', country_code: 'NO' },
    });
    const res = await bookWith(token);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('ddp_with_third_party_customs_payer');
  });

  it('receiver-pays bookings omit the price fields', async () => {
    const id = await createShipment(api, {
      to: { ...SE_RECEIVER, carrier_accounts: [{ carrier: 'dhl_express', account_identifier: '950000001' }] },
    });
    const token = await tokenFor(id, 'express_worldwide', { required_addons: { receiver_pays: true } });
    expect((await bookWith(token)).status).toBe(200);
    const got = (await api.call('GET', `/shipments/${id}`)).body;
    expect(got).not.toHaveProperty('expected_price');
    expect(got).not.toHaveProperty('resale_price');
  });

  it('answers 409 for a second booking of the same shipment', async () => {
    const id = await createShipment(api);
    const a = await tokenFor(id, 'mypack_home');
    const b = await tokenFor(id, 'business_parcel');
    expect((await bookWith(a)).status).toBe(200);
    expect((await bookWith(b)).status).toBe(409);
  });
});

describe('POST /shipments/cancel and tracking', () => {
  it('tracking of a booked shipment is exactly one ORDERED event dated to the booking', async () => {
    const id = await createShipment(api);
    await bookWith(await tokenFor(id, 'mypack_home'));
    const tracking = await api.call('GET', `/shipments/${id}/tracking`);
    expect(tracking.status).toBe(200);
    expect(tracking.body).toEqual([
      {
        id: expect.any(String),
        url: expect.stringContaining('http'),
        status: 'ORDERED',
        created_at: expect.stringMatching(/^2026-11-20T08:00:00\.000\d{6}Z$/),
        description: expect.any(String),
        location_name: '',
      },
    ]);
    expect((await api.call('GET', `/shipments/${createdPending}/tracking`)).body).toEqual([]);
  });

  it('cancel makes a booked shipment CANCELED with empty tracking; only booked shipments can be canceled', async () => {
    const id = await createShipment(api);
    expect((await api.call('POST', '/shipments/cancel', { shipment_id: id })).status).toBe(409);
    await bookWith(await tokenFor(id, 'mypack_home'));
    const res = await api.call('POST', '/shipments/cancel', { shipment_id: id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ shipment_id: id, status: 'CANCELED' });
    const got = (await api.call('GET', `/shipments/${id}`)).body;
    expect(got.status).toBe('CANCELED');
    expect(got.tracking_status).toBeNull();
    expect(got.available_documents_types).toEqual([]);
    expect((await api.call('GET', `/shipments/${id}/tracking`)).body).toEqual([]);
    expect((await api.call('POST', '/shipments/cancel', { shipment_id: 'bad' })).status).toBe(400);
  });
});
