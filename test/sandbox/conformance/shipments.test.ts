/** Spec: Resources (Shipment, Party, Package, CustomsInformation, ThirdPartyCustomsPayer), Endpoints shipments rows, Errors 1, States preconditions 1-2. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOX, create, createAndBook, CUSTOMS, open, RECEIVER_NO, RECEIVER_SE, SENDER_SE, type Conn } from './raw';

let c: Conn;
beforeAll(async () => {
  c = await open();
});
afterAll(async () => {
  await c.sandbox.close();
});

const ALT_FROM = {
  name: 'Lager',
  address: { address_line_1: 'Lagerv 9', postal_code: '41707', city: 'Göteborg', country_code: 'SE' },
  contact: { name: 'L', email: 'l@example.com' },
};
const ALT_TO = {
  name: 'Butik',
  is_private_individual: false,
  address: { address_line_1: 'Butiksv 3', postal_code: '11151', city: 'Stockholm', country_code: 'SE' },
  contact: { name: 'B', email: 'b@example.com' },
};

describe('create and fetch', () => {
  it('R-E-create: POST /shipments answers {id, reference_id}', async () => {
    const res = await c.call('POST', '/shipments', { reference_id: 'ORD-77', from: SENDER_SE, to: RECEIVER_SE, packages: [BOX] });
    expect(res.status).toBeLessThan(300);
    expect(typeof res.body.id).toBe('string');
    expect(res.body.reference_id).toBe('ORD-77');
  });

  it('R-S-fields: every request field is stored and returned by GET /shipments/{id}, with packages, available_documents_types and customs_information', async () => {
    const body = {
      reference_id: 'ORD-78',
      from: SENDER_SE,
      to: { ...RECEIVER_SE, is_private_individual: true, carrier_accounts: [{ carrier: 'dhl_express', account_identifier: '123456' }] },
      alternative_from: ALT_FROM,
      alternative_to: ALT_TO,
      packages: [{ ...BOX, stackable: true, loading_meters: 0.4, quantity: 2 }],
      invoice_reference: 'INV-9',
      sender_reference: 'SR-1',
      receiver_reference: 'RR-1',
      system: 'ERP',
      system_version: '1.2.3',
      customs_information: CUSTOMS,
      third_party_customs_payer: { account_number: '998877', postal_code: '0150', country_code: 'NO' },
    };
    const id = await create(c, body);
    const res = await c.call('GET', `/shipments/${id}`);
    expect(res.status).toBe(200);
    const s = res.body;
    expect(s.id).toBe(id);
    for (const k of ['reference_id', 'invoice_reference', 'sender_reference', 'receiver_reference', 'system', 'system_version'])
      expect(s[k], k).toBe((body as any)[k]);
    expect(s.to.is_private_individual).toBe(true);
    expect(s.to.carrier_accounts).toEqual([{ carrier: 'dhl_express', account_identifier: '123456' }]);
    expect(s.alternative_from).toMatchObject(ALT_FROM);
    expect(s.alternative_to).toMatchObject(ALT_TO);
    expect(s.packages[0]).toMatchObject({ stackable: true, loading_meters: 0.4, quantity: 2, weight_kg: 3, type: 'PACKAGE' });
    expect(s.customs_information).toMatchObject({ invoice_number: 'F-1', signature: 'Sven Sender' });
    expect(s.customs_information.items[0]).toMatchObject({ hs_code: '490199', unit_type: 'pcs' });
    expect(s.third_party_customs_payer).toEqual({ account_number: '998877', postal_code: '0150', country_code: 'NO' });
    expect(typeof s.status).toBe('string');
    expect(Array.isArray(s.available_documents_types)).toBe(true);
    expect('tracking_id' in s).toBe(true);
  });

  it('R-P-abid: address_book_id is accepted on from, to, alternative_from, alternative_to and returned; favorite_package_id likewise on packages', async () => {
    const book = await c.call('POST', '/favorites/addresses', {});
    const entries: any[] = book.body.addresses ?? book.body.entries ?? book.body;
    const abid = entries[0].id;
    const pkgs = await c.call('GET', '/favorites/packages');
    const fav = (pkgs.body.packages ?? pkgs.body)[0].id;
    const id = await create(c, {
      from: { ...SENDER_SE, address_book_id: abid },
      to: { ...RECEIVER_SE, address_book_id: abid },
      alternative_from: { ...ALT_FROM, address_book_id: abid },
      alternative_to: { ...ALT_TO, address_book_id: abid },
      packages: [{ ...BOX, favorite_package_id: fav }],
    });
    const s = (await c.call('GET', `/shipments/${id}`)).body;
    for (const p of ['from', 'to', 'alternative_from', 'alternative_to']) expect(s[p].address_book_id, p).toBe(abid);
    expect(s.packages[0].favorite_package_id).toBe(fav);
    const upd = await c.call('PUT', `/shipments/${id}`, { to: { ...RECEIVER_SE, address_book_id: entries[1].id } });
    expect(upd.status).toBe(200);
    expect(upd.body.to.address_book_id).toBe(entries[1].id);
  });

  it('R-Err1: bookable validation failure lists {errors: {dotted.path[i]: [messages]}} naming required fields and invalid emails', async () => {
    const res = await c.call('POST', '/shipments', {
      enable_bookable_validation: true,
      from: SENDER_SE,
      to: {
        name: 'X',
        address: { postal_code: '11122', city: 'Stockholm', country_code: 'SE' },
        contact: { name: 'X', email: 'not-an-email' },
      },
      packages: [{ depth_cm: 10, height_cm: 10, width_cm: 10, quantity: 1 }],
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    const errors = res.body.errors;
    expect(errors['packages[0].weight_kg']).toEqual(expect.arrayContaining([expect.stringMatching(/required/i)]));
    expect(errors['to.address.address_line_1']).toEqual(expect.arrayContaining([expect.stringMatching(/required/i)]));
    expect(errors['to.contact.email']).toEqual(expect.arrayContaining([expect.stringMatching(/valid email address/i)]));
  });

  it('R-S-ebv: without bookable validation a non-bookable shipment is imported, and other endpoints reject it until completed', async () => {
    const res = await c.call('POST', '/shipments', { reference_id: 'partial', to: { name: 'Only a name' } });
    expect(res.status).toBeLessThan(300);
    const rates = await c.call('POST', '/shipments/rates', {
      shipment_id: res.body.id,
      requested_pickup_time: '2030-03-04T09:00:00+01:00',
    });
    expect(rates.status).toBeGreaterThanOrEqual(400);
    expect(rates.status).toBeLessThan(500);
  });

  it('R-P-to: `to` is required when packages are attached', async () => {
    const res = await c.call('POST', '/shipments', { from: SENDER_SE, packages: [BOX] });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });

  it('R-C-signature: customs_information without signature is refused (create and update)', async () => {
    const { signature: _s, ...unsigned } = CUSTOMS;
    const res = await c.call('POST', '/shipments', { from: SENDER_SE, to: RECEIVER_NO, packages: [BOX], customs_information: unsigned });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(Object.keys(res.body.errors ?? {}).join()).toContain('signature');
    const id = await create(c, { to: RECEIVER_NO, customs_information: CUSTOMS });
    const upd = await c.call('PUT', `/shipments/${id}`, { customs_information: unsigned });
    expect(upd.status).toBeGreaterThanOrEqual(400);
    expect(upd.status).toBeLessThan(500);
  });

  it('R-C-weights: customs item weights are validated against package weights', async () => {
    const heavy = { ...CUSTOMS, items: [{ ...CUSTOMS.items[0], quantity: 10, unit_weight: 5 }] };
    const res = await c.call('POST', '/shipments', { from: SENDER_SE, to: RECEIVER_NO, packages: [BOX], customs_information: heavy });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });

  it('R-T-required: account_number, postal_code and country_code are each required when the payer object is present', async () => {
    for (const missing of ['account_number', 'postal_code', 'country_code']) {
      const payer: Record<string, string> = { account_number: '1', postal_code: '0150', country_code: 'NO' };
      delete payer[missing];
      const res = await c.call('POST', '/shipments', {
        from: SENDER_SE,
        to: RECEIVER_NO,
        packages: [BOX],
        third_party_customs_payer: payer,
      });
      expect(res.status, missing).toBeGreaterThanOrEqual(400);
      expect(Object.keys(res.body.errors ?? {}).join(), missing).toContain(missing);
    }
  });

  it('R-E-get400: GET /shipments/{id} with a malformed id is 400', async () => {
    expect((await c.call('GET', '/shipments/%20bad%20id%20')).status).toBe(400);
    expect((await c.call('GET', '/shipments/123')).status).toBe(400);
  });
});

describe('defaults (Shipment.from, Endpoints rule 1)', () => {
  it('R-S-from-empty: without from, the team home address and the API user are used, with the team customs numbers', async () => {
    const res = await c.call('POST', '/shipments', { to: RECEIVER_SE, packages: [BOX] });
    const s = (await c.call('GET', `/shipments/${res.body.id}`)).body;
    expect(s.from?.address?.address_line_1).toBeTruthy();
    expect(s.from?.address?.country_code).toMatch(/^[A-Z]{2}$/);
    expect(s.from?.contact).toBeTruthy();
  });
});

describe('update (PUT)', () => {
  it('R-S-put: returns the full updated shipment; id never changes', async () => {
    const id = await create(c, { reference_id: 'u1' });
    const res = await c.call('PUT', `/shipments/${id}`, { reference_id: 'u2', invoice_reference: 'I2' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, reference_id: 'u2', invoice_reference: 'I2' });
    expect(res.body.packages).toHaveLength(1);
    expect(res.body.to).toMatchObject({ name: RECEIVER_SE.name });
  });

  it('R-Pk3: each provided sub-resource fully replaces the stored one (no merge), omitted ones are kept', async () => {
    const id = await create(c, { alternative_from: ALT_FROM, alternative_to: ALT_TO });
    const newTo = {
      name: 'Ny Kund',
      address: { address_line_1: 'Nygatan 5', postal_code: '21120', city: 'Malmö', country_code: 'SE' },
      contact: { name: 'N', email: 'n@example.com' },
    };
    const res = await c.call('PUT', `/shipments/${id}`, {
      to: newTo,
      alternative_from: { ...ALT_FROM, name: 'Lager 2', address: { ...ALT_FROM.address, address_line_2: 'Port 3' } },
    });
    expect(res.status).toBe(200);
    const s = (await c.call('GET', `/shipments/${id}`)).body;
    expect(s.to.name).toBe('Ny Kund');
    expect(s.to.contact.phone ?? null).toBeNull(); // the old receiver's phone is not merged in
    expect(s.alternative_from.name).toBe('Lager 2');
    expect(s.alternative_to).toMatchObject(ALT_TO);
    expect(s.from).toMatchObject({ name: SENDER_SE.name });
  });

  it('R-Pk2/Pk3: an empty packages array keeps the packages; a non-empty one replaces them', async () => {
    const id = await create(c, { packages: [BOX, { ...BOX, weight_kg: 7 }] });
    await c.call('PUT', `/shipments/${id}`, { packages: [] });
    expect((await c.call('GET', `/shipments/${id}`)).body.packages).toHaveLength(2);
    await c.call('PUT', `/shipments/${id}`, { packages: [{ ...BOX, weight_kg: 9 }] });
    const pk = (await c.call('GET', `/shipments/${id}`)).body.packages;
    expect(pk).toHaveLength(1);
    expect(pk[0].weight_kg).toBe(9);
  });

  it('R-T4: omitting third_party_customs_payer keeps it; {} removes it', async () => {
    const payer = { account_number: '998877', postal_code: '0150', country_code: 'NO' };
    const id = await create(c, { to: RECEIVER_NO, third_party_customs_payer: payer });
    await c.call('PUT', `/shipments/${id}`, { reference_id: 'x' });
    expect((await c.call('GET', `/shipments/${id}`)).body.third_party_customs_payer).toEqual(payer);
    const r = await c.call('PUT', `/shipments/${id}`, { third_party_customs_payer: {} });
    expect(r.status).toBe(200);
    const after = (await c.call('GET', `/shipments/${id}`)).body.third_party_customs_payer;
    expect(after === null || after === undefined || (typeof after === 'object' && Object.keys(after).length === 0)).toBe(true);
  });

  it('R-S-sysver: system_version is set on creation only', async () => {
    const id = await create(c, { system_version: '1.0' });
    await c.call('PUT', `/shipments/${id}`, { system_version: '2.0' });
    expect((await c.call('GET', `/shipments/${id}`)).body.system_version).toBe('1.0');
  });

  it('R-E-put-bookable: PUT validates that the shipment is still bookable', async () => {
    const id = await create(c);
    const res = await c.call('PUT', `/shipments/${id}`, { to: { name: 'No address' } });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body.errors).toBeTruthy();
  });

  it('R-St1/St2: a booked shipment refuses PUT and DELETE; an unbooked one can be deleted', async () => {
    const { id } = await createAndBook(c);
    const put = await c.call('PUT', `/shipments/${id}`, { reference_id: 'late' });
    expect(put.status).toBeGreaterThanOrEqual(400);
    expect(put.status).toBeLessThan(500);
    const del = await c.call('DELETE', `/shipments/${id}`);
    expect(del.status).toBeGreaterThanOrEqual(400);
    expect(del.status).toBeLessThan(500);
    expect((await c.call('GET', `/shipments/${id}`)).body.reference_id).not.toBe('late');
    const other = await create(c);
    expect((await c.call('DELETE', `/shipments/${other}`)).status).toBeLessThan(300);
    expect((await c.call('GET', `/shipments/${other}`)).status).toBe(404);
  });
});

describe('GET /shipments', () => {
  it('R-E-list: filters reference_id and status; entries carry customs_information', async () => {
    const ref = `conf-${Date.now()}`;
    const a = await create(c, { reference_id: ref, to: RECEIVER_NO, customs_information: CUSTOMS });
    await create(c, { reference_id: `${ref}-other` });
    const res = await c.call('GET', `/shipments?reference_id=${ref}`);
    expect(res.status).toBe(200);
    const list: any[] = Array.isArray(res.body) ? res.body : res.body.shipments;
    expect(list.map((s) => s.id)).toEqual([a]);
    expect(list[0].customs_information).toMatchObject({ invoice_number: 'F-1' });
    const { id: b } = await createAndBook(c, { reference_id: ref });
    await c.call('POST', '/shipments/cancel', { shipment_id: b });
    const canceled = await c.call('GET', `/shipments?status=CANCELED&reference_id=${ref}`);
    const cl: any[] = Array.isArray(canceled.body) ? canceled.body : canceled.body.shipments;
    expect(cl.map((s) => s.id)).toEqual([b]);
    expect(cl[0].status).toBe('CANCELED');
    const pending = await c.call('GET', `/shipments?status=PENDING&reference_id=${ref}`);
    const pl: any[] = Array.isArray(pending.body) ? pending.body : pending.body.shipments;
    expect(pl.map((s) => s.id)).toEqual([a]);
  });
});
