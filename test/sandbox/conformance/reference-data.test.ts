/** Spec: Endpoints reference rows, Other records (Carrier, Printer, Service point, Favorites, Status), shipping rule record, Endpoints rule 1, Errors 3 (PATCH 422). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { open, RECEIVER_SE, type Conn } from './raw';

let c: Conn;
beforeAll(async () => {
  c = await open();
});
afterAll(async () => {
  await c.sandbox.close();
});

describe('reference data', () => {
  it('R-RD-carriers: GET /carriers is {carriers: [{carrier, name}]}', async () => {
    const res = await c.call('GET', '/carriers');
    expect(res.status).toBe(200);
    expect(res.body.carriers.length).toBeGreaterThan(0);
    for (const k of res.body.carriers) {
      expect(typeof k.carrier).toBe('string');
      expect(typeof k.name).toBe('string');
    }
  });

  it('R-RD-printers: GET /printers is {printers: [{id, name, description}]}', async () => {
    const res = await c.call('GET', '/printers');
    expect(res.status).toBe(200);
    expect(res.body.printers.length).toBeGreaterThan(0);
    for (const p of res.body.printers) for (const k of ['id', 'name', 'description']) expect(typeof p[k], k).toBe('string');
  });

  it('R-RD-sp: POST /locations/servicepoints answers {locations} whose nine fields are all strings', async () => {
    const res = await c.call('POST', '/locations/servicepoints', {
      address_line: RECEIVER_SE.address.address_line_1,
      postal_code: '11122',
      city: 'Stockholm',
      country_code: 'SE',
    });
    expect(res.status).toBe(200);
    expect(res.body.locations.length).toBeGreaterThan(0);
    for (const l of res.body.locations) {
      for (const k of [
        'carrier',
        'service_point_token',
        'service_point_name',
        'address_line',
        'postal_code',
        'city',
        'country_code',
        'distance_by_road',
        'distance_great_circle',
      ])
        expect(typeof l[k], k).toBe('string');
    }
  });

  it('R-RD-fav-addr: POST /favorites/addresses returns entries with id and contact details', async () => {
    const res = await c.call('POST', '/favorites/addresses', {});
    expect(res.status).toBe(200);
    const entries: any[] = Array.isArray(res.body) ? res.body : (Object.values(res.body).find(Array.isArray) as any[]);
    expect(entries.length).toBeGreaterThan(0);
    for (const e of entries) expect(typeof e.id).toBe('string');
    expect(entries.some((e) => e.contact && (e.contact.name || e.contact.email || e.contact.phone))).toBe(true);
  });

  it('R-RD-fav-pkg: GET /favorites/packages lists packages with id and dangerous_goods_type', async () => {
    const res = await c.call('GET', '/favorites/packages');
    expect(res.status).toBe(200);
    const list: any[] = Array.isArray(res.body) ? res.body : (Object.values(res.body).find(Array.isArray) as any[]);
    expect(list.length).toBeGreaterThan(0);
    for (const p of list) {
      expect(typeof p.id).toBe('string');
      expect('dangerous_goods_type' in p).toBe(true);
    }
    expect(list.some((p) => ['limited_quantity', 'adr'].includes(p.dangerous_goods_type))).toBe(true);
  });

  it('R-RD-rules: GET /shipping-rules is {shipping_rules} with enabled and disabled rules, string id, hash = id', async () => {
    const res = await c.call('GET', '/shipping-rules');
    expect(res.status).toBe(200);
    const rules: any[] = res.body.shipping_rules;
    expect(rules.some((r) => r.enabled === true)).toBe(true);
    expect(rules.some((r) => r.enabled === false)).toBe(true);
    for (const r of rules) {
      expect(typeof r.id).toBe('string');
      expect(r.hash).toBe(r.id);
      expect(typeof r.name).toBe('string');
      expect(typeof r.type).toBe('string');
      expect(typeof r.category).toBe('string');
    }
  });
});

describe('shipment defaults (Endpoints rule 1, Errors 3)', () => {
  it('R-EP1: defaults PATCHed by {id} fill a shipment created without sender, receiver and packages; null clears', async () => {
    const addrs: any[] = (await c.call('POST', '/favorites/addresses', {})).body.addresses;
    const pkgs: any[] = (await c.call('GET', '/favorites/packages')).body.packages;
    const get0 = await c.call('GET', '/shipment-defaults');
    expect(get0.status).toBe(200);
    const fields = Object.keys(get0.body);
    expect(fields.length).toBe(3);
    const field = (w: string): string => fields.find((f) => f.includes(w)) ?? w;
    const [senderF, receiverF, packageF] = [field('sender'), field('receiver'), field('package')];
    const sender = addrs.find((a) => a.name);
    const receiver = addrs.find((a) => a.name && a.id !== sender.id);
    const patch = await c.call('PATCH', '/shipment-defaults', {
      [senderF]: { id: sender.id },
      [receiverF]: { id: receiver.id },
      [packageF]: { id: pkgs[0].id },
    });
    expect(patch.status).toBeLessThan(300);
    const created = await c.call('POST', '/shipments', {});
    expect(created.status).toBeLessThan(300);
    const s = (await c.call('GET', `/shipments/${created.body.id}`)).body;
    expect(s.from.name).toBe(sender.name);
    expect(s.from.address).toMatchObject(sender.address);
    for (const k of ['eori_number', 'vat_number', 'voec_number']) if (sender[k]) expect(JSON.stringify(s.from), k).toContain(sender[k]);
    expect(s.to.name).toBe(receiver.name);
    expect(s.packages).toHaveLength(1);
    expect(s.packages[0].weight_kg).toBe(pkgs[0].weight_kg);
    await c.call('PATCH', '/shipment-defaults', { [senderF]: null, [receiverF]: null, [packageF]: null });
    const cleared = (await c.call('GET', '/shipment-defaults')).body;
    for (const f of fields) expect(cleared[f]).toBeNull();
  });

  it('R-S-from-fallback: a default sender entry without name or contact falls back to the team name and the API user', async () => {
    const addrs: any[] = (await c.call('POST', '/favorites/addresses', {})).body.addresses;
    const bare = addrs.find((a) => !a.name);
    expect(bare).toBeTruthy();
    const fields = Object.keys((await c.call('GET', '/shipment-defaults')).body);
    const senderF = fields.find((f) => f.includes('sender')) ?? 'sender';
    await c.call('PATCH', '/shipment-defaults', { [senderF]: { id: bare.id } });
    const team = (await c.call('GET', '/status')).body.team;
    const created = await c.call('POST', '/shipments', { to: RECEIVER_SE });
    const s = (await c.call('GET', `/shipments/${created.body.id}`)).body;
    expect(s.from.name).toBe(team);
    expect(s.from.contact).toBeTruthy();
    expect(s.from.address).toMatchObject(bare.address);
    await c.call('PATCH', '/shipment-defaults', { [senderF]: null });
  });

  it("R-Err3-422: PATCH /shipment-defaults with an id that is not one of the caller's entries is 422", async () => {
    const fields = Object.keys((await c.call('GET', '/shipment-defaults')).body);
    for (const f of fields) {
      const res = await c.call('PATCH', '/shipment-defaults', { [f]: { id: '00000000-0000-4000-8000-000000000000' } });
      expect(res.status, f).toBe(422);
    }
  });
});
