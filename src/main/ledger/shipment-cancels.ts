import type Database from 'better-sqlite3';

/**
 * Who canceled a shipment, as far as this station knows: `station` when its own "Cancel
 * shipment" did (the service said yes), `service` when the service told it (a CANCELED
 * tracking event, a poll, the check before spooling, the end-of-day list).
 */
export type CancelSource = 'station' | 'service';

export interface ShipmentCancel {
  readonly shipmentId: string;
  readonly source: CancelSource;
  /** RFC 3339: when it was canceled (the station's clock, or the service's time when it gave one). */
  readonly canceledAt: string;
  /** The service's X-Service-Request-ID of the answer that said so, when there was one. */
  readonly requestId: string | null;
}

interface Row {
  shipment_id: string;
  source: CancelSource;
  canceled_at: string;
  request_id: string | null;
}

/**
 * The ledger's canceled shipments (table `shipment_cancels`, migration 6): one row per
 * shipment, so End of day and `report` count a cancel after a restart and when the service's
 * list cannot be read. A station's own cancel is never turned into a service one (the detail
 * says where it happened); a service one becomes the station's if this station cancels too.
 */
export class ShipmentCancels {
  private readonly s;

  constructor(
    db: Database.Database,
    private readonly now: () => Date,
  ) {
    this.s = {
      record: db.prepare(`
        INSERT INTO shipment_cancels (shipment_id, source, canceled_at, request_id, recorded_at)
        VALUES (@shipmentId, @source, @canceledAt, @requestId, @now)
        ON CONFLICT (shipment_id) DO UPDATE SET
          source = excluded.source,
          canceled_at = excluded.canceled_at,
          request_id = COALESCE(excluded.request_id, request_id),
          recorded_at = excluded.recorded_at
        WHERE excluded.source = 'station' AND source <> 'station'`),
      get: db.prepare('SELECT shipment_id, source, canceled_at, request_id FROM shipment_cancels WHERE shipment_id = ?'),
      prune: db.prepare('DELETE FROM shipment_cancels WHERE recorded_at < ?'),
    };
  }

  /** Records a cancel; true when the ledger did not know of it before (a new row, not an update). */
  record(cancel: Omit<ShipmentCancel, 'canceledAt' | 'requestId'> & Partial<Pick<ShipmentCancel, 'canceledAt' | 'requestId'>>): boolean {
    const known = this.get(cancel.shipmentId) !== null;
    const now = this.now().toISOString();
    this.s.record.run({
      shipmentId: cancel.shipmentId,
      source: cancel.source,
      canceledAt: cancel.canceledAt ?? now,
      requestId: cancel.requestId ?? null,
      now,
    });
    return !known;
  }

  get(shipmentId: string): ShipmentCancel | null {
    const row = this.s.get.get(shipmentId) as Row | undefined;
    return row ? { shipmentId: row.shipment_id, source: row.source, canceledAt: row.canceled_at, requestId: row.request_id } : null;
  }

  /** Retention: cancels recorded before the cutoff go with the jobs and tracking of their age. */
  prune(cutoffIso: string): number {
    return this.s.prune.run(cutoffIso).changes;
  }
}
