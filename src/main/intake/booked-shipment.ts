import type { BookingNotice } from '../jobs/booking-notice';
import type { ShipmentRecord } from './ports';

/**
 * Reading a listed shipment as a booking. The spec has no "booked" status and no booking
 * time on GET /shipments, so:
 *
 * - A shipment counts as booked when its status is not CANCELED and it has any of: a
 *   tracking id, a carrier_name, a `booked_at`, or `label` among available_documents_types
 *   (printing works only for booked shipments, spec States 3).
 * - Its booking time is `booked_at` when the service sends it (the sandbox does), else the
 *   `ORDERED` tracking_status, which the spec dates to the booking until the first carrier
 *   event, else unknown.
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

export function changeTime(shipment: ShipmentRecord): string | null {
  return shipment.updated_at || shipment.tracking_status?.created_at || bookingTime(shipment) || shipment.created_at || null;
}

/** A poll does not say how a shipment was booked: source stays null. */
export function noticeFromShipment(shipment: ShipmentRecord): BookingNotice {
  return {
    shipmentId: shipment.id,
    referenceId: shipment.reference_id ?? null,
    trackingId: shipment.tracking_id ?? null,
    carrier: shipment.carrier_name ?? null,
    source: null,
    senderReference: shipment.sender_reference ?? null,
    system: shipment.system ?? null,
    bookedAt: bookingTime(shipment),
    trigger: 'poll',
  };
}
