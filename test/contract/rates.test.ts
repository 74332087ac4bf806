import { describe, expect, it } from 'vitest';
import type { Rate } from '../../src/main/api/schemas';
import {
  apiError,
  BOX,
  COMPLETE_CUSTOMS,
  createAndRate,
  domestic,
  MALFORMED_ID,
  NO_RECEIVER,
  PICKUP,
  SE_RECEIVER,
  SE_SENDER,
  useHarness,
  UNKNOWN_ID,
} from '../support/contract-harness';

const h = useHarness();

const carriersOf = (rates: Rate[]) => [...new Set(rates.map((r) => r.carrier))].sort();

describe('rate search basics', () => {
  it('rates are sorted by price, price_rank starts at 1, tokens expire 30 minutes after issue', async () => {
    const before = Date.now();
    const { id, rates } = await createAndRate(h.client);
    expect(rates.length).toBeGreaterThan(1);
    expect(rates.map((r) => r.price_rank)).toEqual(rates.map((_r, i) => i + 1));
    const prices = rates.map((r) => Number(r.price));
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    for (const r of rates) {
      expect(r.shipment_id).toBe(id);
      expect(r.booking_token).toMatch(/\S/);
      const expires = Date.parse(r.expires_at!);
      expect(expires - before).toBeGreaterThanOrEqual(30 * 60_000 - 1_000);
      expect(expires - Date.now()).toBeLessThanOrEqual(30 * 60_000 + 1_000);
    }
  });

  it('422 without requested_pickup_time unless required_addons.without_pickup is set', async () => {
    const { id } = await h.client.createShipment(domestic());
    const error = await apiError(h.client.rates({ shipment_id: id }));
    expect([error.status, error.code]).toEqual([422, 'SERVICE_UNPROCESSABLE']);
    expect(error.serviceMessage).toMatch(/requested_pickup_time/);
    const ok = await h.client.rates({ shipment_id: id, required_addons: { without_pickup: true } });
    expect(ok.rates.length).toBeGreaterThan(0);
  });

  it('an unknown shipment id gets 404, a malformed one 400', async () => {
    expect((await apiError(h.client.rates({ shipment_id: UNKNOWN_ID, requested_pickup_time: PICKUP() }))).status).toBe(404);
    expect((await apiError(h.client.rates({ shipment_id: MALFORMED_ID, requested_pickup_time: PICKUP() }))).status).toBe(400);
  });
});

describe('non-EU routes', () => {
  it('need included_non_eu_rates: without it, no rates and no warnings → 400', async () => {
    const { id } = await h.client.createShipment(domestic({ to: NO_RECEIVER }));
    const error = await apiError(h.client.rates({ shipment_id: id, requested_pickup_time: PICKUP() }));
    expect([error.status, error.code]).toEqual([400, 'SERVICE_BAD_REQUEST']);
  });

  it('with it, rates list the documents to upload; complete customs data waives customsinvoice', async () => {
    const { rates } = await createAndRate(h.client, domestic({ to: NO_RECEIVER }), { included_non_eu_rates: true });
    expect(rates.length).toBeGreaterThan(0);
    expect(rates.every((r) => r.required_documents.includes('customsinvoice'))).toBe(true);

    const withCustoms = await createAndRate(h.client, domestic({ to: NO_RECEIVER, customs_information: COMPLETE_CUSTOMS }), {
      included_non_eu_rates: true,
    });
    expect(withCustoms.rates.length).toBeGreaterThan(0);
    expect(withCustoms.rates.some((r) => r.required_documents.includes('customsinvoice'))).toBe(false);
  });
});

describe('service point rates', () => {
  const privateReceiver = { ...SE_RECEIVER, is_private_individual: true };

  it('need include_service_point_rates and a private-individual receiver', async () => {
    const plain = await createAndRate(h.client, domestic({ to: privateReceiver }));
    expect(plain.rates.some((r) => r.require_delivery_service_point)).toBe(false);

    const business = await createAndRate(h.client, domestic(), { include_service_point_rates: true });
    expect(business.rates.some((r) => r.require_delivery_service_point)).toBe(false);

    const both = await createAndRate(h.client, domestic({ to: privateReceiver }), { include_service_point_rates: true });
    expect(both.rates.some((r) => r.require_delivery_service_point === true)).toBe(true);
  });
});

describe('receiver pays', () => {
  it('price is "-" and only carriers holding a to.carrier_accounts entry are offered', async () => {
    const to = {
      ...SE_RECEIVER,
      carrier_accounts: [
        { carrier: 'dhl_express', account_identifier: 'DHL-998877' },
        { carrier: 'postnord', account_identifier: 'PN-1' },
      ],
    };
    const { rates } = await createAndRate(h.client, domestic({ to }), { required_addons: { receiver_pays: true } });
    expect(rates.length).toBeGreaterThan(0);
    // postnord does not support receiver pays; db_schenker does but has no account here.
    expect(carriersOf(rates)).toEqual(['dhl_express']);
    for (const r of rates) {
      expect(r.price).toBe('-');
      expect(r.receiver_pays).toBe(true);
    }
  });

  it('the booked receiver-pays shipment has no price fields', async () => {
    const to = { ...SE_RECEIVER, carrier_accounts: [{ carrier: 'dhl_express', account_identifier: 'DHL-998877' }] };
    const { id, rates } = await createAndRate(h.client, domestic({ to }), { required_addons: { receiver_pays: true } });
    await h.client.book({ booking_token: rates[0]!.booking_token });
    const stored = await h.client.getShipment(id);
    expect(stored.expected_price).toBeUndefined();
    expect(stored.resale_price).toBeUndefined();
  });
});

describe('addons', () => {
  it('only rates supporting every requested addon are returned, and the price includes the addon', async () => {
    const { id } = await h.client.createShipment(domestic());
    const base = await h.client.rates({ shipment_id: id, requested_pickup_time: PICKUP() });
    const thermo = await h.client.rates({ shipment_id: id, requested_pickup_time: PICKUP(), required_addons: { thermo_heat: true } });
    expect(thermo.rates.length).toBeGreaterThan(0);
    expect(thermo.rates.length).toBeLessThan(base.rates.length);
    for (const r of thermo.rates) {
      const plain = base.rates.find((b) => b.carrier === r.carrier && b.carrier_product_code === r.carrier_product_code);
      expect(plain, `${r.product_name} is offered without the addon too`).toBeDefined();
      expect(Number(r.price)).toBeGreaterThan(Number(plain!.price));
    }
  });

  it('incompatible addons leave nothing: 400 (no rates, no warnings)', async () => {
    const { id } = await h.client.createShipment(domestic());
    const error = await apiError(
      h.client.rates({ shipment_id: id, requested_pickup_time: PICKUP(), required_addons: { thermo_heat: true, delivery_notice: true } }),
    );
    expect(error.status).toBe(400);
  });
});

describe('dangerous goods', () => {
  it('adr without team ADR approval → 422', async () => {
    const { id } = await h.client.createShipment(domestic({ packages: [{ ...BOX, dangerous_goods_type: 'adr' }] }));
    const error = await apiError(h.client.rates({ shipment_id: id, requested_pickup_time: PICKUP() }));
    expect([error.status, error.code]).toEqual([422, 'SERVICE_UNPROCESSABLE']);
  });

  it('adr with approval: only ADR products without a declaration form, each asking for the certificate', async () => {
    h.sandbox.setAdrApproved(true);
    try {
      // Rule 1: one adr package makes the shipment fully regulated.
      const { rates } = await createAndRate(
        h.client,
        domestic({
          packages: [
            { ...BOX, dangerous_goods_type: 'limited_quantity' },
            { ...BOX, dangerous_goods_type: 'adr' },
          ],
        }),
      );
      expect(rates.length).toBeGreaterThan(0);
      for (const r of rates) expect(r.required_documents).toContain('adr_dangerousgoods');
    } finally {
      h.sandbox.setAdrApproved(false);
    }
  });

  it('limited quantity: only products that support it', async () => {
    const all = await createAndRate(h.client);
    const lq = await createAndRate(h.client, domestic({ packages: [{ ...BOX, dangerous_goods_type: 'limited_quantity' }] }));
    expect(lq.rates.length).toBeGreaterThan(0);
    expect(lq.rates.length).toBeLessThan(all.rates.length);
  });
});

describe('shipping rules', () => {
  it('an unknown shipping_rule_ids entry → 400', async () => {
    const { id } = await h.client.createShipment(domestic());
    const error = await apiError(h.client.rates({ shipment_id: id, requested_pickup_time: PICKUP(), shipping_rule_ids: ['no-such-rule'] }));
    expect([error.status, error.code]).toEqual([400, 'SERVICE_BAD_REQUEST']);
  });

  it('ids limit the search to the named rules (disabled ones included) and win over hashes', async () => {
    const { shipping_rules: rules } = await h.client.shippingRules();
    const disabledExclude = rules.find((r) => r.type === 'exclude' && r.enabled === false)!;
    const include = rules.find((r) => r.type === 'include')!;
    expect(disabledExclude).toBeDefined();
    const { id } = await h.client.createShipment(domestic());
    const all = await h.client.rates({ shipment_id: id, requested_pickup_time: PICKUP() });
    const limited = await h.client.rates({
      shipment_id: id,
      requested_pickup_time: PICKUP(),
      shipping_rule_ids: [disabledExclude.id],
      shipping_rule_hashes: [include.id],
    });
    expect(limited.applied_shipping_rules.map((r) => r.id)).toEqual([disabledExclude.id]);
    expect(typeof limited.applied_shipping_rules[0]!.id).toBe('string');
    expect(limited.rates.length).toBeLessThan(all.rates.length);
    expect(limited.rates.length).toBeGreaterThan(0);

    // The older field alone still works.
    const byHash = await h.client.rates({ shipment_id: id, requested_pickup_time: PICKUP(), shipping_rule_hashes: [include.id] });
    expect(byHash.applied_shipping_rules.map((r) => r.id)).toEqual([include.id]);
    expect(new Set(byHash.rates.map((r) => r.carrier)).size).toBe(1);
  });
});

describe('carrier field-length warnings', () => {
  const longName = 'A Very Long Company Name Exceeding Limits AB';

  it('an excluded product comes back as one warning entry, with 200 and the other rates', async () => {
    const response = await createAndRate(h.client, domestic({ from: { ...SE_SENDER, name: longName } }));
    const { id } = response;
    const full = await h.client.rates({ shipment_id: id, requested_pickup_time: PICKUP() });
    expect(full.rates.length).toBeGreaterThan(0);
    expect(full.warnings.length).toBeGreaterThan(0);
    for (const w of full.warnings) {
      expect(w.carrier_product_code).toMatch(/\S/);
      expect(w.warnings.join(' ')).toMatch(/company name/i);
      expect(full.rates.some((r) => r.carrier_product_code === w.carrier_product_code)).toBe(false);
    }
  });

  it('when every product is excluded: 200 with no rates and the full warning list', async () => {
    // SE → NO with delivery_notice + without_pickup leaves one product, which the long name excludes.
    const { id } = await h.client.createShipment(domestic({ from: { ...SE_SENDER, name: longName }, to: NO_RECEIVER }));
    const response = await h.client.rates({
      shipment_id: id,
      included_non_eu_rates: true,
      required_addons: { without_pickup: true, delivery_notice: true },
    });
    expect(response.rates).toEqual([]);
    expect(response.warnings.length).toBeGreaterThan(0);
  });
});

describe('DDP with a third-party customs payer', () => {
  it('is rejected', async () => {
    const { id } = await h.client.createShipment(
      domestic({ to: NO_RECEIVER, third_party_customs_payer: { account_number: 'A1', postal_code: '0150', country_code: 'NO' } }),
    );
    const error = await apiError(
      h.client.rates({ shipment_id: id, requested_pickup_time: PICKUP(), included_non_eu_rates: true, incoterms: 'DDP' }),
    );
    expect(error.status).toBeGreaterThanOrEqual(400);
    expect(error.status).toBeLessThan(500);
  });
});
