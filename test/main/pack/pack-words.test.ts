import { describe, expect, it } from 'vitest';
import { customsWeightProblem } from '../../../src/main/pack/customs-check';
import { fieldLabel, toFieldProblems } from '../../../src/main/pack/field-words';
import { nextPickup, toRatesView } from '../../../src/main/pack/rate-view';
import { parseTypedNumber } from '../../../src/main/pack/typed-number';
import type { RateResponse } from '../../../src/main/api/schemas';

describe('typed numbers', () => {
  it('reads a decimal comma and a decimal point alike', () => {
    expect(parseTypedNumber('1,5', { max: 100 })).toEqual({ ok: true, value: 1.5 });
    expect(parseTypedNumber(' 1.25 ', { max: 100 })).toEqual({ ok: true, value: 1.25 });
    expect(parseTypedNumber(3, { max: 100 })).toEqual({ ok: true, value: 3 });
  });

  it('takes the unit typed after the number: 1,5 kg and 30 cm', () => {
    expect(parseTypedNumber('1,5 kg', { max: 100 })).toEqual({ ok: true, value: 1.5 });
    expect(parseTypedNumber('1,5kg', { max: 100 })).toEqual({ ok: true, value: 1.5 });
    expect(parseTypedNumber('30 CM', { max: 100 })).toEqual({ ok: true, value: 30 });
  });

  it('refuses what is not a positive number within bounds, saying what to type', () => {
    expect(parseTypedNumber('1,5 lbs', { max: 100 })).toMatchObject({
      ok: false,
      code: 'notNumber',
      message: expect.stringMatching(/not a number/),
    });
    expect(parseTypedNumber('1.000,5', { max: 10_000 })).toMatchObject({ ok: false, code: 'notNumber' });
    expect(parseTypedNumber('', { max: 100 })).toEqual({ ok: false, message: 'is missing', code: 'missing' });
    expect(parseTypedNumber('0', { max: 100 })).toEqual({ ok: false, message: 'must be more than 0', code: 'notPositive' });
    // A negative number is a number: the reason is its sign.
    expect(parseTypedNumber('-2', { max: 100 })).toEqual({ ok: false, message: 'must be more than 0', code: 'notPositive' });
    expect(parseTypedNumber('101', { max: 100 })).toEqual({
      ok: false,
      message: 'must be at most 100',
      code: 'tooLarge',
      params: { max: 100 },
    });
  });
});

describe('field words', () => {
  it('names service fields the way a packer says them', () => {
    expect(fieldLabel('packages[1].weight_kg')).toBe('Weight of parcel 2');
    expect(fieldLabel('to.address.address_line_1')).toBe("Receiver's street address");
    expect(fieldLabel('from.contact')).toBe("Sender's contact (name, phone or email)");
    expect(fieldLabel('to')).toBe('Receiver');
    expect(fieldLabel('customs_information.items[0].hs_code')).toBe('Customs information items 1 hs code');
    expect(toFieldProblems({ 'to.contact.email': ['must be a valid email address'], packages: ['is required'] })).toEqual([
      { field: 'to.contact.email', label: "Receiver's email", message: 'must be a valid email address' },
      { field: 'packages', label: 'Parcels', message: 'is missing', code: 'missing' },
    ]);
  });
});

describe('customs weights', () => {
  it('flags customs items heavier than the parcels, counting quantities', () => {
    const items = [{ quantity: 3, unit_weight: 0.5 }];
    expect(customsWeightProblem(items, [{ weight_kg: 1.5, quantity: 1 }])).toBeNull();
    expect(customsWeightProblem(items, [{ weight_kg: 0.75, quantity: 2 }])).toBeNull();
    expect(customsWeightProblem(items, [{ weight_kg: 1.4, quantity: 1 }])?.message).toMatch(/weigh 1.5 kg, more than the parcels' 1.4 kg/);
    expect(customsWeightProblem([], [{ weight_kg: 1 }])).toBeNull();
  });
});

describe('rates', () => {
  const rate = (rank: number, extra: Record<string, unknown> = {}) => ({
    price_rank: rank,
    shipment_id: 's',
    booking_token: `t${rank}`,
    carrier_name: `C${rank}`,
    product_name: 'P',
    price: `${rank}00.00`,
    currency: 'SEK',
    required_documents: [],
    ...extra,
  });
  const response = (rates: unknown[]): RateResponse => ({ rates, warnings: [], applied_shipping_rules: [] }) as unknown as RateResponse;

  it('selects the first by price rank, skipping rates a third-party payer rules out', () => {
    const view = toRatesView('s', response([rate(2, { third_party_customs_payer_supported: true }), rate(1)]), true, new Date());
    expect(view.rates.map((r) => r.token)).toEqual(['t1', 't2']);
    expect(view.selected).toBe('t2');
    expect(toRatesView('s', response([rate(2), rate(1)]), false, new Date()).selected).toBe('t1');
  });

  it('shows receiver-pays rates without a price', () => {
    const [r] = toRatesView('s', response([rate(1, { price: '-', receiver_pays: true })]), false, new Date()).rates;
    expect(r).toMatchObject({ price: null, receiverPays: true });
  });

  it('asks for the next pickup at the set time, skipping the weekend', () => {
    // Friday 2026-11-20 17:00 local: past 16:00, so Monday 16:00.
    const friday = new Date(2026, 10, 20, 17, 0);
    expect(nextPickup(friday, '16:00')).toMatch(/^2026-11-23T16:00:00[+-]\d{2}:\d{2}$/);
    const morning = new Date(2026, 10, 24, 9, 0);
    expect(nextPickup(morning, '16:00')).toMatch(/^2026-11-24T16:00:00/);
  });
});
