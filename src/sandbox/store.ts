/**
 * In-memory shipment store. Lists are served from recency lists (most recently changed
 * first) so a page costs O(offset + limit), not O(history): a 100k store answers a
 * 50-row page in microseconds.
 */
import type { ShipmentBody } from './validation';

export type ShipmentStatus = 'PENDING' | 'BOOKED' | 'IN_TRANSIT' | 'DELIVERED' | 'CANCELED' | 'BOOKING_FAILED';

/**
 * A booked shipment's status follows its carrier (README: statuses): BOOKED until the first
 * carrier event, then IN_TRANSIT, then DELIVERED. All three are "booked" for every rule.
 */
export const BOOKED_STATUSES: ReadonlySet<ShipmentStatus> = new Set(['BOOKED', 'IN_TRANSIT', 'DELIVERED']);

export function isBooked(shipment: { readonly status: ShipmentStatus }): boolean {
  return BOOKED_STATUSES.has(shipment.status);
}

export interface TrackingEvent {
  readonly id: string;
  readonly url: string;
  readonly status: string;
  readonly created_at: string;
  readonly description: string;
  readonly location_name: string;
}

export interface Booking {
  readonly carrier: string;
  readonly carrierName: string;
  readonly product: string;
  readonly productName: string;
  readonly trackingId: string;
  /** One tracking number per parcel, per package (a package of quantity 3 is 3 parcels); the first is trackingId. */
  readonly parcelTrackingIds: readonly (readonly string[])[];
  readonly agreement: 'SERVICE' | 'OWN';
  readonly receiverPays: boolean;
  readonly price: number;
  readonly currency: string;
  readonly source: 'API' | 'APP';
  readonly manifest: boolean;
  readonly nonEu: boolean;
  readonly servicePoint: { readonly token: string; readonly name: string } | null;
  readonly pickupInstructions: string | null;
  readonly deliveryInstructions: string | null;
}

export interface StoredShipment {
  readonly id: string;
  body: ShipmentBody;
  status: ShipmentStatus;
  readonly createdAt: string;
  updatedAt: string;
  bookedAt: string | null;
  bookedAtMs: number | null;
  booking: Booking | null;
  /** Oldest first. */
  tracking: TrackingEvent[];
  carrierEventSeen: boolean;
  /** Document types uploaded through POST /shipments/{id}/{document_type}. */
  readonly uploads: Set<string>;
  seq: number;
}

interface Node {
  readonly shipment: StoredShipment;
  prev: Node | null;
  next: Node | null;
}

/** Doubly linked list, newest first, with O(1) move-to-front and removal. */
class RecencyList {
  private head: Node | null = null;
  private readonly nodes = new Map<string, Node>();

  get size(): number {
    return this.nodes.size;
  }

  /** Inserts where its `seq` belongs (lists are newest first): O(newer entries), near the front in practice. */
  insertInOrder(shipment: StoredShipment): void {
    this.remove(shipment.id);
    let before: Node | null = null;
    let after = this.head;
    while (after && after.shipment.seq > shipment.seq) {
      before = after;
      after = after.next;
    }
    const node: Node = { shipment, prev: before, next: after };
    if (before) before.next = node;
    else this.head = node;
    if (after) after.prev = node;
    this.nodes.set(shipment.id, node);
  }

  moveToFront(shipment: StoredShipment): void {
    this.remove(shipment.id);
    const node: Node = { shipment, prev: null, next: this.head };
    if (this.head) this.head.prev = node;
    this.head = node;
    this.nodes.set(shipment.id, node);
  }

  remove(id: string): void {
    const node = this.nodes.get(id);
    if (!node) return;
    if (node.prev) node.prev.next = node.next;
    else this.head = node.next;
    if (node.next) node.next.prev = node.prev;
    this.nodes.delete(id);
  }

  page(offset: number, limit: number): StoredShipment[] {
    const out: StoredShipment[] = [];
    let node = this.head;
    for (let skipped = 0; node && skipped < offset; skipped++) node = node.next;
    for (; node && out.length < limit; node = node.next) out.push(node.shipment);
    return out;
  }
}

export interface ListQuery {
  readonly referenceId?: string;
  readonly status?: string;
  readonly limit: number;
  readonly offset: number;
}

export class ShipmentStore {
  private readonly byId = new Map<string, StoredShipment>();
  private readonly all = new RecencyList();
  private readonly byStatus = new Map<string, RecencyList>();
  private readonly byReference = new Map<string, Set<string>>();
  private seq = 0;

  get size(): number {
    return this.byId.size;
  }

  get(id: string): StoredShipment | undefined {
    return this.byId.get(id);
  }

  insert(shipment: StoredShipment): void {
    this.byId.set(shipment.id, shipment);
    this.index(shipment);
  }

  /** Records a change: new updated_at, front of every list, reference index kept right. */
  touch(shipment: StoredShipment, updatedAt: string, previousReference: string | null | undefined, previousStatus: ShipmentStatus): void {
    shipment.updatedAt = updatedAt;
    if (previousStatus !== shipment.status) this.byStatus.get(previousStatus)?.remove(shipment.id);
    const ref = shipment.body.reference_id;
    if (previousReference && previousReference !== ref) this.byReference.get(previousReference)?.delete(shipment.id);
    this.index(shipment);
  }

  /**
   * A status change that is not an update (a carrier event): the shipment keeps its
   * updated_at and its place in the full list, and moves to its new status's list.
   */
  restatus(shipment: StoredShipment, previousStatus: ShipmentStatus): void {
    if (previousStatus === shipment.status) return;
    this.byStatus.get(previousStatus)?.remove(shipment.id);
    let statusList = this.byStatus.get(shipment.status);
    if (!statusList) this.byStatus.set(shipment.status, (statusList = new RecencyList()));
    statusList.insertInOrder(shipment);
  }

  delete(id: string): void {
    const shipment = this.byId.get(id);
    if (!shipment) return;
    this.byId.delete(id);
    this.all.remove(id);
    this.byStatus.get(shipment.status)?.remove(id);
    const ref = shipment.body.reference_id;
    if (ref) this.byReference.get(ref)?.delete(id);
  }

  list(query: ListQuery): { items: StoredShipment[]; total: number } {
    if (query.referenceId !== undefined) {
      const ids = this.byReference.get(query.referenceId) ?? new Set<string>();
      const matches = [...ids]
        .map((id) => this.byId.get(id)!)
        .filter((s) => query.status === undefined || s.status === query.status)
        .sort((a, b) => b.seq - a.seq);
      return { items: matches.slice(query.offset, query.offset + query.limit), total: matches.length };
    }
    const list = query.status === undefined ? this.all : this.byStatus.get(query.status);
    if (!list) return { items: [], total: 0 };
    return { items: list.page(query.offset, query.limit), total: list.size };
  }

  private index(shipment: StoredShipment): void {
    shipment.seq = ++this.seq;
    this.all.moveToFront(shipment);
    let statusList = this.byStatus.get(shipment.status);
    if (!statusList) this.byStatus.set(shipment.status, (statusList = new RecencyList()));
    statusList.moveToFront(shipment);
    const ref = shipment.body.reference_id;
    if (ref) {
      let ids = this.byReference.get(ref);
      if (!ids) this.byReference.set(ref, (ids = new Set()));
      ids.add(shipment.id);
    }
  }
}
