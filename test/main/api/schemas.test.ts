import { describe, expect, it } from 'vitest';
import {
  bookResponse,
  favoriteAddressesResponse,
  favoritePackagesResponse,
  formatPath,
  rateResponse,
  shipment,
  shipmentInput,
  timestamp,
  trackingEvent,
  trackingEvents,
} from '../../../src/main/api/schemas';

const event = {
  id: 'e1',
  status: 'ORDERED',
  created_at: '2026-10-01T09:17:29.754885247Z',
  url: 'https://t',
  description: 'Ordered',
  location_name: '',
};

describe('timestamp', () => {
  it.each([
    '2026-10-01T09:17:29.754885247Z',
    '2026-10-01T11:17:29.1+02:00',
    '2026-10-01T11:17:29+02:00',
    '2026-10-01T09:17:29Z',
    '2026-10-01T09:17:29.123-05:30',
  ])('accepts %s', (value) => {
    expect(timestamp.safeParse(value).success).toBe(true);
  });

  it.each(['2026-10-01T09:17:29', '2026-10-01', 'yesterday', '2026-13-01T09:17:29Z'])(
    'rejects %s (no zone or not a date-time)',
    (value) => {
      expect(timestamp.safeParse(value).success).toBe(false);
    },
  );
});

describe('tracking events', () => {
  it('accepts `ID` and normalises it to `id`', () => {
    const { id: _id, ...rest } = event;
    const parsed = trackingEvent.parse({ ...rest, ID: 'E-9' });
    expect(parsed.id).toBe('E-9');
    expect(parsed).not.toHaveProperty('ID');
  });

  it('prefers `id` when both spellings arrive', () => {
    expect(trackingEvent.parse({ ...event, ID: 'other' }).id).toBe('e1');
  });

  it('passes unknown status values and unknown fields', () => {
    const parsed = trackingEvents.parse([{ ...event, status: 'TELEPORTED', carrier_code: 'dhl' }]);
    expect(parsed[0]!.status).toBe('TELEPORTED');
    expect(parsed[0]).toHaveProperty('carrier_code', 'dhl');
  });

  it('names the index and field of a wrong type', () => {
    const result = trackingEvents.safeParse([event, { ...event, created_at: 42 }]);
    expect(result.success).toBe(false);
    expect(formatPath(result.error!.issues[0]!.path)).toBe('[1].created_at');
  });
});

describe('shipment', () => {
  const stored = {
    id: 'a1b2',
    status: 'BOOKED',
    reference_id: 'ORDER-1',
    to: {
      name: 'R',
      address: { city: 'Oslo', country_code: 'NO' },
      is_private_individual: true,
      carrier_accounts: [{ carrier: 'dhl', account_identifier: '1' }],
    },
    packages: [{ weight_kg: 1.5, quantity: 2, type: 'PALLET_XXL', dangerous_goods_type: 'lithium' }],
    tracking_status: event,
    tracking_id: null,
    available_documents_types: ['label', 'hologram'],
    booked_at: '2026-10-01T11:17:29.1+02:00',
    brand_new_field: { nested: true },
  };

  it('passes unknown fields, unknown enum values and null where the spec allows it', () => {
    const parsed = shipment.parse(stored);
    expect(parsed).toHaveProperty('brand_new_field', { nested: true });
    expect(parsed.packages[0]!.type).toBe('PALLET_XXL');
    expect(parsed.tracking_id).toBeNull();
    expect(parsed.available_documents_types).toContain('hologram');
  });

  it('omitted prices (receiver pays) and omitted lists are fine', () => {
    const parsed = shipment.parse({ id: 'x', status: 'PENDING' });
    expect(parsed.expected_price).toBeUndefined();
    expect(parsed.packages).toEqual([]);
    expect(parsed.available_documents_types).toEqual([]);
  });

  it('a wrong type fails and names packages[0].weight_kg', () => {
    const result = shipment.safeParse({ ...stored, packages: [{ weight_kg: 'heavy' }] });
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => formatPath(i.path))).toEqual(['packages[0].weight_kg']);
  });

  it('a missing id fails', () => {
    expect(shipment.safeParse({ status: 'PENDING' }).success).toBe(false);
  });

  it('the request body accepts `{}` to remove a third-party payer but not a half payer', () => {
    expect(shipmentInput.safeParse({ third_party_customs_payer: {} }).success).toBe(true);
    expect(
      shipmentInput.safeParse({ third_party_customs_payer: { account_number: '1', postal_code: '2', country_code: 'SE' } }).success,
    ).toBe(true);
    expect(shipmentInput.safeParse({ third_party_customs_payer: { account_number: '1' } }).success).toBe(false);
  });
});

describe('rates', () => {
  const rate = {
    price_rank: 1,
    shipment_id: 's',
    booking_token: 'tok',
    carrier_name: 'DHL',
    product_name: 'Parcel',
    price: '-',
    currency: 'SEK',
    expires_at: '2026-10-01T09:47:29.754885247Z',
    receiver_pays: true,
    required_documents: ['customsinvoice', 'future_doc'],
    carrier_code: 'dhl',
  };

  it('accepts receiver-pays rates, unknown documents and fields, and fills omitted lists', () => {
    const parsed = rateResponse.parse({ rates: [rate, { ...rate, price_rank: 2, price: undefined, currency: undefined }] });
    expect(parsed.rates).toHaveLength(2);
    expect(parsed.warnings).toEqual([]);
    expect(parsed.applied_shipping_rules).toEqual([]);
    expect(parsed.rates[0]!.required_documents).toContain('future_doc');
  });

  it('names rates[0].price_rank on a wrong type', () => {
    const result = rateResponse.safeParse({ rates: [{ ...rate, price_rank: 'first' }], warnings: [] });
    expect(formatPath(result.error!.issues[0]!.path)).toBe('rates[0].price_rank');
  });
});

describe('other responses', () => {
  it('book: main_tracking_id may be null', () => {
    expect(bookResponse.parse({ shipment_id: 's', main_tracking_id: null }).main_tracking_id).toBeNull();
  });

  it('favorites: a bare array or a wrapped one both give the array', () => {
    expect(favoritePackagesResponse.parse([{ id: 'p1', dangerous_goods_type: null }])).toHaveLength(1);
    expect(favoritePackagesResponse.parse({ packages: [{ id: 'p1' }] })[0]!.id).toBe('p1');
    expect(favoriteAddressesResponse.parse({ addresses: [{ id: 'a1', name: 'X' }] })[0]).toHaveProperty('name', 'X');
    const bad = favoriteAddressesResponse.safeParse({ addresses: [{ id: 7 }] });
    expect(bad.success).toBe(false);
  });
});

describe('shipment packages', () => {
  it("exposes each parcel's tracking_ids (an extra response field) and tolerates its absence", () => {
    const parsed = shipment.parse({
      id: 's1',
      status: 'BOOKED',
      packages: [{ weight_kg: 1, tracking_ids: ['T1', 'T2'] }, { weight_kg: 2 }],
    });
    const ids: readonly string[] | null | undefined = parsed.packages[0]!.tracking_ids;
    expect(ids).toEqual(['T1', 'T2']);
    expect(parsed.packages[1]!.tracking_ids).toBeUndefined();
    expect(shipment.safeParse({ id: 's1', status: 'BOOKED', packages: [{ tracking_ids: [7] }] }).success).toBe(false);
  });
});
