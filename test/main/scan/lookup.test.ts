import { describe, expect, it } from 'vitest';
import { API_ERROR_CODES, ApiError, type ApiErrorCode } from '../../../src/main/api/errors';
import { lookupScan, type LookupDeps } from '../../../src/main/scan/lookup';
import type { ServiceShipment, ServiceTrackingEvent } from '../../../src/main/scan/shipment-view';
import type { TrackingEventView } from '../../../src/shared/domain';

const ID = '6f1c2d3e-4a5b-4c6d-8e7f-001122334455';

const shipment: ServiceShipment = {
  id: ID,
  reference_id: 'order-1001',
  status: 'PENDING',
  tracking_id: 'TRK123456',
  carrier_name: 'DHL Freight',
  product_name: 'Parcel Connect',
  to: {
    name: 'Ada Lovelace AB',
    address: { address_line_1: 'Kungsgatan 1', postal_code: '11122', city: 'Stockholm', country_code: 'SE' },
    contact: { name: 'Ada' },
  },
  from: { name: 'Warehouse' },
  sender_reference: 'S-1',
  receiver_reference: null,
  available_documents_types: ['label', 'waybill'],
  tracking_status: { id: 'ev-1', status: 'ORDERED', created_at: '2026-11-20T08:00:00Z', location_name: '' },
};

function apiError(code: ApiErrorCode, status: number): ApiError {
  return new ApiError(code, 'failed', {
    status,
    requestId: 'req-42',
    serviceMessage: null,
    fieldErrors: {},
    retryAfterMs: null,
    method: 'GET',
    path: '/shipments/x',
  });
}

interface Calls {
  get: string[];
  list: string[];
  index: string[];
}

function deps(overrides: Partial<LookupDeps> & { index?: Record<string, string>; shipments?: ServiceShipment[] } = {}): {
  deps: LookupDeps;
  calls: Calls;
} {
  const calls: Calls = { get: [], list: [], index: [] };
  const shipments = overrides.shipments ?? [shipment];
  const base: LookupDeps = {
    findShipmentIdByScan: (value) => {
      calls.index.push(value);
      return overrides.index?.[value] ?? null;
    },
    getShipment: async (id) => {
      calls.get.push(id);
      const s = shipments.find((x) => x.id === id);
      if (!s) throw apiError(API_ERROR_CODES.NOT_FOUND, 404);
      return s;
    },
    listShipments: async ({ reference_id }) => {
      calls.list.push(reference_id);
      return shipments.filter((s) => s.reference_id === reference_id);
    },
    tracking: async () => [{ ID: 'ev-1', status: 'ORDERED', created_at: '2026-11-20T08:00:00Z', location_name: 'Malmö' }],
    localTracking: () => [],
  };
  return { deps: { ...base, ...withoutExtras(overrides) }, calls };
}

function withoutExtras(o: Partial<LookupDeps> & { index?: unknown; shipments?: unknown }): Partial<LookupDeps> {
  const { index: _i, shipments: _s, ...rest } = o;
  return rest;
}

describe('lookupScan', () => {
  it('resolves a UUID as a shipment id and maps the record to the view', async () => {
    const { deps: d } = deps();
    const result = await lookupScan(` ${ID.toUpperCase()}\r`, d);
    expect(result.kind).toBe('found');
    if (result.kind !== 'found') return;
    expect(result.matchedBy).toBe('shipment_id');
    expect(result.normalized).toBe(ID);
    expect(result.shipment).toMatchObject({
      id: ID,
      referenceId: 'order-1001',
      trackingId: 'TRK123456',
      carrierName: 'DHL Freight',
      productName: 'Parcel Connect',
      receiver: {
        name: 'Ada Lovelace AB',
        contactName: 'Ada',
        addressLine: 'Kungsgatan 1',
        postalCode: '11122',
        city: 'Stockholm',
        countryCode: 'SE',
      },
      senderReference: 'S-1',
      receiverReference: null,
      availableDocuments: ['label', 'waybill'],
    });
  });

  it('resolves a tracking id through the local index (the service has no tracking filter)', async () => {
    const { deps: d, calls } = deps({ index: { TRK123456: ID } });
    const result = await lookupScan('trk123456\n', d);
    expect(result.kind === 'found' && result.matchedBy).toBe('tracking_id');
    expect(calls.list).toEqual([]);
  });

  it('resolves a reference through the service filter, trying the typed case after upper case', async () => {
    const { deps: d, calls } = deps();
    const result = await lookupScan('order-1001', d);
    expect(result.kind === 'found' && result.matchedBy).toBe('reference');
    expect(calls.list).toEqual(['ORDER-1001', 'order-1001']);
  });

  it('does not trust a service that ignores the reference filter', async () => {
    const { deps: d } = deps({ listShipments: async () => [shipment] });
    const result = await lookupScan('SOMETHING-ELSE', d);
    expect(result.kind).toBe('not_found');
  });

  it('resolves an SSCC scan through the index by its 18 digits', async () => {
    const { deps: d, calls } = deps({ index: { '340123450000000019': ID } });
    const result = await lookupScan(']C100340123450000000019', d);
    expect(result.kind).toBe('found');
    expect(calls.index[0]).toBe('340123450000000019');
  });

  it('says what was scanned when nothing matches', async () => {
    const { deps: d } = deps();
    const result = await lookupScan('xyz-garbage\r', d);
    expect(result).toEqual({
      kind: 'not_found',
      scanned: 'xyz-garbage',
      normalized: 'XYZ-GARBAGE',
      message: 'Nothing found for “xyz-garbage”: check the barcode or search history.',
    });
  });

  it('turns an empty scan into not_found with the normaliser message and makes no calls', async () => {
    const { deps: d, calls } = deps();
    const result = await lookupScan(' \r\n', d);
    expect(result.kind).toBe('not_found');
    if (result.kind === 'not_found') expect(result.message).toMatch(/Nothing was scanned/);
    expect(calls).toEqual({ get: [], list: [], index: [] });
  });

  it('treats a 404 for a UUID as no match and goes on to the index and references', async () => {
    const other = '00000000-0000-4000-8000-000000000000';
    const { deps: d, calls } = deps();
    const result = await lookupScan(other, d);
    expect(result.kind).toBe('not_found');
    expect(calls.get).toEqual([other]);
    expect(calls.list.length).toBeGreaterThan(0);
  });

  it('treats a 400 for an id the service calls malformed as no match, not as an error', async () => {
    const odd = '00000000-0000-4000-8000-00000000000f';
    const { deps: d } = deps({
      getShipment: async () => {
        throw apiError(API_ERROR_CODES.BAD_REQUEST, 400);
      },
    });
    const result = await lookupScan(odd, d);
    expect(result.kind).toBe('not_found');
  });

  it('propagates other service errors with their request id', async () => {
    const { deps: d } = deps({
      getShipment: async () => {
        throw apiError(API_ERROR_CODES.UNAVAILABLE, 503);
      },
    });
    await expect(lookupScan(ID, d)).rejects.toMatchObject({ code: API_ERROR_CODES.UNAVAILABLE, requestId: 'req-42' });
  });

  it('merges service and local tracking, deduplicated, newest first', async () => {
    const local: TrackingEventView[] = [
      {
        id: null,
        status: 'IN_TRANSIT',
        description: 'Left terminal',
        location: 'Jönköping',
        occurredAt: '2026-11-21T10:00:00+01:00',
        url: null,
      },
      // The same ORDERED event reported again through the webhook channel.
      { id: null, status: 'ORDERED', description: null, location: null, occurredAt: '2026-11-20T09:00:00+01:00', url: null },
      { id: null, status: 'DELIVERED', description: null, location: 'Stockholm', occurredAt: '2026-11-22T12:00:00Z', url: null },
    ];
    const remote: ServiceTrackingEvent[] = [
      { ID: 'ev-1', status: 'ORDERED', created_at: '2026-11-20T08:00:00Z', location_name: 'Malmö' },
      { id: 'ev-2', status: 'IN_TRANSIT', created_at: '2026-11-21T09:00:00Z', description: 'Left terminal' },
      { id: 'ev-x', status: 'BROKEN', created_at: 'not a time' },
    ];
    const { deps: d } = deps({ tracking: async () => remote, localTracking: () => local });
    const result = await lookupScan(ID, d);
    if (result.kind !== 'found') throw new Error('expected found');
    expect(result.shipment.tracking.map((e) => e.status)).toEqual(['DELIVERED', 'IN_TRANSIT', 'ORDERED']);
    expect(result.shipment.tracking[2]).toMatchObject({ id: 'ev-1', location: 'Malmö' });
  });

  it('still shows the shipment with its latest event when the tracking call fails', async () => {
    const { deps: d } = deps({
      tracking: async () => {
        throw apiError(API_ERROR_CODES.UNAVAILABLE, 503);
      },
    });
    const result = await lookupScan(ID, d);
    if (result.kind !== 'found') throw new Error('expected found');
    expect(result.shipment.tracking.map((e) => e.status)).toEqual(['ORDERED']);
  });

  describe('a scanner in another keyboard layout than the computer', () => {
    it('finds a US-layout scan read on a Nordic keyboard (`-` typed as `+`) and says which mismatch', async () => {
      const { deps: d } = deps({ index: { 'ORDER-1001': ID } });
      const result = await lookupScan('order+1001', d);
      if (result.kind !== 'found') throw new Error('expected found');
      expect(result.shipment.id).toBe(ID);
      expect(result.matchedBy).toBe('reference');
      expect(result.layoutMismatch).toBe('us-scanner-nordic-keyboard');
    });

    it('finds a shipment id whose dashes came out as `+`', async () => {
      const { deps: d } = deps();
      const result = await lookupScan(ID.replaceAll('-', '+'), d);
      if (result.kind !== 'found') throw new Error('expected found');
      expect(result.matchedBy).toBe('shipment_id');
      expect(result.layoutMismatch).toBe('us-scanner-nordic-keyboard');
    });

    it('finds a Nordic-layout scan read on a US keyboard (`-` typed as `/`) as a reference', async () => {
      const other = { ...shipment, id: '00000000-0000-4000-8000-000000000001', reference_id: 'BOX-7' };
      const { deps: d, calls } = deps({ shipments: [other] });
      const result = await lookupScan('BOX/7', d);
      if (result.kind !== 'found') throw new Error('expected found');
      expect(result.shipment.referenceId).toBe('BOX-7');
      expect(result.layoutMismatch).toBe('nordic-scanner-us-keyboard');
      // The literal first: a matching layout never pays for the variants.
      expect(calls.list[0]).toBe('BOX/7');
    });

    it('leaves a literal match alone: no mismatch is reported', async () => {
      const { deps: d } = deps({ index: { 'ORDER-1001': ID } });
      const result = await lookupScan('ORDER-1001', d);
      if (result.kind !== 'found') throw new Error('expected found');
      expect(result.layoutMismatch).toBeUndefined();
    });
  });
});
