import type { ListShipmentsQuery, ShipmentRecord, ShipmentSourcePort } from '../../../src/main/intake/ports';

/**
 * GET /shipments as services the spec allows could answer it. The sandbox honours
 * limit/offset newest-first; the spec shows neither, so the poller must also be right on
 * a service that ignores them. These variants stand in for such services, which cannot
 * otherwise run here.
 */
export type ListBehaviour = 'paged-newest-first' | 'everything-shuffled' | 'ignores-offset' | 'paged-oldest-first';

export class ServiceVariant implements ShipmentSourcePort {
  readonly shipments = new Map<string, ShipmentRecord>();
  readonly calls: ListShipmentsQuery[] = [];
  failNext = 0;
  private clock = Date.parse('2026-03-01T08:00:00Z');
  private seq = 0;

  constructor(readonly behaviour: ListBehaviour) {}

  tick(ms = 1000): string {
    this.clock += ms;
    return new Date(this.clock).toISOString();
  }

  get now(): number {
    return this.clock;
  }

  create(fields: Partial<ShipmentRecord> = {}): ShipmentRecord {
    const at = this.tick();
    const s: ShipmentRecord = {
      id: `shp_${++this.seq}`,
      status: 'PENDING',
      reference_id: `REF-${this.seq}`,
      created_at: at,
      updated_at: at,
      ...fields,
    };
    this.shipments.set(s.id, s);
    return s;
  }

  book(id: string): ShipmentRecord {
    const at = this.tick();
    const s = {
      ...this.shipments.get(id)!,
      status: 'BOOKED',
      carrier_name: 'PostNord',
      tracking_id: `TRK-${id}`,
      available_documents_types: ['label'],
      booked_at: at,
      updated_at: at,
    };
    this.shipments.set(id, s);
    return s;
  }

  touch(id: string): void {
    this.shipments.set(id, { ...this.shipments.get(id)!, updated_at: this.tick() });
  }

  async listShipments(query: ListShipmentsQuery): Promise<readonly ShipmentRecord[]> {
    this.calls.push(query);
    if (this.failNext > 0) {
      this.failNext--;
      throw Object.assign(new Error('service unavailable (request id req-503)'), { code: 'SERVICE_UNAVAILABLE', retryAfterMs: null });
    }
    const all = [...this.shipments.values()];
    const newest = all.sort((a, b) => (a.updated_at! < b.updated_at! ? 1 : a.updated_at! > b.updated_at! ? -1 : 0));
    const limit = query.limit ?? 100;
    const offset = query.offset ?? 0;
    switch (this.behaviour) {
      case 'paged-newest-first':
        return newest.slice(offset, offset + limit);
      case 'paged-oldest-first':
        return [...newest].reverse().slice(offset, offset + limit);
      case 'ignores-offset':
        return newest.slice(0, limit);
      case 'everything-shuffled':
        return shuffle(newest);
    }
  }

  async getShipment(id: string): Promise<ShipmentRecord> {
    const s = this.shipments.get(id);
    if (!s) throw new Error(`no shipment ${id}`);
    return s;
  }
}

function shuffle<T>(items: T[]): T[] {
  const out = [...items];
  let seed = 7;
  for (let i = out.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
