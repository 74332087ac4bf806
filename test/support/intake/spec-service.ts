import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * GET /shipments and GET /shipments/{id}/tracking exactly as the spec shows them, on a real
 * loopback server: no `created_at`, `updated_at` or `booked_at` on the rows, and the list
 * ordered by creation (newest created first), not by change. It honours `limit`/`offset`
 * unless `rejectPaging` is set, in which case it answers them with 400 as a service that
 * rejects unknown query parameters would. Times are milliseconds on the test's own clock.
 */

export interface SpecEvent {
  readonly status: string;
  readonly at: number;
}

interface SpecShipment {
  readonly id: string;
  readonly createdAt: number;
  booked: boolean;
  readonly events: SpecEvent[];
}

export class SpecService {
  /** Every request's method and URL, in order. */
  readonly requests: string[] = [];
  /** Answer limit/offset with 400. */
  rejectPaging = false;
  /** Shipment id -> how many more GET tracking calls answer 503. */
  readonly trackingOutages = new Map<string, number>();
  /** Shipment ids whose GET tracking answers 404. */
  readonly trackingRefused = new Set<string>();
  private readonly shipments: SpecShipment[] = [];
  private server: http.Server | null = null;
  private seq = 0;

  /** A shipment created at `createdAt`; booked (one ORDERED event) when `bookedAt` is given. */
  create(createdAt: number, bookedAt?: number): string {
    const s: SpecShipment = { id: `shp_${++this.seq}`, createdAt, booked: false, events: [] };
    this.shipments.push(s);
    if (bookedAt !== undefined) this.book(s.id, bookedAt);
    return s.id;
  }

  book(id: string, at: number): void {
    const s = this.find(id);
    s.booked = true;
    s.events.push({ status: 'ORDERED', at });
  }

  /** A carrier event: it becomes the shipment's tracking_status. */
  carrierEvent(id: string, status: string, at: number): void {
    this.find(id).events.push({ status, at });
  }

  tracking(id: string): SpecEvent[] {
    return [...this.find(id).events];
  }

  async listen(): Promise<string> {
    this.server = http.createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private find(id: string): SpecShipment {
    const s = this.shipments.find((x) => x.id === id);
    if (!s) throw new Error(`no shipment ${id}`);
    return s;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    this.requests.push(`${req.method} ${req.url}`);
    const url = new URL(req.url ?? '/', 'http://stub');
    const send = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json', 'x-service-request-id': `req-${this.requests.length}` });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'GET') return send(405, { message: 'method not allowed' });
    if (url.pathname === '/shipments') {
      const limit = url.searchParams.get('limit');
      const offset = url.searchParams.get('offset');
      if (this.rejectPaging && (limit !== null || offset !== null)) return send(400, { message: 'unknown query parameter' });
      const newestCreated = [...this.shipments].sort((a, b) => b.createdAt - a.createdAt);
      const from = Number(offset ?? 0);
      const rows = limit === null ? newestCreated.slice(from) : newestCreated.slice(from, from + Number(limit));
      return send(
        200,
        rows.map((s) => this.row(s)),
      );
    }
    const tracking = /^\/shipments\/([^/]+)\/tracking$/.exec(url.pathname);
    if (tracking) {
      const id = decodeURIComponent(tracking[1]!);
      const s = this.shipments.find((x) => x.id === id);
      if (!s || this.trackingRefused.has(id)) return send(404, { message: 'shipment not found' });
      const outages = this.trackingOutages.get(id) ?? 0;
      if (outages > 0) {
        this.trackingOutages.set(id, outages - 1);
        return send(503, { message: 'try again' });
      }
      return send(
        200,
        s.events.map((e, i) => event(s.id, e, i)),
      );
    }
    send(404, { message: 'no such route' });
  }

  private row(s: SpecShipment): Record<string, unknown> {
    const latest = s.events.at(-1);
    return {
      id: s.id,
      status: s.booked ? 'BOOKED' : 'PENDING',
      reference_id: `REF-${s.id}`,
      packages: [],
      available_documents_types: s.booked ? ['label'] : [],
      ...(s.booked ? { carrier_name: 'PostNord', tracking_id: `TRK-${s.id}` } : {}),
      ...(latest ? { tracking_status: event(s.id, latest, s.events.length - 1) } : {}),
    };
  }
}

function event(shipmentId: string, e: SpecEvent, index: number): Record<string, unknown> {
  return {
    ID: `${shipmentId}-evt-${index}`,
    status: e.status,
    created_at: new Date(e.at).toISOString(),
    description: '',
    location_name: '',
  };
}
