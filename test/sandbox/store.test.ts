import { describe, expect, it } from 'vitest';
import { ShipmentStore, type ShipmentStatus, type StoredShipment } from '../../src/sandbox/store';

function shipment(id: string, reference?: string): StoredShipment {
  return {
    id,
    body: { reference_id: reference },
    status: 'PENDING',
    createdAt: 't',
    updatedAt: 't',
    bookedAt: null,
    bookedAtMs: null,
    booking: null,
    tracking: [],
    carrierEventSeen: false,
    uploads: new Set(),
    seq: 0,
  };
}

function change(store: ShipmentStore, s: StoredShipment, status: ShipmentStatus, reference?: string): void {
  const previous = s.status;
  const previousRef = s.body.reference_id;
  s.status = status;
  if (reference !== undefined) s.body = { ...s.body, reference_id: reference };
  store.touch(s, 'later', previousRef, previous);
}

const ids = (r: { items: StoredShipment[] }): string[] => r.items.map((s) => s.id);

describe('ShipmentStore', () => {
  it('lists most recently changed first, pages with offset/limit and counts the total', () => {
    const store = new ShipmentStore();
    const [a, b, c] = [shipment('a', 'R1'), shipment('b', 'R2'), shipment('c', 'R1')];
    for (const s of [a, b, c]) store.insert(s);
    expect(ids(store.list({ limit: 10, offset: 0 }))).toEqual(['c', 'b', 'a']);
    change(store, a, 'BOOKED');
    expect(ids(store.list({ limit: 10, offset: 0 }))).toEqual(['a', 'c', 'b']);
    expect(store.list({ limit: 1, offset: 1 })).toEqual({ items: [c], total: 3 });
    expect(store.list({ limit: 5, offset: 3 }).items).toEqual([]);
  });

  it('keeps the status and reference indexes right across changes and deletes', () => {
    const store = new ShipmentStore();
    const [a, b, c] = [shipment('a', 'R1'), shipment('b', 'R2'), shipment('c', 'R1')];
    for (const s of [a, b, c]) store.insert(s);
    change(store, a, 'BOOKED');
    change(store, c, 'BOOKED');
    expect(store.list({ status: 'BOOKED', limit: 10, offset: 0 })).toEqual({ items: [c, a], total: 2 });
    expect(store.list({ status: 'PENDING', limit: 10, offset: 0 })).toEqual({ items: [b], total: 1 });
    change(store, a, 'CANCELED');
    expect(ids(store.list({ status: 'BOOKED', limit: 10, offset: 0 }))).toEqual(['c']);
    expect(ids(store.list({ referenceId: 'R1', limit: 10, offset: 0 }))).toEqual(['a', 'c']);
    expect(ids(store.list({ referenceId: 'R1', status: 'BOOKED', limit: 10, offset: 0 }))).toEqual(['c']);
    change(store, c, 'BOOKED', 'R3');
    expect(ids(store.list({ referenceId: 'R1', limit: 10, offset: 0 }))).toEqual(['a']);
    expect(ids(store.list({ referenceId: 'R3', limit: 10, offset: 0 }))).toEqual(['c']);
    store.delete('b');
    expect(store.get('b')).toBeUndefined();
    expect(store.list({ limit: 10, offset: 0 }).total).toBe(2);
    expect(store.list({ status: 'PENDING', limit: 10, offset: 0 })).toEqual({ items: [], total: 0 });
    expect(store.list({ referenceId: 'R2', limit: 10, offset: 0 }).items).toEqual([]);
    expect(store.list({ status: 'NOPE', limit: 10, offset: 0 })).toEqual({ items: [], total: 0 });
  });
});
