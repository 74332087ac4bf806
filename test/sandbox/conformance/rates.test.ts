/** Spec: Rate request, required_addons, Rate response, Endpoints rules 2-6 and 10, Errors 3-5, Limits (token, field lengths), Versioning 4. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOX, create, CUSTOMS, ISO_TZ, open, RECEIVER_NO, RECEIVER_SE, rateSearch, SENDER_SE, type Conn } from './raw';

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

const num = (p: string): number => Number.parseFloat(p);

describe('rate response shape', () => {
  it('R-R-fields: every rate carries the spec fields with the spec types and formats', async () => {
    const id = await create(c);
    const res = await rateSearch(c, id);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body.rates)).toBe(true);
    expect(Array.isArray(res.body.warnings)).toBe(true);
    expect(Array.isArray(res.body.applied_shipping_rules)).toBe(true);
    expect(res.body.rates.length).toBeGreaterThan(0);
    for (const r of res.body.rates) {
      expect(Number.isInteger(r.price_rank)).toBe(true);
      expect(r.shipment_id).toBe(id);
      for (const k of ['booking_token', 'carrier_name', 'product_name', 'price', 'currency', 'expires_at'])
        expect(typeof r[k], k).toBe('string');
      expect(Number.isInteger(r.transport_business_days_min)).toBe(true);
      expect(Number.isInteger(r.transport_business_days_max)).toBe(true);
      expect(r.expires_at).toMatch(ISO_TZ);
      for (const k of ['receiver_pays', 'own_agreement', 'require_delivery_service_point', 'third_party_customs_payer_supported'])
        expect(typeof r[k], k).toBe('boolean');
      expect(Array.isArray(r.required_documents)).toBe(true);
      expect(r.pickup.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(r.pickup.cutoff_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      for (const k of ['cutoff_time', 'time_window_start', 'time_window_end']) expect(r.pickup[k], k).toMatch(/^\d{2}:\d{2}:\d{2}$/);
      expect(r.estimated_delivery.earliest_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(r.estimated_delivery).toHaveProperty('time_window_start');
      expect(r.estimated_delivery).toHaveProperty('time_window_end');
      expect(Number.isFinite(num(r.price))).toBe(true);
    }
  });

  it('R-R-sort: price_rank 1 is the cheapest, sorted by price lowest first', async () => {
    const id = await create(c);
    const rates: any[] = (await rateSearch(c, id)).body.rates;
    expect(rates.map((r) => r.price_rank)).toEqual(rates.map((_, i) => i + 1));
    for (let i = 1; i < rates.length; i++) expect(num(rates[i].price)).toBeGreaterThanOrEqual(num(rates[i - 1].price));
  });

  it('R-R-token: booking_token is valid 30 minutes (expires_at is 30 min after issue)', async () => {
    let now = new Date('2030-01-02T08:00:00Z');
    const t = await open({ now: () => now });
    try {
      const id = await create(t);
      const r = (await rateSearch(t, id)).body.rates[0];
      expect(Date.parse(r.expires_at)).toBe(now.getTime() + 30 * 60_000);
      now = new Date(now.getTime() + 30 * 60_000 + 1000);
      const late = await t.call('POST', '/shipments/book', { booking_token: r.booking_token });
      expect(late.status).toBeGreaterThanOrEqual(400);
      expect(late.status).toBeLessThan(500);
    } finally {
      await t.sandbox.close();
    }
  });

  it('R-R-pickup: 422 without requested_pickup_time unless without_pickup is true; with it rates are searched from the current time', async () => {
    const id = await create(c);
    expect((await c.call('POST', '/shipments/rates', { shipment_id: id })).status).toBe(422);
    expect((await c.call('POST', '/shipments/rates', { shipment_id: id, required_addons: { without_pickup: false } })).status).toBe(422);
    const ok = await c.call('POST', '/shipments/rates', { shipment_id: id, required_addons: { without_pickup: true } });
    expect(ok.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    for (const r of ok.body.rates) expect(r.pickup.date >= today).toBe(true);
  });

  it('R-R-addons: all 17 required_addons fields are accepted with their spec types', async () => {
    const id = await create(c);
    const addons: Record<string, unknown> = {
      insurance: { declared_value: '1000', declared_currency: 'SEK' },
      definite_loading: '08:00:00',
      definite_unloading: '2030-03-05T10:00:00+01:00',
      guaranteed_delivery_time: '10:00:00',
      dangerous_goods_limited_quantity: false,
    };
    for (const b of [
      'notification',
      'indoor_delivery',
      'pickup_notification',
      'delivery_notice',
      'green_shipping',
      'tailgate_lift_unloading',
      'tailgate_lift_loading',
      'delivery_without_proof',
      'thermo_heat',
      'without_pickup',
      'collection_at_terminal',
      'receiver_pays',
    ])
      addons[b] = false;
    expect(Object.keys(addons)).toHaveLength(17);
    for (const [k, v] of Object.entries(addons)) {
      const res = await rateSearch(c, id, { required_addons: { [k]: v } });
      expect([200, 400], `${k}: ${res.text.slice(0, 200)}`).toContain(res.status);
      if (res.status === 400) expect(res.body.errors, k).toBeUndefined();
    }
  });
});

describe('Endpoints rule 2: addons', () => {
  it('R-EP2: only rates supporting all requested addons; the price includes the addon', async () => {
    const id = await create(c);
    const plain: any[] = (await rateSearch(c, id)).body.rates;
    const withAddon: any[] = (await rateSearch(c, id, { required_addons: { indoor_delivery: true } })).body.rates ?? [];
    expect(withAddon.length).toBeGreaterThan(0);
    expect(withAddon.length).toBeLessThan(plain.length);
    for (const r of withAddon) {
      const base = plain.find((p) => p.carrier_name === r.carrier_name && p.product_name === r.product_name);
      expect(base).toBeTruthy();
      expect(num(r.price)).toBeGreaterThan(num(base.price));
    }
  });

  it('R-EP2b/Err3-400: incompatible addons leave no rate and no warning: 400', async () => {
    const id = await create(c);
    const res = await rateSearch(c, id, { required_addons: { indoor_delivery: true, thermo_heat: true, tailgate_lift_loading: true } });
    // Errors 3: no rates and no warnings at all is 400; Endpoints 236: 200 only when a rate or warning exists.
    expect(res.status).toBe(400);
  });
});

describe('non-EU (Endpoints rule 6, Errors 3)', () => {
  it('R-EP6: without included_non_eu_rates a non-EU route gets no rates (400 with no warnings); with it, rates list required_documents', async () => {
    const id = await create(c, { to: RECEIVER_NO });
    const without = await rateSearch(c, id);
    expect(without.status).toBe(400);
    const withIt = await rateSearch(c, id, { included_non_eu_rates: true });
    expect(withIt.status).toBe(200);
    expect(withIt.body.rates.length).toBeGreaterThan(0);
    const allowed = ['customsinvoice', 'abd', 'salesinvoice', 'adr_dangerousgoods'];
    for (const r of withIt.body.rates) for (const d of r.required_documents) expect(allowed).toContain(d);
    expect(withIt.body.rates.some((r: any) => r.required_documents.includes('customsinvoice'))).toBe(true);
  });

  it('R-EP6-import: an import (sender outside the EU) also needs included_non_eu_rates', async () => {
    const id = await create(c, { from: RECEIVER_NO, to: RECEIVER_SE });
    expect((await rateSearch(c, id)).status).toBe(400);
    expect((await rateSearch(c, id, { included_non_eu_rates: true })).status).toBe(200);
  });

  it('R-C1: complete customs data removes customsinvoice from required_documents', async () => {
    const id = await create(c, { to: RECEIVER_NO, customs_information: CUSTOMS });
    const res = await rateSearch(c, id, { included_non_eu_rates: true });
    for (const r of res.body.rates) expect(r.required_documents).not.toContain('customsinvoice');
  });
});

describe('service points (Endpoints rule 5)', () => {
  it('R-EP5: service-point rates only with include_service_point_rates and a private-individual receiver', async () => {
    const company = await create(c);
    const priv = await create(c, { to: { ...RECEIVER_SE, is_private_individual: true } });
    const sp = (r: any) => r.require_delivery_service_point === true;
    expect((await rateSearch(c, priv)).body.rates.some(sp)).toBe(false);
    expect((await rateSearch(c, company, { include_service_point_rates: true })).body.rates.some(sp)).toBe(false);
    expect((await rateSearch(c, priv, { include_service_point_rates: true })).body.rates.some(sp)).toBe(true);
  });
});

describe('receiver pays (Endpoints rule 4, Versioning 4)', () => {
  it('R-EP4: only carriers with a to.carrier_accounts entry; price "-"', async () => {
    const rates0: any[] = (await rateSearch(c, await create(c))).body.rates;
    const carriers = [...new Set(rates0.map((r) => r.carrier_name))];
    const none = await rateSearch(c, await create(c), { required_addons: { receiver_pays: true } });
    expect(none.status === 400 || none.body.rates.length === 0).toBe(true);
    const list = (await c.call('GET', '/carriers')).body.carriers as any[];
    const acct = list.map((k) => ({ carrier: k.carrier, account_identifier: 'ACC-1' }));
    const all = await rateSearch(c, await create(c, { to: { ...RECEIVER_SE, carrier_accounts: acct } }), {
      required_addons: { receiver_pays: true },
    });
    expect(all.status).toBe(200);
    expect(all.body.rates.length).toBeGreaterThan(0);
    for (const r of all.body.rates) {
      expect(r.price).toBe('-');
      expect(r.receiver_pays).toBe(true);
    }
    const rpCarriers = [...new Set((all.body.rates as any[]).map((r) => r.carrier_name))];
    expect(rpCarriers.length).toBeGreaterThan(0);
    expect(carriers.length).toBeGreaterThanOrEqual(rpCarriers.length);
    const first = list.find((k) => (all.body.rates as any[]).some((r) => r.carrier_name === k.name));
    const one = await rateSearch(
      c,
      await create(c, { to: { ...RECEIVER_SE, carrier_accounts: [{ carrier: first.carrier, account_identifier: 'ACC-2' }] } }),
      { required_addons: { receiver_pays: true } },
    );
    expect(one.body.rates.length).toBeGreaterThan(0);
    for (const r of one.body.rates) expect(r.carrier_name).toBe(first.name);
  });
});

describe('dangerous goods (Endpoints rules 3, 10; Package rule 1)', () => {
  it('R-EP10: an ADR shipment from a team without ADR approval is 422', async () => {
    const id = await create(c, { packages: [{ ...BOX, dangerous_goods_type: 'adr' }] });
    expect((await rateSearch(c, id)).status).toBe(422);
  });

  it('R-Pk1: one adr package makes the whole shipment fully regulated', async () => {
    const id = await create(c, {
      packages: [BOX, { ...BOX, dangerous_goods_type: 'limited_quantity' }, { ...BOX, dangerous_goods_type: 'adr' }],
    });
    expect((await rateSearch(c, id)).status).toBe(422);
    const idA = await create(adr, {
      packages: [BOX, { ...BOX, dangerous_goods_type: 'limited_quantity' }, { ...BOX, dangerous_goods_type: 'adr' }],
    });
    const pure = await create(adr, { packages: [{ ...BOX, dangerous_goods_type: 'adr' }] });
    const mixed: any[] = (await rateSearch(adr, idA)).body.rates;
    const only: any[] = (await rateSearch(adr, pure)).body.rates;
    expect(mixed.map((r) => r.product_name).sort()).toEqual(only.map((r) => r.product_name).sort());
  });

  it('R-EP3: DG searches return only products supporting the type; limited quantity is available to every team', async () => {
    const plain: any[] = (await rateSearch(c, await create(c))).body.rates;
    const lq = await rateSearch(c, await create(c, { packages: [{ ...BOX, dangerous_goods_type: 'limited_quantity' }] }));
    expect(lq.status).toBe(200);
    expect(lq.body.rates.length).toBeGreaterThan(0);
    expect(lq.body.rates.length).toBeLessThanOrEqual(plain.length);
    // the search applies the needed addons: the same product costs more with dangerous goods
    for (const r of lq.body.rates) {
      const base = plain.find((p: any) => p.product_name === r.product_name && p.carrier_name === r.carrier_name);
      expect(num(r.price), r.product_name).toBeGreaterThan(num(base.price));
    }
    const a = await rateSearch(adr, await create(adr, { packages: [{ ...BOX, dangerous_goods_type: 'adr' }] }));
    expect(a.status).toBe(200);
    expect(a.body.rates.length).toBeGreaterThan(0);
    expect(a.body.rates.length).toBeLessThan(plain.length);
  });
});

describe('shipping rules (Rate request shipping_rule_ids, Versioning 4)', () => {
  it('R-RR-rules: unknown id 400; disabled rules can be selected by id; ids win over hashes; applied entries have string ids', async () => {
    const rules: any[] = (await c.call('GET', '/shipping-rules')).body.shipping_rules;
    const id = await create(c);
    expect((await rateSearch(c, id, { shipping_rule_ids: ['no-such-rule'] })).status).toBe(400);
    const disabled = rules.find((r) => !r.enabled && r.type === 'exclude');
    expect(disabled).toBeTruthy();
    const base: any[] = (await rateSearch(c, id, { shipping_rule_ids: [] })).body.rates;
    const res = await rateSearch(c, id, { shipping_rule_ids: [disabled.id] });
    expect(res.status).toBe(200);
    expect(res.body.rates.length).toBeLessThan(base.length);
    expect(res.body.applied_shipping_rules.map((r: any) => r.id)).toContain(disabled.id);
    for (const r of res.body.applied_shipping_rules) {
      expect(typeof r.id).toBe('string');
      expect(typeof r.name).toBe('string');
      expect(typeof r.type).toBe('string');
      expect(typeof r.category).toBe('string');
      expect(typeof r.enabled).toBe('boolean');
    }
    const hashes = await rateSearch(c, id, { shipping_rule_hashes: [disabled.hash] });
    expect(hashes.body.rates.length).toBe(res.body.rates.length);
    const both = await rateSearch(c, id, { shipping_rule_ids: [], shipping_rule_hashes: [disabled.hash] });
    expect(both.body.rates.length).toBe(base.length);
  });
});

describe('rule targets (Party.address_book_id, Package.favorite_package_id)', () => {
  it('R-P-abid-rules: without shipping_rule_ids only enabled rules apply; an address book id on `to` or a favorite package id lets rules targeting them apply', async () => {
    const base = (await rateSearch(c, await create(c))).body;
    for (const r of base.applied_shipping_rules) expect(r.enabled).toBe(true);
    const addrs: any[] = (await c.call('POST', '/favorites/addresses', {})).body.addresses;
    const pkgs: any[] = (await c.call('GET', '/favorites/packages')).body.packages;
    const appliedWith = async (body: Record<string, unknown>) =>
      (await rateSearch(c, await create(c, body))).body.applied_shipping_rules
        .map((r: any) => r.id)
        .sort()
        .join();
    const baseIds = base.applied_shipping_rules
      .map((r: any) => r.id)
      .sort()
      .join();
    const byAddress = await Promise.all(addrs.map((a) => appliedWith({ to: { ...RECEIVER_SE, address_book_id: a.id } })));
    const byPackage = await Promise.all(
      pkgs.filter((p) => !p.dangerous_goods_type).map((p) => appliedWith({ packages: [{ ...BOX, favorite_package_id: p.id }] })),
    );
    expect(byAddress.some((ids) => ids !== baseIds)).toBe(true);
    expect(byPackage.some((ids) => ids !== baseIds)).toBe(true);
  });
});

describe('warnings (Errors 5, Limits field lengths)', () => {
  it('R-W: a company name over 27 or contact name over 22 excludes the product with one warning entry per product, HTTP 200', async () => {
    const longTo = { ...RECEIVER_SE, name: 'A'.repeat(28), contact: { ...RECEIVER_SE.contact, name: 'B'.repeat(23) } };
    const res = await rateSearch(c, await create(c, { to: longTo }));
    expect(res.status).toBe(200);
    expect(res.body.warnings.length).toBeGreaterThan(0);
    const keys = res.body.warnings.map((w: any) => `${w.carrier_name}/${w.carrier_product_code}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const w of res.body.warnings) {
      expect(typeof w.carrier_name).toBe('string');
      expect(typeof w.carrier_product_code).toBe('string');
      expect(w.warnings.length).toBeGreaterThanOrEqual(2); // both problems grouped in the entry
      for (const m of w.warnings) expect(typeof m).toBe('string');
    }
    const exact = await rateSearch(
      c,
      await create(c, { to: { ...RECEIVER_SE, name: 'A'.repeat(27), contact: { ...RECEIVER_SE.contact, name: 'B'.repeat(22) } } }),
    );
    expect(exact.body.warnings).toEqual([]);
  });
});

describe('address and deprecated addon', () => {
  it('R-Addr-province: a missing province where a carrier requires one is reported as a warning, not a silent drop', async () => {
    const us = {
      name: 'US Buyer Inc',
      address: { address_line_1: '1 Main St', postal_code: '10001', city: 'New York', country_code: 'US' },
      contact: { name: 'Bob', email: 'bob@example.com' },
    };
    const without = await rateSearch(c, await create(c, { to: us }), { included_non_eu_rates: true });
    const withIt = await rateSearch(c, await create(c, { to: { ...us, address: { ...us.address, province: 'NY' } } }), {
      included_non_eu_rates: true,
    });
    expect(withIt.status).toBe(200);
    expect(withIt.body.rates.length).toBeGreaterThan(0);
    expect(withIt.body.warnings).toEqual([]);
    expect(without.status).toBe(200);
    expect(without.body.warnings.length).toBeGreaterThan(0);
  });

  it('R-RR-dglq: the deprecated dangerous_goods_limited_quantity addon narrows like package-level limited_quantity, and is ignored when packages carry a type', async () => {
    const plain: any[] = (await rateSearch(c, await create(c))).body.rates;
    const viaAddon: any[] = (await rateSearch(c, await create(c), { required_addons: { dangerous_goods_limited_quantity: true } })).body
      .rates;
    const viaPkg: any[] = (await rateSearch(c, await create(c, { packages: [{ ...BOX, dangerous_goods_type: 'limited_quantity' }] }))).body
      .rates;
    expect(viaAddon.map((r) => r.product_name).sort()).toEqual(viaPkg.map((r) => r.product_name).sort());
    expect(viaAddon.length).toBeLessThan(plain.length);
    const adrPkgs = await create(adr, { packages: [{ ...BOX, dangerous_goods_type: 'adr' }] });
    const a: any[] = (await rateSearch(adr, adrPkgs)).body.rates;
    const b: any[] = (await rateSearch(adr, adrPkgs, { required_addons: { dangerous_goods_limited_quantity: true } })).body.rates;
    expect(b.map((r) => r.product_name).sort()).toEqual(a.map((r) => r.product_name).sort());
  });
});

describe('incoterms and third-party payer', () => {
  it('R-RR-incoterms: values other than DDP are ignored', async () => {
    const id = await create(c);
    const plain = (await rateSearch(c, id)).body.rates.length;
    expect((await rateSearch(c, id, { incoterms: 'EXW' })).body.rates.length).toBe(plain);
    expect((await rateSearch(c, id, { incoterms: 'FOO' })).body.rates.length).toBe(plain);
  });

  it('R-T2/Err4: a third-party payer with DDP is rejected', async () => {
    const id = await create(c, {
      to: RECEIVER_NO,
      third_party_customs_payer: { account_number: '1', postal_code: '0150', country_code: 'NO' },
    });
    const res = await rateSearch(c, id, { included_non_eu_rates: true, incoterms: 'DDP' });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });
});

describe('own agreements', () => {
  it('R-R-own: include_own_agreements adds own-agreement rates with own_agreement_name', async () => {
    const id = await create(c, { to: RECEIVER_NO, from: SENDER_SE });
    const res = await rateSearch(c, id, { included_non_eu_rates: true, include_own_agreements: true });
    const own = (res.body.rates as any[]).filter((r) => r.own_agreement);
    expect(own.length).toBeGreaterThan(0);
    for (const r of own) expect(typeof r.own_agreement_name).toBe('string');
    const without = await rateSearch(c, id, { included_non_eu_rates: true });
    expect((without.body.rates as any[]).some((r) => r.own_agreement)).toBe(false);
  });
});
