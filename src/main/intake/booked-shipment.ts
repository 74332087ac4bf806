import type { BookingNotice } from '../ledger/booking-notice';
import type { ShipmentRecord, TrackingEventRecord } from './ports';
import { toEpochNanos } from './timestamps';

/**
 * Reading a listed shipment as a booking. The spec has no "booked" status and no booking
 * time on GET /shipments, so:
 *
 * - A shipment counts as booked when its status is not CANCELED and it has any of: a
 *   tracking id, a carrier_name, a `booked_at`, or `label` among available_documents_types
 *   (printing works only for booked shipments, spec States 3).
 * - Its booking time, as far as the listing shows it, is `booked_at` when the service sends
 *   it (the sandbox does), else the `ORDERED` tracking_status, which the spec dates to the
 *   booking until the first carrier event, else unknown from the listing alone: the poller
 *   then asks GET /shipments/{id}/tracking (`bookingTimeFromTracking`).
 * - Its change time, which the poller's high-water mark follows, is `updated_at` when sent,
 *   else the time of its latest tracking event, else the booking time, else `created_at`.
 */

export function isBooked(shipment: ShipmentRecord): boolean {
  if ((shipment.status ?? '').toUpperCase() === 'CANCELED') return false;
  return Boolean(
    shipment.tracking_id ||
    shipment.carrier_name ||
    shipment.booked_at ||
    (shipment.available_documents_types ?? []).some((d) => d.toLowerCase() === 'label'),
  );
}

export function bookingTime(shipment: ShipmentRecord): string | null {
  if (shipment.booked_at) return shipment.booked_at;
  const latest = shipment.tracking_status;
  if (latest?.created_at && (latest.status ?? '').toUpperCase() === 'ORDERED') return latest.created_at;
  return null;
}

/**
 * The booking time from a shipment's full tracking history: its `ORDERED` event (spec,
 * States 5). Should there be several, the latest counts, since only a later booking could
 * add one. Null when there is none (a canceled or hand-set shipment has an empty history).
 */
export function bookingTimeFromTracking(events: readonly TrackingEventRecord[]): string | null {
  let best: { text: string; ns: bigint } | null = null;
  for (const event of events) {
    if ((event.status ?? '').toUpperCase() !== 'ORDERED' || !event.created_at) continue;
    const ns = toEpochNanos(event.created_at);
    if (ns === null) continue;
    if (best === null || ns > best.ns) best = { text: event.created_at, ns };
  }
  return best?.text ?? null;
}

export function changeTime(shipment: ShipmentRecord): string | null {
  return shipment.updated_at || shipment.tracking_status?.created_at || bookingTime(shipment) || shipment.created_at || null;
}

/**
 * A poll does not say how a shipment was booked: source stays null. `bookedAt` defaults to
 * what the listing shows; the poller passes the time it established from tracking.
 */
export function noticeFromShipment(shipment: ShipmentRecord, bookedAt: string | null = bookingTime(shipment)): BookingNotice {
  return {
    shipmentId: shipment.id,
    referenceId: shipment.reference_id ?? null,
    trackingId: shipment.tracking_id ?? null,
    carrier: shipment.carrier_name ?? null,
    source: null,
    senderReference: shipment.sender_reference ?? null,
    system: shipment.system ?? null,
    bookedAt,
    trigger: 'poll',
  };
}
