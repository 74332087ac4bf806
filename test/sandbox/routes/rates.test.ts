import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAVORITE_ADDRESSES, SHIPPING_RULES } from '../../../src/sandbox/catalog';
import type { Sandbox } from '../../../src/sandbox/server';
import { Api, COMPLETE_CUSTOMS, PARCEL, SE_RECEIVER, createShipment, rates, started } from '../../support/sandbox-api';

let sandbox: Sandbox;
let api: Api;
const now = new Date('2026-11-20T08:00:00Z');
beforeAll(async () => ({ sandbox, api } = await started({ now: () => now, adrApproved: true })));
afterAll(async () => sandbox.close());

const products = (body: { rates: Array<{ carrier_product_code: string }> }): string[] => body.rates.map((r) => r.carrier_product_code);
const to = (country: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  ...SE_RECEIVER,
  address: { ...SE_RECEIVER.address, country_code: country, ...extra },
});
const rule = (name: string): string => SHIPPING_RULES.find((r) => r.name === name)!.id;

describe('POST /shipments/rates', () => {
  it('returns rates sorted by price with price_rank from 1, each with a 30-minute booking token', async () => {
    const id = await createShipment(api);
    const res = await rates(api, id);
    expect(res.status).toBe(200);
    expect(res.body.warnings).toEqual([]);
    const list = res.body.rates as Array<Record<string, any>>;
    expect(list.length).toBeGreaterThanOrEqual(3);
    expect(list.map((r) => r.price_rank)).toEqual(list.map((_r, i) => i + 1));
    const prices = list.map((r) => Number(r.price));
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect(new Set(list.map((r) => r.booking_token)).size).toBe(list.length);
    for (const r of list) {
      expect(r).toMatchObject({
        shipment_id: id,
        currency: 'SEK',
        receiver_pays: false,
        own_agreement: false,
        required_documents: [],
        expires_at: new Date(now.getTime() + 30 * 60_000).toISOString(),
        pickup: { date: '2026-11-23', time_window_start: '09:00:00', time_window_end: '17:00:00' },
      });
      expect(typeof r.carrier).toBe('string');
      expect(r.estimated_delivery.earliest_date > r.pickup.date).toBe(true);
    }
    // Service-point products are opt-in.
    expect(products(res.body)).not.toContain('mypack_collect');
  });

  it('answers 422 without requested_pickup_time unless without_pickup is set', async () => {
    const id = await createShipment(api);
    const missing = await api.call('POST', '/shipments/rates', { shipment_id: id });
    expect(missing.status).toBe(422);
    expect(missing.body.code).toBe('requested_pickup_time_required');
    const dropOff = await api.call('POST', '/shipments/rates', { shipment_id: id, required_addons: { without_pickup: true } });
    expect(dropOff.status).toBe(200);
    // without_pickup is an addon too: only products that take drop-offs remain (not DHL Express).
    expect(products(dropOff.body)).not.toContain('express_worldwide');
    expect(dropOff.body.rates[0].pickup.date).toBe('2026-11-20');
  });

  it('rejects a malformed pickup time with 400 naming the field', async () => {
    const id = await createShipment(api);
    const res = await api.call('POST', '/shipments/rates', { shipment_id: id, requested_pickup_time: 'tomorrow' });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(['requested_pickup_time']);
  });

  it('returns only rates supporting every requested addon, with the addon in the price', async () => {
    const id = await createShipment(api);
    const plain = await rates(api, id);
    const res = await rates(api, id, { required_addons: { notification: true, indoor_delivery: true } });
    expect(products(res.body)).toEqual(['mypack_home']);
    const before = plain.body.rates.find((r: any) => r.carrier_product_code === 'mypack_home').price;
    expect(Number(res.body.rates[0].price)).toBe(Number(before) + 150);
    const impossible = await rates(api, id, { required_addons: { indoor_delivery: true, tailgate_lift_loading: true } });
    expect(impossible.status).toBe(400);
    expect(impossible.body.code).toBe('no_rates');
  });

  it('needs included_non_eu_rates for non-EU routes (400 without), then asks for the documents per product', async () => {
    const id = await createShipment(api, { to: to('NO') });
    const without = await rates(api, id);
    expect(without.status).toBe(400);
    const res = await rates(api, id, { included_non_eu_rates: true });
    expect(res.status).toBe(200);
    const docs = Object.fromEntries(res.body.rates.map((r: any) => [r.carrier_product_code, r.required_documents]));
    expect(docs).toEqual({
      business_parcel: ['customsinvoice', 'salesinvoice'],
      express_worldwide: ['customsinvoice'],
      system: ['customsinvoice', 'abd'],
    });
  });

  it('drops customsinvoice from required_documents when complete customs data was supplied', async () => {
    const id = await createShipment(api, { to: to('NO'), customs_information: COMPLETE_CUSTOMS });
    const res = await rates(api, id, { included_non_eu_rates: true });
    const docs = Object.fromEntries(res.body.rates.map((r: any) => [r.carrier_product_code, r.required_documents]));
    expect(docs).toEqual({ business_parcel: ['salesinvoice'], express_worldwide: [], system: ['abd'] });
  });

  it('offers service-point rates only with include_service_point_rates and a private-individual receiver', async () => {
    const business = await createShipment(api);
    expect(products((await rates(api, business, { include_service_point_rates: true })).body)).not.toContain('mypack_collect');
    const person = await createShipment(api, { to: { ...SE_RECEIVER, is_private_individual: true } });
    expect(products((await rates(api, person)).body)).not.toContain('mypack_collect');
    const res = await rates(api, person, { include_service_point_rates: true });
    const point = res.body.rates.find((r: any) => r.carrier_product_code === 'mypack_collect');
    expect(point).toMatchObject({ require_delivery_service_point: true, carrier: 'postnord' });
    expect(res.body.rates.filter((r: any) => r.require_delivery_service_point)).toHaveLength(1);
  });

  it('receiver pays: only carriers with a to.carrier_accounts entry, price "-"', async () => {
    const noAccount = await createShipment(api);
    expect((await rates(api, noAccount, { required_addons: { receiver_pays: true } })).status).toBe(400);
    const id = await createShipment(api, {
      to: {
        ...SE_RECEIVER,
        carrier_accounts: [
          { carrier: 'dhl_express', account_identifier: '950000001' },
          { carrier: 'bring', account_identifier: 'B-1' },
        ],
      },
    });
    const res = await rates(api, id, { required_addons: { receiver_pays: true } });
    expect(res.status).toBe(200);
    // Bring holds an account but does not support receiver pays.
    expect(res.body.rates.map((r: any) => r.carrier)).toEqual(['dhl_express']);
    expect(res.body.rates[0]).toMatchObject({ price: '-', receiver_pays: true });
  });

  it('dangerous goods: limited quantity narrows the products; ADR adds the certificate and excludes declaration-form products', async () => {
    const lq = await createShipment(api, { packages: [{ ...PARCEL, dangerous_goods_type: 'limited_quantity' }] });
    const lqRates = await rates(api, lq);
    expect(products(lqRates.body)).not.toContain('business_parcel');
    expect(products(lqRates.body)).toContain('mypack_home');
    const adr = await createShipment(api, {
      packages: [PARCEL, { ...PARCEL, dangerous_goods_type: 'limited_quantity' }, { ...PARCEL, dangerous_goods_type: 'adr' }],
    });
    const adrRates = await rates(api, adr);
    expect(products(adrRates.body)).toEqual(['system']);
    expect(adrRates.body.rates[0].required_documents).toEqual(['adr_dangerousgoods']);
  });

  it('the deprecated dangerous_goods_limited_quantity addon works only without package-level types', async () => {
    const plain = await createShipment(api);
    expect(products((await rates(api, plain, { required_addons: { dangerous_goods_limited_quantity: true } })).body)).not.toContain(
      'business_parcel',
    );
    const adr = await createShipment(api, { packages: [{ ...PARCEL, dangerous_goods_type: 'adr' }] });
    expect(products((await rates(api, adr, { required_addons: { dangerous_goods_limited_quantity: true } })).body)).toEqual(['system']);
  });

  it('ADR without the team approval is a 422', async () => {
    const s = await started();
    try {
      const id = await createShipment(s.api, { packages: [{ ...PARCEL, dangerous_goods_type: 'adr' }] });
      const res = await rates(s.api, id);
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('adr_not_approved');
    } finally {
      await s.sandbox.close();
    }
  });

  it('reports field-length problems as one warning entry per excluded product', async () => {
    const id = await createShipment(api, {
      to: { ...SE_RECEIVER, name: 'Very Long Company Name Aktiebolag', contact: { name: 'Anna-Karin Långnamnsson', email: 'a@b.se' } },
    });
    const res = await rates(api, id);
    expect(res.status).toBe(200);
    expect(products(res.body)).not.toContain('business_parcel');
    expect(res.body.warnings).toEqual([
      {
        carrier_name: 'Bring',
        carrier_product_code: 'business_parcel',
        warnings: [expect.stringContaining('at most 27'), expect.stringContaining('at most 22')],
      },
    ]);
  });

  it('answers 200 with empty rates when every product is excluded by warnings', async () => {
    const id = await createShipment(api, { to: to('US') });
    const res = await rates(api, id, { included_non_eu_rates: true });
    expect(res.status).toBe(200);
    expect(res.body.rates).toEqual([]);
    expect(res.body.warnings).toEqual([
      { carrier_name: 'DHL Express', carrier_product_code: 'express_worldwide', warnings: [expect.stringContaining('province')] },
    ]);
    const fixed = await createShipment(api, { to: to('US', { province: 'NY' }) });
    expect(products((await rates(api, fixed, { included_non_eu_rates: true })).body)).toEqual(['express_worldwide']);
  });

  it("applies the team's enabled shipping rules and lists them in applied_shipping_rules", async () => {
    const id = await createShipment(api, { to: { ...SE_RECEIVER, address_book_id: FAVORITE_ADDRESSES[0]!.id } });
    const res = await rates(api, id);
    expect(res.body.rates.map((r: any) => r.carrier)).not.toContain('dhl_express');
    expect(res.body.applied_shipping_rules).toEqual([
      {
        id: rule('Warehouse deliveries: no DHL'),
        name: 'Warehouse deliveries: no DHL',
        type: 'exclude',
        category: 'search',
        enabled: true,
      },
    ]);
    const other = await createShipment(api);
    const plain = await rates(api, other);
    expect(plain.body.rates.map((r: any) => r.carrier)).toContain('dhl_express');
    expect(plain.body.applied_shipping_rules).toEqual([]);
  });

  it('shipping_rule_ids limits the rules (disabled ones included) and wins over shipping_rule_hashes', async () => {
    const id = await createShipment(api);
    const prefer = await rates(api, id, { shipping_rule_ids: [rule('Prefer PostNord')] });
    expect(new Set(prefer.body.rates.map((r: any) => r.carrier))).toEqual(new Set(['postnord']));
    const exclude = await rates(api, id, { shipping_rule_hashes: [rule('Never Bring')] });
    expect(exclude.body.rates.map((r: any) => r.carrier)).not.toContain('bring');
    const both = await rates(api, id, { shipping_rule_ids: [rule('Only DB Schenker')], shipping_rule_hashes: [rule('Never Bring')] });
    expect(new Set(both.body.rates.map((r: any) => r.carrier))).toEqual(new Set(['db_schenker']));
    const unknown = await rates(api, id, { shipping_rule_ids: ['no-such-rule'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('unknown_shipping_rule');
  });

  it('adds own-agreement rates on request', async () => {
    const id = await createShipment(api);
    expect((await rates(api, id)).body.rates.some((r: any) => r.own_agreement)).toBe(false);
    const res = await rates(api, id, { include_own_agreements: true });
    const own = res.body.rates.filter((r: any) => r.own_agreement);
    expect(own).toEqual([expect.objectContaining({ carrier: 'dhl_express', own_agreement_name: expect.any(String) })]);
  });

  it('rejects a third-party payer combined with DDP (422); other incoterms are ignored', async () => {
    const id = await createShipment(api, {
      to: to('NO'),
      third_party_customs_payer: { account_number: 'A1', postal_code: '0150', country_code: 'NO' },
    });
    const ddp = await rates(api, id, { included_non_eu_rates: true, incoterms: 'DDP' });
    expect(ddp.status).toBe(422);
    expect(ddp.body.code).toBe('ddp_with_third_party_customs_payer');
    expect((await rates(api, id, { included_non_eu_rates: true, incoterms: 'EXW' })).status).toBe(200);
  });

  it('answers 400/404 for a bad shipment_id and 409 for a booked shipment', async () => {
    expect((await rates(api, 'nope')).status).toBe(400);
    expect((await rates(api, '3f0c1d2e-4b5a-4c6d-8e7f-9a0b1c2d3e4f')).status).toBe(404);
    const booked = await sandbox.bookShipment();
    expect((await rates(api, booked.shipmentId)).status).toBe(409);
  });
});
