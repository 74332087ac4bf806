import { codedOnly, englishOf, parseAgentMessage, type AgentMessage } from '../../shared/agent-messages';
import type Database from 'better-sqlite3';
import type { TrackingEventView } from '../../shared/domain';
import type { BookingNotice } from './booking-notice';
import { parcelTrackingIds } from './parcel-tracking-ids';

export interface SeenShipment {
  readonly shipmentId: string;
  readonly referenceId: string | null;
  readonly trackingId: string | null;
  readonly carrier: string | null;
  readonly source: string | null;
  readonly bookedAt: string | null;
  /** Whatever the caller wants back on a scan (e.g. the service's shipment JSON). */
  readonly data: unknown;
}

/** A webhook booking acknowledged but not yet decided by the station rules (table intake_pending). */
export interface PendingBooking {
  readonly notice: BookingNotice;
  /** The webhook's data, kept for the shipment index. */
  readonly data: unknown;
  readonly receivedAt: string;
  /** Decisions tried and put off so far (each a failed shipment fetch). */
  readonly attempts: number;
  readonly nextAttemptAt: string;
  /** Why it waits; null before the first try. */
  readonly reason: string | null;
  /** The same as a message code (migration 5); absent on rows stored before codes. */
  readonly reasonMessage?: AgentMessage | null;
}

interface PendingRow {
  notice: string;
  data: string | null;
  received_at: string;
  attempts: number;
  next_attempt_at: string;
  reason: string | null;
  reason_message?: string | null;
}

export interface ScanMatch {
  readonly shipmentId: string;
  readonly matchedBy: 'shipment_id' | 'reference' | 'tracking_id';
  readonly shipment: SeenShipment;
}

interface ShipmentRow {
  shipment_id: string;
  reference_id: string | null;
  tracking_id: string | null;
  carrier: string | null;
  source: string | null;
  booked_at: string | null;
  data: string | null;
}

/**
 * What intake remembers in the ledger next to the jobs: webhook message ids (dedup), the
 * bookings waiting for a decision, the local shipment index scans resolve through, tracking
 * events and the poller's cursors. Statements are prepared once and reused.
 */
export class IntakeStore {
  private readonly s;
  /**
   * One transaction wrapper, made once: better-sqlite3's db.transaction(fn) builds four
   * wrapper functions at each call, a cost that showed in a burst's profile.
   */
  private readonly inTransaction: <T>(fn: () => T) => T;

  constructor(
    private readonly db: Database.Database,
    private readonly now: () => Date,
  ) {
    this.inTransaction = db.transaction((fn: () => unknown) => fn()) as <T>(fn: () => T) => T;
    this.s = {
      remember: db.prepare('INSERT OR IGNORE INTO webhook_messages (message_id, received_at) VALUES (?, ?)'),
      upsertShipment: db.prepare(`
        INSERT INTO shipments_seen (shipment_id, reference_id, tracking_id, carrier, source, booked_at, data, updated_at)
        VALUES (@shipmentId, @referenceId, @trackingId, @carrier, @source, @bookedAt, @data, @updatedAt)
        ON CONFLICT(shipment_id) DO UPDATE SET
          reference_id = COALESCE(excluded.reference_id, reference_id),
          tracking_id = COALESCE(excluded.tracking_id, tracking_id),
          carrier = COALESCE(excluded.carrier, carrier),
          source = COALESCE(excluded.source, source),
          booked_at = COALESCE(excluded.booked_at, booked_at),
          data = COALESCE(excluded.data, data),
          updated_at = excluded.updated_at`),
      shipmentById: db.prepare('SELECT * FROM shipments_seen WHERE shipment_id = ?'),
      shipmentByIdNocase: db.prepare('SELECT * FROM shipments_seen WHERE shipment_id = ? COLLATE NOCASE ORDER BY updated_at DESC LIMIT 1'),
      shipmentByReference: db.prepare(
        'SELECT * FROM shipments_seen WHERE reference_id = ? COLLATE NOCASE ORDER BY updated_at DESC LIMIT 1',
      ),
      shipmentByTracking: db.prepare('SELECT * FROM shipments_seen WHERE tracking_id = ? COLLATE NOCASE ORDER BY updated_at DESC LIMIT 1'),
      addParcel: db.prepare('INSERT OR IGNORE INTO shipment_parcels (tracking_id, shipment_id) VALUES (?, ?)'),
      parcelsKnown: db.prepare('UPDATE shipments_seen SET parcels_known = 1 WHERE shipment_id = ?'),
      shipmentByParcel: db.prepare(`
        SELECT s.* FROM shipment_parcels p JOIN shipments_seen s ON s.shipment_id = p.shipment_id
        WHERE p.tracking_id = ? COLLATE NOCASE ORDER BY s.updated_at DESC LIMIT 1`),
      parcelsUnknown: db.prepare(`
        SELECT shipment_id FROM shipments_seen WHERE parcels_known = 0 AND tracking_id IS NOT NULL
        ORDER BY updated_at DESC LIMIT ?`),
      pruneParcels: db.prepare('DELETE FROM shipment_parcels WHERE shipment_id NOT IN (SELECT shipment_id FROM shipments_seen)'),
      recordTracking: db.prepare(`
        INSERT OR IGNORE INTO tracking_events
          (shipment_id, event_key, status, description, location, occurred_at, occurred_ms, data, recorded_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      trackingFor: db.prepare('SELECT data FROM tracking_events WHERE shipment_id = ? ORDER BY occurred_ms DESC, rowid DESC'),
      getCursor: db.prepare('SELECT value FROM cursors WHERE name = ?'),
      setCursor: db.prepare('INSERT INTO cursors (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value'),
      addPending: db.prepare(`
        INSERT OR IGNORE INTO intake_pending (shipment_id, notice, data, received_at, attempts, next_attempt_at, reason)
        VALUES (?, ?, ?, ?, 0, ?, NULL)`),
      deferPending: db.prepare(
        'UPDATE intake_pending SET attempts = attempts + 1, next_attempt_at = ?, reason = ?, reason_message = ? WHERE shipment_id = ?',
      ),
      removePending: db.prepare('DELETE FROM intake_pending WHERE shipment_id = ?'),
      allPending: db.prepare('SELECT * FROM intake_pending ORDER BY next_attempt_at, received_at'),
      pruneMessages: db.prepare('DELETE FROM webhook_messages WHERE received_at < ?'),
      pruneTracking: db.prepare('DELETE FROM tracking_events WHERE recorded_at < ?'),
      pruneShipments: db.prepare('DELETE FROM shipments_seen WHERE updated_at < ?'),
    };
  }

  /** Runs `fn` in one transaction; nested, in a savepoint of the outer one. */
  transaction<T>(fn: () => T): T {
    return this.inTransaction(fn);
  }

  /** True when the message id is new (first delivery); false for a redelivery. */
  rememberMessage(messageId: string): boolean {
    return this.s.remember.run(messageId, this.now().toISOString()).changes === 1;
  }

  /** A webhook booking's message id and the booking itself, in one transaction (before the 2xx). */
  rememberBooking(messageId: string, notice: BookingNotice, data: unknown): boolean {
    return this.inTransaction(() => {
      if (!this.rememberMessage(messageId)) return false;
      this.addPendingBooking(notice, data);
      return true;
    });
  }

  /**
   * Keeps an accepted webhook booking until it is decided. A second booking of a shipment
   * already waiting keeps the first (the same booking, delivered again under a new id).
   */
  addPendingBooking(notice: BookingNotice, data: unknown): void {
    const now = this.now().toISOString();
    const stored = data === undefined || data === null ? null : JSON.stringify(data);
    this.s.addPending.run(notice.shipmentId, JSON.stringify(notice), stored, now, now);
  }

  /** A decision was put off (the shipment could not be fetched): try again at `nextAttemptAt`. */
  deferPendingBooking(shipmentId: string, nextAttemptAt: string, reason: AgentMessage): void {
    const message = codedOnly(reason);
    this.s.deferPending.run(nextAttemptAt, englishOf(reason), message ? JSON.stringify(message) : null, shipmentId);
  }

  /** The booking was decided (submitted as a job, or not printed on its facts). */
  removePendingBooking(shipmentId: string): void {
    this.s.removePending.run(shipmentId);
  }

  /** Every booking still waiting, the soonest due first. */
  pendingBookings(): PendingBooking[] {
    return (this.s.allPending.all() as PendingRow[]).map((row) => ({
      notice: JSON.parse(row.notice) as BookingNotice,
      data: row.data === null ? null : (JSON.parse(row.data) as unknown),
      receivedAt: row.received_at,
      attempts: row.attempts,
      nextAttemptAt: row.next_attempt_at,
      reason: row.reason,
      reasonMessage: row.reason === null ? null : parseAgentMessage(row.reason_message),
    }));
  }

  /**
   * Indexes the shipment; when `data` is the service's record (it has `packages`), every
   * parcel's own tracking number too, so a scan of any parcel finds it.
   */
  upsertShipment(shipment: SeenShipment): void {
    const parcels = parcelTrackingIds(shipment.data);
    this.inTransaction(() => {
      this.upsertSeen(shipment);
      if (parcels === null) return;
      for (const trackingId of parcels) this.s.addParcel.run(trackingId, shipment.shipmentId);
      this.s.parcelsKnown.run(shipment.shipmentId);
    });
  }

  /** Booked shipments indexed without their parcel numbers (from webhooks), the latest first. */
  shipmentsWithoutParcels(limit: number): string[] {
    return (this.s.parcelsUnknown.all(limit) as { shipment_id: string }[]).map((r) => r.shipment_id);
  }

  private upsertSeen(shipment: SeenShipment): void {
    this.s.upsertShipment.run({
      shipmentId: shipment.shipmentId,
      referenceId: shipment.referenceId,
      trackingId: shipment.trackingId,
      carrier: shipment.carrier,
      source: shipment.source,
      bookedAt: shipment.bookedAt,
      data: shipment.data === undefined || shipment.data === null ? null : JSON.stringify(shipment.data),
      updatedAt: this.now().toISOString(),
    });
  }

  /**
   * Resolve a scan through the local index: shipment id first (exact, then ignoring
   * case), then reference, then tracking id, then any parcel's tracking number (ignoring case).
   */
  lookupShipment(value: string): ScanMatch | null {
    const v = value.trim();
    if (!v) return null;
    const byId = (this.s.shipmentById.get(v) ?? this.s.shipmentByIdNocase.get(v)) as ShipmentRow | undefined;
    if (byId) return { shipmentId: byId.shipment_id, matchedBy: 'shipment_id', shipment: toSeen(byId) };
    const byRef = this.s.shipmentByReference.get(v) as ShipmentRow | undefined;
    if (byRef) return { shipmentId: byRef.shipment_id, matchedBy: 'reference', shipment: toSeen(byRef) };
    const byTracking = this.s.shipmentByTracking.get(v) as ShipmentRow | undefined;
    if (byTracking) return { shipmentId: byTracking.shipment_id, matchedBy: 'tracking_id', shipment: toSeen(byTracking) };
    const byParcel = this.s.shipmentByParcel.get(v) as ShipmentRow | undefined;
    if (byParcel) return { shipmentId: byParcel.shipment_id, matchedBy: 'tracking_id', shipment: toSeen(byParcel) };
    return null;
  }

  findShipmentIdByScan(value: string): string | null {
    return this.lookupShipment(value)?.shipmentId ?? null;
  }

  getShipment(shipmentId: string): SeenShipment | null {
    const row = this.s.shipmentById.get(shipmentId) as ShipmentRow | undefined;
    return row ? toSeen(row) : null;
  }

  /** True when the event is new for this shipment (deduplicated by id, else by content). */
  recordTracking(shipmentId: string, event: TrackingEventView): boolean {
    const key = event.id
      ? `${shipmentId}|id|${event.id}`
      : `${shipmentId}|${event.status}|${event.occurredAt}|${event.description ?? ''}|${event.location ?? ''}`;
    const ms = Date.parse(event.occurredAt);
    return (
      this.s.recordTracking.run(
        shipmentId,
        key,
        event.status,
        event.description,
        event.location,
        event.occurredAt,
        Number.isFinite(ms) ? ms : 0,
        JSON.stringify(event),
        this.now().toISOString(),
      ).changes === 1
    );
  }

  /** Newest first by when the event happened, not when it arrived. */
  trackingFor(shipmentId: string): TrackingEventView[] {
    return (this.s.trackingFor.all(shipmentId) as { data: string }[]).map((r) => JSON.parse(r.data) as TrackingEventView);
  }

  getCursor(name: string): string | null {
    return (this.s.getCursor.get(name) as { value: string } | undefined)?.value ?? null;
  }

  setCursor(name: string, value: string): void {
    this.s.setCursor.run(name, value);
  }

  prune(cutoffIso: string): { messages: number; tracking: number; shipments: number } {
    const shipments = this.s.pruneShipments.run(cutoffIso).changes;
    if (shipments > 0) this.s.pruneParcels.run();
    return {
      messages: this.s.pruneMessages.run(cutoffIso).changes,
      tracking: this.s.pruneTracking.run(cutoffIso).changes,
      shipments,
    };
  }
}

function toSeen(row: ShipmentRow): SeenShipment {
  return {
    shipmentId: row.shipment_id,
    referenceId: row.reference_id,
    trackingId: row.tracking_id,
    carrier: row.carrier,
    source: row.source,
    bookedAt: row.booked_at,
    data: row.data === null ? null : (JSON.parse(row.data) as unknown),
  };
}
