import type { StationRules, TrackingEventView } from '../../shared/domain';
import type { BookingNotice } from '../ledger/booking-notice';
import type { SeenShipment } from '../ledger/intake-store';

/**
 * What intake needs from the rest of the agent, as structural ports: the ledger, the
 * pipeline and the service client satisfy them as they are, and tests can pass the real
 * modules without adapters.
 */

/** Webhook dedup, persisted (the ledger). Returns false when the id was already seen. */
export interface MessageLedgerPort {
  rememberMessage(messageId: string): boolean;
  /**
   * Runs `fn` in one transaction (a nested call: a savepoint); a throw undoes what `fn`
   * wrote. Optional: without it each delivery is recorded on its own.
   */
  transaction?<T>(fn: () => T): T;
}

/** Per-shipment tracking store (the ledger). Returns false when the event was already stored. */
export interface TrackingStorePort {
  recordTracking(shipmentId: string, event: TrackingEventView): boolean;
}

/** Persisted named cursors (the ledger). */
export interface CursorStorePort {
  getCursor(name: string): string | null | undefined;
  setCursor(name: string, value: string): void;
}

/** The local shipment index scans resolve through (the ledger's `upsertShipment`). */
export interface ShipmentIndexPort {
  upsertShipment(shipment: SeenShipment): void;
}

/** The print pipeline. Idempotent: the same booking submitted twice prints once. */
export interface BookingSinkPort {
  submitBooking(notice: BookingNotice): unknown;
  /**
   * Runs `fn` (submissions and intake's own ledger writes) in one ledger transaction; what
   * the submitted jobs start runs once it commits, nothing if `fn` throws. Optional: without
   * it each booking is decided on its own.
   */
  together?<T>(fn: () => T): T;
}

/** A shipment as the service lists or fetches it; only what intake reads. */
export interface ShipmentRecord {
  readonly id: string;
  readonly reference_id?: string | null;
  readonly status?: string | null;
  readonly tracking_id?: string | null;
  readonly carrier_name?: string | null;
  readonly sender_reference?: string | null;
  readonly system?: string | null;
  readonly available_documents_types?: readonly string[] | null;
  readonly tracking_status?: { readonly status?: string | null; readonly created_at?: string | null } | null;
  /** Not in the spec; the sandbox sends them and the poller uses them when present. */
  readonly created_at?: string | null;
  readonly updated_at?: string | null;
  readonly booked_at?: string | null;
}

export interface ListShipmentsQuery {
  readonly limit?: number;
  readonly offset?: number;
  readonly status?: string;
  readonly reference_id?: string;
}

/** One event of GET /shipments/{id}/tracking; only what intake reads. */
export interface TrackingEventRecord {
  readonly status?: string | null;
  readonly created_at?: string | null;
}

/** The service client, as far as intake uses it. */
export interface ShipmentSourcePort {
  listShipments(query: ListShipmentsQuery): Promise<readonly ShipmentRecord[]>;
  getShipment?(id: string): Promise<ShipmentRecord>;
  /**
   * GET /shipments/{id}/tracking: every event since creation. The poller dates a booking
   * by its `ORDERED` event when the listed shipment shows neither `booked_at` nor an
   * `ORDERED` tracking_status; without this, such a booking is not auto-printed.
   */
  tracking?(id: string): Promise<readonly TrackingEventRecord[]>;
}

/** Current station rules; a function so a settings change applies to the next booking. */
export type StationRulesSource = StationRules | (() => StationRules);

export interface IntakeLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const silentLogger: IntakeLogger = { info() {}, warn() {}, error() {} };
