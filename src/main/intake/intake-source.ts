import type { TrackingEventView } from '../../shared/domain';
import type { BookingSinkPort } from './ports';
import type { TrackingAlert } from './sources/webhooks/alerts';

/**
 * What every intake source hands its bookings to: the print engine at a station, the site's
 * publisher at a relay. Only `submitBooking` is required; a sink without one of the optional
 * hooks gets nothing for it (a relay ignores tracking events and cancels).
 */
export interface IntakeSink extends BookingSinkPort {
  /** A booking or mark the ledger could not take (disk full): said once, and parked until it can. */
  ledgerFailed?(error: unknown): void;
  /** The service says the shipment is canceled; `how` names what told it ("a poll"). */
  canceledAtService?(shipmentId: string, how: string): void;
  /** A tracking event was stored for a shipment. */
  tracking?(shipmentId: string, event: TrackingEventView): void;
  /** A tracking event that needs a person (a delivery failure, a return). */
  alert?(alert: TrackingAlert): void;
}

/**
 * One way bookings come in (webhooks, polling, a site of stations). A source does nothing
 * until started, feeds only the sink it was started with, and after stop() feeds nothing
 * and holds no timer, socket or connection.
 */
export interface IntakeSource {
  start(sink: IntakeSink): Promise<void>;
  /** The settings it was built from changed (poll interval, account): apply them. @default nothing to do */
  refresh?(): Promise<void>;
  stop(): Promise<void>;
}
