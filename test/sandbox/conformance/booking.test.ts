/** Spec: Book request/response, Endpoints rules 5-9, ThirdPartyCustomsPayer rules, Customs rules, States 4-5, Shipment response fields, Versioning 4. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOX, create, createAndBook, CUSTOMS, ISO_TZ, open, pdfUpload, RECEIVER_NO, RECEIVER_SE, rateSearch, type Conn } from './raw';

let c: Conn;
let adr: Conn;
beforeAll(async () => {
  c = await open();
  adr = await open({ adrApproved: true });
});
afterAll(async () => {
  await c.sandbox.close();
  await adr.sandbox.close();
});

const PAYER = { account_number: '554433', postal_code: '10115', country_code: 'DE' };
const book = (k: Conn, body: Record<string, unknown>) => k.call('POST', '/shipments/book', body);

describe('book', () => {
  it('R-B-resp: answers {shipment_id, main_tracking_id}; the shipment then shows carrier, product, tracking_id, documents, prices and an ORDERED tracking_status', async () => {
    const id = await create(c);
    const before = (await c.call('GET', `/shipments/${id}`)).body;
    expect(before.status).toBe('PENDING');
    const rate = (await rateSearch(c, id)).body.rates[0];
    const res = await book(c, {
      booking_token: rate.booking_token,
      pickup_instructions: 'Door code 1234',
      delivery_instructions: 'Leave at reception',
    });
    expect(res.status).toBe(200);
    expect(res.body.shipment_id).toBe(id);
    expect(typeof res.body.main_tracking_id).toBe('string');
    const s = (await c.call('GET', `/shipments/${id}`)).body;
    expect(s.id).toBe(id);
    expect(s.carrier_name).toBe(rate.carrier_name);
    expect(s.product_name).toBe(rate.product_name);
    expect(s.tracking_id).toBe(res.body.main_tracking_id);
    expect(s.available_documents_types).toContain('label');
    expect(s.status).not.toBe('PENDING');
    expect(s.expected_price).toMatch(/^\d+(\.\d+)?\s*[A-Z]{3}$/);
    expect(s.resale_price).toMatch(/^\d+(\.\d+)?\s*[A-Z]{3}$/);
    expect(Number.parseFloat(s.expected_price)).toBe(Number.parseFloat(rate.price)); // instructions add no services
    expect(s.expected_price).toContain(rate.currency);
    expect(s.tracking_status.status).toBe('ORDERED');
    expect(s.tracking_status.created_at).toMatch(ISO_TZ);
  });

  it('R-B-token: an unknown token is refused', async () => {
    const res = await book(c, { booking_token: 'not-a-token' });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(JSON.stringify(res.body)).toMatch(/"message"/);
  });

  it('R-S-prices/V4: a receiver-pays booking omits expected_price and resale_price', async () => {
    const carriers: any[] = (await c.call('GET', '/carriers')).body.carriers;
    const to = { ...RECEIVER_SE, carrier_accounts: carriers.map((k) => ({ carrier: k.carrier, account_identifier: 'A1' })) };
    const { id } = await createAndBook(c, { to }, { required_addons: { receiver_pays: true } });
    const s = (await c.call('GET', `/shipments/${id}`)).body;
    expect(s.expected_price ?? undefined).toBeUndefined();
    expect(s.resale_price ?? undefined).toBeUndefined();
    expect('expected_price' in s && s.expected_price !== null).toBe(false);
  });

  it('R-S-manifest: the manifest is included in available_documents_types for booked shipments that require one', async () => {
    const id = await create(c);
    const rates: any[] = (await rateSearch(c, id)).body.rates;
    const found: string[][] = [];
    for (const r of rates) {
      const sid = await create(c);
      const rr: any[] = (await rateSearch(c, sid)).body.rates;
      const same = rr.find((x) => x.product_name === r.product_name && x.carrier_name === r.carrier_name);
      if ((await book(c, { booking_token: same.booking_token })).status === 200)
        found.push((await c.call('GET', `/shipments/${sid}`)).body.available_documents_types);
    }
    expect(found.some((d) => d.includes('manifest'))).toBe(true);
  });
});

describe('service point flow (Endpoints rule 5)', () => {
  it('R-EP5b: a service-point rate needs delivery_service_point_token from POST /locations/servicepoints', async () => {
    const id = await create(c, { to: { ...RECEIVER_SE, is_private_individual: true } });
    const rate = (await rateSearch(c, id, { include_service_point_rates: true })).body.rates.find(
      (r: any) => r.require_delivery_service_point,
    );
    expect(rate).toBeTruthy();
    expect((await book(c, { booking_token: rate.booking_token })).status).toBeGreaterThanOrEqual(400);
    const loc = await c.call('POST', '/locations/servicepoints', {
      address_line: RECEIVER_SE.address.address_line_1,
      postal_code: RECEIVER_SE.address.postal_code,
      city: 'Stockholm',
      country_code: 'SE',
    });
    const token = (loc.body.locations as any[]).find((l) =>
      rate.carrier_name.toLowerCase().includes(String(l.carrier).toLowerCase()),
    ).service_point_token;
    const ok = await book(c, { booking_token: rate.booking_token, delivery_service_point_token: token });
    expect(ok.status).toBe(200);
  });
});

describe('documents before booking (Endpoints rules 6, 7; Customs rules 1, 3)', () => {
  it('R-EP6b: each required document must be uploaded before booking; afterwards booking succeeds', async () => {
    const id = await create(c, { to: RECEIVER_NO });
    const rate = (await rateSearch(c, id, { included_non_eu_rates: true })).body.rates.find((r: any) => r.required_documents.length > 0);
    const refused = await book(c, { booking_token: rate.booking_token });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    for (const d of rate.required_documents) expect((await pdfUpload(c, id, d)).status).toBe(204);
    // the token is valid 30 minutes: the refused attempt did not use it up
    expect((await book(c, { booking_token: rate.booking_token })).status).toBe(200);
  });

  it('R-C1b: with complete customs data nothing is uploaded for customsinvoice', async () => {
    const id = await create(c, { to: RECEIVER_NO, customs_information: CUSTOMS });
    const rate = (await rateSearch(c, id, { included_non_eu_rates: true })).body.rates.find((r: any) => r.required_documents.length === 0);
    expect(rate).toBeTruthy();
    expect((await book(c, { booking_token: rate.booking_token })).status).toBe(200);
    expect((await c.call('GET', `/shipments/${id}`)).body.available_documents_types).toContain('customsinvoice');
  });

  it('R-C3: incomplete customs data fails at booking with an error message', async () => {
    const incomplete = { signature: 'Sven', items: [{ description: 'Books', quantity: 1, unit_weight: 1 }] };
    const id = await create(c, { to: RECEIVER_NO, customs_information: incomplete });
    const rate = (await rateSearch(c, id, { included_non_eu_rates: true })).body.rates.find((r: any) =>
      r.required_documents.every((d: string) => d === 'customsinvoice'),
    );
    expect(rate).toBeTruthy();
    const res = await book(c, { booking_token: rate.booking_token });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(JSON.stringify(res.body)).toMatch(/"message":"[^"]+"/);
  });

  it('R-EP7: an ADR rate asking for adr_dangerousgoods books only after that upload', async () => {
    const id = await create(adr, { packages: [{ ...BOX, dangerous_goods_type: 'adr' }] });
    const rate = (await rateSearch(adr, id)).body.rates.find((r: any) => r.required_documents.includes('adr_dangerousgoods'));
    expect(rate).toBeTruthy();
    expect((await book(adr, { booking_token: rate.booking_token })).status).toBeGreaterThanOrEqual(400);
    expect((await pdfUpload(adr, id, 'adr_dangerousgoods')).status).toBe(204);
    const again = (await rateSearch(adr, id)).body.rates.find((r: any) => r.product_name === rate.product_name);
    expect((await book(adr, { booking_token: again.booking_token })).status).toBe(200);
  });
});

describe('Endpoints rule 9: 422 at booking', () => {
  it('R-EP9a/T3: a payer is set and the rate does not support third-party customs billing', async () => {
    const id = await create(c, { third_party_customs_payer: PAYER });
    const rate = (await rateSearch(c, id)).body.rates.find((r: any) => !r.third_party_customs_payer_supported);
    expect(rate).toBeTruthy();
    expect((await book(c, { booking_token: rate.booking_token })).status).toBe(422);
  });

  it('R-EP9b: a package dangerous_goods_type changed after the rates were fetched', async () => {
    const id = await create(c);
    const rate = (await rateSearch(c, id)).body.rates.find((r: any) => r.carrier_name);
    const upd = await c.call('PUT', `/shipments/${id}`, { packages: [{ ...BOX, dangerous_goods_type: 'limited_quantity' }] });
    expect(upd.status).toBe(200);
    expect((await book(c, { booking_token: rate.booking_token })).status).toBe(422);
    // fetch new rates and book with the new token
    const fresh = (await rateSearch(c, id)).body.rates[0];
    expect((await book(c, { booking_token: fresh.booking_token })).status).toBe(200);
  });

  it('R-EP9c: the team ADR approval was withdrawn since the rates were fetched', async () => {
    const k = await open({ adrApproved: true });
    try {
      const id = await create(k, { packages: [{ ...BOX, dangerous_goods_type: 'adr' }] });
      const rate = (await rateSearch(k, id)).body.rates[0];
      for (const d of rate.required_documents) await pdfUpload(k, id, d);
      k.sandbox.setAdrApproved(false);
      expect((await book(k, { booking_token: rate.booking_token })).status).toBe(422);
    } finally {
      await k.sandbox.close();
    }
  });
});

describe('third-party customs payer', () => {
  it('R-T5/T3: a payer in another country than the receiver can be booked on a supporting rate', async () => {
    const id = await create(c, { to: RECEIVER_NO, customs_information: CUSTOMS, third_party_customs_payer: PAYER });
    const rate = (await rateSearch(c, id, { included_non_eu_rates: true })).body.rates.find(
      (r: any) => r.third_party_customs_payer_supported && r.required_documents.length === 0,
    );
    expect(rate).toBeTruthy();
    expect((await book(c, { booking_token: rate.booking_token })).status).toBe(200);
  });

  it('R-T1: the account cannot be validated up front: any account number is accepted on create', async () => {
    const res = await c.call('POST', '/shipments', {
      to: RECEIVER_NO,
      packages: [BOX],
      third_party_customs_payer: { ...PAYER, account_number: 'INVALID-000' },
    });
    expect(res.status).toBeLessThan(300);
  });

  it('R-T1b/St2: an invalid account surfaces as a carrier-side billing failure; a failed booking can be deleted (sandbox convention: account starting INVALID, README 30)', async () => {
    const id = await create(c, {
      to: RECEIVER_NO,
      customs_information: CUSTOMS,
      third_party_customs_payer: { ...PAYER, account_number: 'INVALID-1' },
    });
    const rate = (await rateSearch(c, id, { included_non_eu_rates: true })).body.rates.find(
      (r: any) => r.third_party_customs_payer_supported && r.required_documents.length === 0,
    );
    const res = await book(c, { booking_token: rate.booking_token });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect((await c.call('GET', `/shipments/${id}`)).body.status).not.toBe('BOOKED');
    expect((await c.call('DELETE', `/shipments/${id}`)).status).toBeLessThan(300);
  });

  it('R-B-req: booking_token is required', async () => {
    const res = await book(c, {});
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });

  it('R-T2b: a payer added after a DDP rate search is rejected at booking', async () => {
    const id = await create(c, { to: RECEIVER_NO, customs_information: CUSTOMS });
    const rate = (await rateSearch(c, id, { included_non_eu_rates: true, incoterms: 'DDP' })).body.rates.find(
      (r: any) => r.third_party_customs_payer_supported,
    );
    expect(rate).toBeTruthy();
    await c.call('PUT', `/shipments/${id}`, { third_party_customs_payer: PAYER });
    const res = await book(c, { booking_token: rate.booking_token });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });
});

describe('cancel and tracking (States 4-5, Other records TrackingEvent)', () => {
  it('R-Tr1: tracking of a booked shipment is one ORDERED event dated to the booking, with the TrackingEvent fields', async () => {
    const t0 = Date.now();
    const { id } = await createAndBook(c);
    const res = await c.call('GET', `/shipments/${id}/tracking`);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    const e = res.body[0];
    expect(e.status).toBe('ORDERED');
    expect(typeof (e.id ?? e.ID)).toBe('string');
    for (const k of ['url', 'status', 'description', 'location_name']) expect(typeof e[k], k).toBe('string');
    expect((await c.call('GET', `/shipments/${id}`)).body.tracking_status).toEqual(e);
    expect(e.created_at).toMatch(ISO_TZ);
    expect(Math.abs(Date.parse(e.created_at) - t0)).toBeLessThan(60_000);
  });

  it('R-St4/St5: cancel makes a booked shipment CANCELED; without a carrier event tracking is then []', async () => {
    const { id } = await createAndBook(c);
    const res = await c.call('POST', '/shipments/cancel', { shipment_id: id });
    expect(res.status).toBeLessThan(300);
    expect((await c.call('GET', `/shipments/${id}`)).body.status).toBe('CANCELED');
    const tr = await c.call('GET', `/shipments/${id}/tracking`);
    expect(tr.status).toBe(200);
    expect(tr.body).toEqual([]);
  });

  it('R-St5b: a shipment with a carrier event keeps its events after cancel', async () => {
    const k = await open({ simulateCarrier: true, carrierStepMs: 50 });
    try {
      const { id } = await createAndBook(k);
      let events: any[] = [];
      for (let i = 0; i < 100 && events.length < 2; i++) {
        await new Promise((r) => setTimeout(r, 20));
        events = (await k.call('GET', `/shipments/${id}/tracking`)).body;
      }
      expect(events.length).toBeGreaterThanOrEqual(2);
      const latest = (await k.call('GET', `/shipments/${id}`)).body.tracking_status;
      expect(latest.status).not.toBe('ORDERED');
      await k.call('POST', '/shipments/cancel', { shipment_id: id });
      expect(((await k.call('GET', `/shipments/${id}/tracking`)).body as any[]).length).toBeGreaterThanOrEqual(2);
    } finally {
      await k.sandbox.close();
    }
  });
});
