import { describe, expect, it } from 'vitest';
import {
  apiError,
  BOX,
  createAndBook,
  domestic,
  MALFORMED_ID,
  SE_RECEIVER,
  SE_SENDER,
  useHarness,
  UNKNOWN_ID,
} from '../support/contract-harness';

const h = useHarness();

describe('create and fetch', () => {
  it('POST /shipments returns {id, reference_id}; GET returns the stored record', async () => {
    const created = await h.client.createShipment(
      domestic({ reference_id: 'C-1', sender_reference: 'S-REF', system: 'contract', system_version: '1.0' }),
    );
    expect(created.reference_id).toBe('C-1');
    const stored = await h.client.getShipment(created.id);
    expect(stored.id).toBe(created.id);
    expect(stored.status).toBe('PENDING');
    expect(stored.reference_id).toBe('C-1');
    expect(stored.sender_reference).toBe('S-REF');
    expect(stored.to?.address?.city).toBe('Stockholm');
    expect(stored.packages).toHaveLength(1);
    expect(stored.packages[0]?.weight_kg).toBe(2);
    expect(stored.available_documents_types).toEqual([]);
    expect(stored.tracking_id ?? null).toBeNull();
  });

  it('with enable_bookable_validation, missing data gets the field-error map with dotted paths and indexes', async () => {
    const error = await apiError(
      h.client.createShipment({
        enable_bookable_validation: true,
        from: SE_SENDER,
        to: { ...SE_RECEIVER, address: { ...SE_RECEIVER.address, address_line_1: '' }, contact: { name: 'R', email: 'not-an-email' } },
        packages: [{ depth_cm: 10, height_cm: 10, width_cm: 10 }],
      }),
    );
    expect(error.status).toBe(422);
    expect(error.code).toBe('SERVICE_UNPROCESSABLE');
    expect(error.fieldErrors['packages[0].weight_kg']?.join(' ')).toMatch(/required/);
    expect(error.fieldErrors['to.address.address_line_1']?.join(' ')).toMatch(/required/);
    expect(error.fieldErrors['to.contact.email']?.join(' ')).toMatch(/valid email/);
    expect(error.message).toMatch(/packages\[0\]\.weight_kg|errors/);
  });

  it('without bookable validation an incomplete shipment is imported', async () => {
    const created = await h.client.createShipment({ reference_id: 'IMPORT-1', packages: [] });
    expect((await h.client.getShipment(created.id)).reference_id).toBe('IMPORT-1');
  });

  it('a malformed id gets 400, an unknown one 404', async () => {
    const malformed = await apiError(h.client.getShipment(MALFORMED_ID));
    expect([malformed.status, malformed.code]).toEqual([400, 'SERVICE_BAD_REQUEST']);
    const unknown = await apiError(h.client.getShipment(UNKNOWN_ID));
    expect([unknown.status, unknown.code]).toEqual([404, 'SERVICE_NOT_FOUND']);
  });
});

describe('defaults fill a shipment created without sender, receiver or packages', () => {
  it('no defaults configured: the team home address and API user become the sender', async () => {
    const { id } = await h.client.createShipment({ reference_id: 'DEF-0' });
    const stored = await h.client.getShipment(id);
    expect(stored.from?.address?.address_line_1).toBeTruthy();
    expect(stored.from?.contact?.name).toBeTruthy();
  });

  it('configured defaults fill sender, receiver and packages', async () => {
    const addresses = await h.client.favoriteAddresses();
    const packages = await h.client.favoritePackages();
    const sender = addresses[0]!;
    const receiver = addresses[1]!;
    const pkg = packages[0]!;
    await h.client.patchShipmentDefaults({
      sender_address: { id: sender.id },
      receiver_address: { id: receiver.id },
      package: { id: pkg.id },
    });
    try {
      const { id } = await h.client.createShipment({ reference_id: 'DEF-1' });
      const stored = await h.client.getShipment(id);
      expect(stored.from?.address_book_id).toBe(sender.id);
      expect(stored.to?.address_book_id).toBe(receiver.id);
      expect(stored.packages[0]?.favorite_package_id).toBe(pkg.id);
    } finally {
      await h.client.patchShipmentDefaults({ sender_address: null, receiver_address: null, package: null });
    }
  });
});

describe('update rules', () => {
  const payer = { account_number: 'ACC-1', postal_code: '0150', country_code: 'NO' };

  it('each provided sub-resource replaces the stored one; omitted ones are kept', async () => {
    const { id } = await h.client.createShipment(
      domestic({ reference_id: 'U-1', alternative_to: { name: 'Alt', address: { city: 'Uppsala', country_code: 'SE' } } }),
    );
    const newTo = { ...SE_RECEIVER, name: 'Replaced AB', contact: { name: 'New Person', email: 'new@x.example' } };
    const updated = await h.client.updateShipment(id, { to: newTo });
    expect(updated.to?.name).toBe('Replaced AB');
    expect(updated.to?.contact?.phone ?? null).toBeNull(); // replaced, not merged
    expect(updated.from?.name).toBe(SE_SENDER.name); // omitted: kept
    expect(updated.alternative_to?.address?.city).toBe('Uppsala');
    expect(updated.packages).toHaveLength(1);
  });

  it('a non-empty packages array replaces the packages', async () => {
    const { id } = await h.client.createShipment(domestic());
    const updated = await h.client.updateShipment(id, {
      packages: [
        { ...BOX, weight_kg: 7 },
        { ...BOX, weight_kg: 3 },
      ],
    });
    expect(updated.packages.map((p) => p.weight_kg)).toEqual([7, 3]);
  });

  it('an empty packages array keeps the stored packages', async () => {
    const { id } = await h.client.createShipment(domestic({ packages: [{ ...BOX, weight_kg: 4 }] }));
    const updated = await h.client.updateShipment(id, { packages: [] });
    expect(updated.packages.map((p) => p.weight_kg)).toEqual([4]);
  });

  it('an omitted third_party_customs_payer keeps the stored one; {} removes it', async () => {
    const { id } = await h.client.createShipment(domestic({ third_party_customs_payer: payer }));
    expect((await h.client.getShipment(id)).third_party_customs_payer?.account_number).toBe('ACC-1');
    const kept = await h.client.updateShipment(id, { reference_id: 'U-PAYER' });
    expect(kept.third_party_customs_payer?.account_number).toBe('ACC-1');
    const removed = await h.client.updateShipment(id, { third_party_customs_payer: {} });
    expect(removed.third_party_customs_payer ?? null).toBeNull();
  });

  it('PUT validates that the shipment stays bookable', async () => {
    const { id } = await h.client.createShipment(domestic());
    const error = await apiError(h.client.updateShipment(id, { packages: [{ depth_cm: 1, height_cm: 1, width_cm: 1 }] }));
    expect(error.status).toBe(422);
    expect(Object.keys(error.fieldErrors)).toContain('packages[0].weight_kg');
  });

  it('a booked shipment refuses PUT and DELETE', async () => {
    const { id } = await createAndBook(h.client);
    const put = await apiError(h.client.updateShipment(id, { reference_id: 'nope' }));
    expect(put.status).toBeGreaterThanOrEqual(400);
    expect(put.code).toBe('SERVICE_CONFLICT');
    const del = await apiError(h.client.deleteShipment(id));
    expect(del.code).toBe('SERVICE_CONFLICT');
    expect((await h.client.getShipment(id)).status).toBe('BOOKED');
  });

  it('PUT on a malformed id gets 400, on an unknown one 404', async () => {
    expect((await apiError(h.client.updateShipment(MALFORMED_ID, {}))).status).toBe(400);
    expect((await apiError(h.client.updateShipment(UNKNOWN_ID, {}))).status).toBe(404);
  });
});

describe('delete', () => {
  it('DELETE removes an unbooked shipment', async () => {
    const { id } = await h.client.createShipment(domestic());
    await h.client.deleteShipment(id);
    expect((await apiError(h.client.getShipment(id))).status).toBe(404);
  });

  it('DELETE on a malformed id gets 400, on an unknown one 404', async () => {
    expect((await apiError(h.client.deleteShipment(MALFORMED_ID))).status).toBe(400);
    expect((await apiError(h.client.deleteShipment(UNKNOWN_ID))).status).toBe(404);
  });
});

describe('list and filters', () => {
  it('filters by reference_id and by status, with paging and a total', async () => {
    const ref = `LIST-${Date.now()}`;
    const a = await h.client.createShipment(domestic({ reference_id: ref }));
    const b = await h.client.createShipment(domestic({ reference_id: ref }));
    await h.client.createShipment(domestic({ reference_id: `${ref}-other` }));

    const byRef = await h.client.listShipments({ reference_id: ref });
    expect(byRef.map((s) => s.id).sort()).toEqual([a.id, b.id].sort());
    // Newest change first.
    expect(byRef[0]!.id).toBe(b.id);

    const page = await h.client.listShipmentsPage({ reference_id: ref, limit: 1, offset: 1 });
    expect(page.total).toBe(2);
    expect(page.shipments.map((s) => s.id)).toEqual([a.id]);

    const booked = await createAndBook(h.client, domestic({ reference_id: `${ref}-c` }));
    await h.client.cancel({ shipment_id: booked.id });
    const canceled = await h.client.listShipments({ status: 'CANCELED' });
    expect(canceled.map((s) => s.id)).toContain(booked.id);
    expect(canceled.every((s) => s.status === 'CANCELED')).toBe(true);
  });

  it('a listed shipment carries its customs_information', async () => {
    const ref = `CUSTOMS-${Date.now()}`;
    await h.client.createShipment(
      domestic({ reference_id: ref, customs_information: { invoice_type: 'commercial', currency: 'SEK', signature: 'A. S.' } }),
    );
    const [listed] = await h.client.listShipments({ reference_id: ref });
    expect(listed?.customs_information?.signature).toBe('A. S.');
  });
});
