import { describe, expect, it } from 'vitest';
import { apiError, useHarness } from '../support/contract-harness';

const h = useHarness();

describe('reference data', () => {
  it('GET /carriers: {carriers: [{carrier, name}]}', async () => {
    const { carriers } = await h.client.carriers();
    expect(carriers.length).toBeGreaterThan(0);
    for (const c of carriers) {
      expect(c.carrier).toMatch(/\S/);
      expect(c.name).toMatch(/\S/);
    }
  });

  it('GET /printers: {printers: [{id, name, description}]}', async () => {
    const { printers } = await h.client.printers();
    expect(printers.length).toBeGreaterThan(0);
    expect(printers[0]!.id).toMatch(/\S/);
    expect(printers[0]!.name).toMatch(/\S/);
  });

  it('POST /locations/servicepoints: {locations} with tokens; the carrier filter narrows them', async () => {
    const search = { address_line: 'Drottninggatan 10', postal_code: '11151', city: 'Stockholm', country_code: 'SE' };
    const { locations } = await h.client.servicePoints(search);
    expect(locations.length).toBeGreaterThan(0);
    const first = locations[0]!;
    expect(first.service_point_token).toMatch(/\S/);
    expect(typeof first.distance_by_road).toBe('string');
    const { locations: none } = await h.client.servicePoints({ ...search, carrier: 'no-such-carrier' });
    expect(none).toEqual([]);
  });

  it('POST /favorites/addresses: entries with id and contact details; a query narrows them', async () => {
    const all = await h.client.favoriteAddresses();
    expect(all.length).toBeGreaterThan(1);
    for (const entry of all) expect(entry.id).toMatch(/\S/);
    const some = await h.client.favoriteAddresses({ query: 'Stockholm' });
    expect(some.length).toBeGreaterThan(0);
    expect(some.length).toBeLessThan(all.length);
  });

  it('GET /favorites/packages: entries with id and dangerous_goods_type', async () => {
    const packages = await h.client.favoritePackages();
    expect(packages.length).toBeGreaterThan(0);
    expect(packages.some((p) => p.dangerous_goods_type === 'limited_quantity')).toBe(true);
  });

  it('GET /shipping-rules: enabled and disabled rules; hash carries the same value as id', async () => {
    const { shipping_rules } = await h.client.shippingRules();
    expect(shipping_rules.some((r) => r.enabled === true)).toBe(true);
    expect(shipping_rules.some((r) => r.enabled === false)).toBe(true);
    for (const r of shipping_rules) {
      expect(typeof r.id).toBe('string');
      expect(r.hash).toBe(r.id);
    }
  });
});

describe('shipment defaults', () => {
  it('GET, PATCH with own ids, and null clears', async () => {
    const [address] = await h.client.favoriteAddresses();
    const [pkg] = await h.client.favoritePackages();
    const patched = await h.client.patchShipmentDefaults({ sender_address: { id: address!.id }, package: { id: pkg!.id } });
    expect(patched?.sender_address?.id).toBe(address!.id);
    const read = await h.client.shipmentDefaults();
    expect(read.sender_address?.id).toBe(address!.id);
    expect(read.package?.id).toBe(pkg!.id);
    await h.client.patchShipmentDefaults({ sender_address: null, package: null });
    const cleared = await h.client.shipmentDefaults();
    expect(cleared.sender_address ?? null).toBeNull();
    expect(cleared.package ?? null).toBeNull();
  });

  it('PATCH with an id that is not one of the caller’s entries → 422', async () => {
    const error = await apiError(h.client.patchShipmentDefaults({ receiver_address: { id: '11111111-2222-4333-8444-555555555555' } }));
    expect([error.status, error.code]).toEqual([422, 'SERVICE_UNPROCESSABLE']);
    expect(Object.keys(error.fieldErrors)).toEqual(['receiver_address.id']);
  });
});
