import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAVORITE_ADDRESSES, FAVORITE_PACKAGES } from '../../../src/sandbox/catalog';
import type { Sandbox } from '../../../src/sandbox/server';
import { Api, started } from '../../support/sandbox-api';

let sandbox: Sandbox;
let api: Api;
beforeAll(async () => ({ sandbox, api } = await started()));
afterAll(async () => sandbox.close());

describe('reference data', () => {
  it('GET /carriers lists {carrier, name}', async () => {
    const res = await api.call('GET', '/carriers');
    expect(res.status).toBe(200);
    expect(res.body.carriers).toContainEqual({ carrier: 'postnord', name: 'PostNord' });
    for (const c of res.body.carriers) expect(Object.keys(c).sort()).toEqual(['carrier', 'name']);
  });

  it('GET /printers lists {id, name, description}', async () => {
    const res = await api.call('GET', '/printers');
    expect(res.body.printers.length).toBeGreaterThan(0);
    for (const p of res.body.printers)
      expect(p).toEqual({ id: expect.any(String), name: expect.any(String), description: expect.any(String) });
  });

  it('POST /locations/servicepoints returns locations with string fields and usable tokens, filterable by carrier', async () => {
    const res = await api.call('POST', '/locations/servicepoints', {
      address_line: 'Drottninggatan 10',
      postal_code: '11151',
      city: 'Stockholm',
      country_code: 'SE',
    });
    expect(res.status).toBe(200);
    expect(res.body.locations.length).toBeGreaterThan(0);
    for (const l of res.body.locations) {
      for (const f of [
        'carrier',
        'service_point_token',
        'service_point_name',
        'address_line',
        'postal_code',
        'city',
        'country_code',
        'distance_by_road',
        'distance_great_circle',
      ]) {
        expect(typeof l[f]).toBe('string');
      }
    }
    const other = await api.call('POST', '/locations/servicepoints', { postal_code: '11151', country_code: 'SE', carrier: 'bring' });
    expect(other.body.locations).toEqual([]);
    const bad = await api.call('POST', '/locations/servicepoints', { postal_code: '11151' });
    expect(bad.status).toBe(400);
  });

  it('POST /favorites/addresses searches the address book', async () => {
    const all = await api.call('POST', '/favorites/addresses', {});
    expect(all.body.addresses.map((a: { id: string }) => a.id)).toEqual(FAVORITE_ADDRESSES.map((a) => a.id));
    const hit = await api.call('POST', '/favorites/addresses', { query: 'warehouse' });
    expect(hit.body.addresses).toEqual([
      expect.objectContaining({ id: FAVORITE_ADDRESSES[0]!.id, contact: expect.objectContaining({ name: 'Wera Warehouse' }) }),
    ]);
  });

  it('GET /favorites/packages lists packages with id and dangerous_goods_type', async () => {
    const res = await api.call('GET', '/favorites/packages');
    expect(res.body.packages).toHaveLength(FAVORITE_PACKAGES.length);
    for (const p of res.body.packages) expect(p).toHaveProperty('dangerous_goods_type');
  });

  it('GET /shipping-rules lists enabled and disabled rules, hash equal to id', async () => {
    const res = await api.call('GET', '/shipping-rules');
    const rules = res.body.shipping_rules;
    expect(rules.some((r: any) => r.enabled)).toBe(true);
    expect(rules.some((r: any) => !r.enabled)).toBe(true);
    for (const r of rules) {
      expect(r).toEqual({
        id: expect.any(String),
        hash: r.id,
        name: expect.any(String),
        type: expect.any(String),
        category: 'search',
        enabled: expect.any(Boolean),
      });
    }
  });

  it('GET/PATCH /shipment-defaults set, read and clear the three defaults; a foreign id is 422', async () => {
    expect((await api.call('GET', '/shipment-defaults')).body).toEqual({ sender_address: null, receiver_address: null, package: null });
    const set = await api.call('PATCH', '/shipment-defaults', {
      receiver_address: { id: FAVORITE_ADDRESSES[1]!.id },
      package: { id: FAVORITE_PACKAGES[2]!.id },
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      sender_address: null,
      receiver_address: { id: FAVORITE_ADDRESSES[1]!.id },
      package: { id: FAVORITE_PACKAGES[2]!.id },
    });
    const foreign = await api.call('PATCH', '/shipment-defaults', { sender_address: { id: '3f0c1d2e-4b5a-4c6d-8e7f-9a0b1c2d3e4f' } });
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors).toEqual({ 'sender_address.id': [expect.any(String)] });
    const packageAsAddress = await api.call('PATCH', '/shipment-defaults', { receiver_address: { id: FAVORITE_PACKAGES[0]!.id } });
    expect(packageAsAddress.status).toBe(422);
    const cleared = await api.call('PATCH', '/shipment-defaults', { package: null });
    expect(cleared.body).toMatchObject({ receiver_address: { id: FAVORITE_ADDRESSES[1]!.id }, package: null });
  });
});
