import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAVORITE_ADDRESSES, FAVORITE_PACKAGES } from '../../../src/sandbox/catalog';
import type { Sandbox } from '../../../src/sandbox/server';
import { Api, COMPLETE_CUSTOMS, PARCEL, SE_RECEIVER, book, createShipment, started } from '../../support/sandbox-api';

let sandbox: Sandbox;
let api: Api;
beforeAll(async () => ({ sandbox, api } = await started()));
afterAll(async () => sandbox.close());

describe('POST /shipments', () => {
  it('creates a shipment: 201 {id, reference_id}, stored as PENDING', async () => {
    const res = await api.call('POST', '/shipments', {
      reference_id: 'ORDER-1',
      to: SE_RECEIVER,
      packages: [PARCEL],
      system: 'shop',
      system_version: '1.2',
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), reference_id: 'ORDER-1' });
    const got = await api.call('GET', `/shipments/${res.body.id}`);
    expect(got.body).toMatchObject({
      id: res.body.id,
      reference_id: 'ORDER-1',
      status: 'PENDING',
      system: 'shop',
      system_version: '1.2',
      tracking_id: null,
      carrier_name: null,
      available_documents_types: [],
      tracking_status: null,
      booked_at: null,
    });
    expect(got.body.created_at).toBe(got.body.updated_at);
  });

  it('with enable_bookable_validation lists what is missing as {errors: {dotted.path[i]: [...]}} (422)', async () => {
    const res = await api.call('POST', '/shipments', {
      enable_bookable_validation: true,
      to: { name: 'X', address: { postal_code: '11151', city: 'Stockholm', country_code: 'SE' }, contact: { email: 'not-an-email' } },
      packages: [{ depth_cm: 1, height_cm: 1, width_cm: 1 }],
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      'to.address.address_line_1': ['is required'],
      'to.contact.email': ['must be a valid email address'],
      'packages[0].weight_kg': ['is required'],
    });
  });

  it('without bookable validation imports an incomplete shipment, which rates then reject with the missing fields', async () => {
    const res = await api.call('POST', '/shipments', { to: { name: 'Half' }, packages: [{ weight_kg: 1 }] });
    expect(res.status).toBe(201);
    const rates = await api.call('POST', '/shipments/rates', {
      shipment_id: res.body.id,
      requested_pickup_time: '2026-11-23T10:00:00+01:00',
    });
    expect(rates.status).toBe(422);
    expect(rates.body.errors['to.address.address_line_1']).toEqual(['is required']);
    expect(rates.body.errors['packages[0].depth_cm']).toEqual(['is required']);
  });

  it('always checks e-mail validity and the customs signature', async () => {
    const res = await api.call('POST', '/shipments', {
      to: { ...SE_RECEIVER, contact: { email: 'a@b' } },
      packages: [PARCEL],
      customs_information: { ...COMPLETE_CUSTOMS, signature: undefined },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      'to.contact.email': ['must be a valid email address'],
      'customs_information.signature': ['is required'],
    });
  });

  it('validates customs item weights against the package weights', async () => {
    const heavy = { ...COMPLETE_CUSTOMS, items: [{ ...COMPLETE_CUSTOMS.items[0], quantity: 10, unit_weight: 1 }] };
    const res = await api.call('POST', '/shipments', { to: SE_RECEIVER, packages: [PARCEL], customs_information: heavy });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['customs_information.items']);
  });

  it('requires every third-party payer field once the object carries any', async () => {
    const res = await api.call('POST', '/shipments', {
      to: SE_RECEIVER,
      packages: [PARCEL],
      third_party_customs_payer: { account_number: '123' },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      'third_party_customs_payer.postal_code': ['is required'],
      'third_party_customs_payer.country_code': ['is required'],
    });
  });

  it('requires a receiver when packages are attached', async () => {
    const res = await api.call('POST', '/shipments', { packages: [PARCEL] });
    expect(res.status).toBe(422);
    expect(res.body.errors.to).toBeDefined();
  });
});

describe('defaults on create', () => {
  it('fills an empty sender with the team home address, the API user and the team customs numbers', async () => {
    const id = await createShipment(api);
    const got = await api.call('GET', `/shipments/${id}`);
    expect(got.body.from).toMatchObject({
      name: 'Sandbox Team',
      address: { address_line_1: 'Packgatan 1', city: 'Göteborg', country_code: 'SE' },
      contact: { name: 'API User' },
      eori_number: 'SE1234567890',
      vat_number: expect.any(String),
      voec_number: expect.any(String),
    });
  });

  it('uses the configured default sender, receiver and package for a shipment created without them', async () => {
    const s = await started();
    try {
      const patch = await s.api.call('PATCH', '/shipment-defaults', {
        sender_address: { id: FAVORITE_ADDRESSES[2]!.id },
        receiver_address: { id: FAVORITE_ADDRESSES[1]!.id },
        package: { id: FAVORITE_PACKAGES[0]!.id },
      });
      expect(patch.status).toBe(200);
      const res = await s.api.call('POST', '/shipments', { enable_bookable_validation: true });
      expect(res.status).toBe(201);
      const got = (await s.api.call('GET', `/shipments/${res.body.id}`)).body;
      // Entry 3 has neither name nor contact: team name and API user fill in.
      expect(got.from).toMatchObject({
        name: 'Sandbox Team',
        contact: { name: 'API User' },
        address: { city: 'Malmö' },
        address_book_id: FAVORITE_ADDRESSES[2]!.id,
      });
      expect(got.to).toMatchObject({
        name: 'Nordic Retail AB',
        address_book_id: FAVORITE_ADDRESSES[1]!.id,
        contact: { name: 'Rita Receiver' },
      });
      expect(got.packages).toEqual([expect.objectContaining({ favorite_package_id: FAVORITE_PACKAGES[0]!.id, weight_kg: 2 })]);
      // A shipment that names its own parties keeps them.
      const own = await createShipment(s.api, { from: { ...SE_RECEIVER, name: 'Own Sender' } });
      expect((await s.api.call('GET', `/shipments/${own}`)).body.from.name).toBe('Own Sender');
    } finally {
      await s.sandbox.close();
    }
  });
});

describe('PUT /shipments/{id}', () => {
  const payer = { account_number: 'ACC1', postal_code: '10001', country_code: 'US' };

  it('replaces each provided sub-resource and keeps the omitted ones', async () => {
    const id = await createShipment(api, { alternative_to: { ...SE_RECEIVER, name: 'Alt' }, sender_reference: 'S1' });
    const newTo = {
      ...SE_RECEIVER,
      name: 'New Receiver',
      address: { address_line_1: 'Ny 1', postal_code: '22222', city: 'Lund', country_code: 'SE' },
    };
    const res = await api.call('PUT', `/shipments/${id}`, { to: newTo, receiver_reference: 'R2' });
    expect(res.status).toBe(200);
    expect(res.body.to).toEqual({ ...newTo, contact: SE_RECEIVER.contact });
    expect(res.body.to.address).toEqual(newTo.address);
    expect(res.body.alternative_to.name).toBe('Alt');
    expect(res.body.sender_reference).toBe('S1');
    expect(res.body.receiver_reference).toBe('R2');
    // A provided party replaces the whole stored value, not field by field.
    const partial = await api.call('PUT', `/shipments/${id}`, { alternative_to: { name: 'Only name' } });
    expect(partial.body.alternative_to).toEqual({ name: 'Only name' });
  });

  it('keeps the packages when the update sends an empty array, replaces them otherwise', async () => {
    const id = await createShipment(api);
    const kept = await api.call('PUT', `/shipments/${id}`, { packages: [] });
    expect(kept.body.packages).toEqual([PARCEL]);
    const two = [
      { ...PARCEL, weight_kg: 5 },
      { ...PARCEL, weight_kg: 7 },
    ];
    const replaced = await api.call('PUT', `/shipments/${id}`, { packages: two });
    expect(replaced.body.packages.map((p: { weight_kg: number }) => p.weight_kg)).toEqual([5, 7]);
  });

  it('keeps the third-party payer when omitted and removes it with {}', async () => {
    const id = await createShipment(api, { third_party_customs_payer: payer });
    const kept = await api.call('PUT', `/shipments/${id}`, { sender_reference: 'x' });
    expect(kept.body.third_party_customs_payer).toEqual(payer);
    const removed = await api.call('PUT', `/shipments/${id}`, { third_party_customs_payer: {} });
    expect(removed.status).toBe(200);
    expect(removed.body.third_party_customs_payer).toBeNull();
  });

  it('requires the signature when customs_information is sent on update', async () => {
    const id = await createShipment(api);
    const unsigned = await api.call('PUT', `/shipments/${id}`, { customs_information: { ...COMPLETE_CUSTOMS, signature: null } });
    expect(unsigned.status).toBe(422);
    expect(unsigned.body.errors).toEqual({ 'customs_information.signature': ['is required'] });
    const signed = await api.call('PUT', `/shipments/${id}`, { customs_information: COMPLETE_CUSTOMS });
    expect(signed.status).toBe(200);
    expect(signed.body.customs_information).toMatchObject({ signature: 'Sam Sender', invoice_type: 'commercial' });
  });

  it('validates that the shipment is still bookable', async () => {
    const id = await createShipment(api);
    const res = await api.call('PUT', `/shipments/${id}`, { to: { name: 'No address' } });
    expect(res.status).toBe(422);
    expect(res.body.errors['to.address.address_line_1']).toEqual(['is required']);
    expect((await api.call('GET', `/shipments/${id}`)).body.to.name).toBe(SE_RECEIVER.name);
  });

  it('ignores system_version on update (set on creation only)', async () => {
    const id = await createShipment(api, { system_version: '1.0' });
    const res = await api.call('PUT', `/shipments/${id}`, { system_version: '2.0' });
    expect(res.body.system_version).toBe('1.0');
  });

  it('refuses to change or delete a booked shipment with 409', async () => {
    const id = await createShipment(api);
    expect((await book(api, id)).status).toBe(200);
    const put = await api.call('PUT', `/shipments/${id}`, { sender_reference: 'late' });
    expect(put.status).toBe(409);
    expect(put.body.code).toBe('shipment_booked');
    const del = await api.call('DELETE', `/shipments/${id}`);
    expect(del.status).toBe(409);
    expect((await api.call('GET', `/shipments/${id}`)).status).toBe(200);
  });
});

describe('DELETE /shipments/{id}', () => {
  it('deletes a shipment that is not booked (204), after which it is 404', async () => {
    const id = await createShipment(api);
    const del = await api.call('DELETE', `/shipments/${id}`);
    expect(del.status).toBe(204);
    expect(del.body).toBe('');
    expect((await api.call('GET', `/shipments/${id}`)).status).toBe(404);
  });

  it('deletes a shipment whose booking failed', async () => {
    const id = await createShipment(api, {
      to: { ...SE_RECEIVER, address: { ...SE_RECEIVER.address, country_code: 'NO' } },
      customs_information: COMPLETE_CUSTOMS,
      third_party_customs_payer: { account_number: 'INVALID-9', postal_code: '0150', country_code: 'NO' },
    });
    const failed = await book(api, id, { included_non_eu_rates: true }, (r) => r.third_party_customs_payer_supported);
    expect(failed.status).toBe(422);
    expect(failed.body.code).toBe('carrier_booking_failed');
    expect((await api.call('GET', `/shipments/${id}`)).body.status).toBe('BOOKING_FAILED');
    expect((await api.call('DELETE', `/shipments/${id}`)).status).toBe(204);
  });
});

describe('GET /shipments', () => {
  it('filters by reference_id and status, newest change first, with X-Total-Count', async () => {
    const s = await started();
    try {
      const a = await createShipment(s.api, { reference_id: 'REF-A' });
      const b = await createShipment(s.api, { reference_id: 'REF-B' });
      const c = await createShipment(s.api, { reference_id: 'REF-A' });
      await book(s.api, a); // booking moves a to the front
      await s.api.call('POST', '/shipments/cancel', { shipment_id: a });
      const all = await s.api.call('GET', '/shipments');
      expect(all.body.map((x: { id: string }) => x.id)).toEqual([a, c, b]);
      expect(all.headers.get('x-total-count')).toBe('3');
      const refA = await s.api.call('GET', '/shipments?reference_id=REF-A');
      expect(refA.body.map((x: { id: string }) => x.id)).toEqual([a, c]);
      const canceled = await s.api.call('GET', '/shipments?status=CANCELED');
      expect(canceled.body.map((x: { id: string }) => x.id)).toEqual([a]);
      const pendingA = await s.api.call('GET', '/shipments?reference_id=REF-A&status=PENDING');
      expect(pendingA.body.map((x: { id: string }) => x.id)).toEqual([c]);
      const page = await s.api.call('GET', '/shipments?limit=1&offset=1');
      expect(page.body.map((x: { id: string }) => x.id)).toEqual([c]);
      expect(page.headers.get('x-total-count')).toBe('3');
      expect(all.body[0]).toHaveProperty('customs_information');
      // Updating moves a shipment to the front.
      await s.api.call('PUT', `/shipments/${b}`, { sender_reference: 'touched', reference_id: 'REF-C' });
      expect((await s.api.call('GET', '/shipments?limit=1')).body[0].id).toBe(b);
      expect((await s.api.call('GET', '/shipments?reference_id=REF-B')).body).toEqual([]);
      expect((await s.api.call('GET', '/shipments?reference_id=REF-C')).body.map((x: { id: string }) => x.id)).toEqual([b]);
    } finally {
      await s.sandbox.close();
    }
  });

  it('rejects an out-of-range limit with 400', async () => {
    expect((await api.call('GET', '/shipments?limit=5000')).status).toBe(400);
    expect((await api.call('GET', '/shipments?limit=abc')).status).toBe(400);
  });
});
