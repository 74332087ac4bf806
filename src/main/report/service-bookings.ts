/**
 * The day's bookings as the service lists them: GET /shipments read the way the poller
 * reads it (shipment-pages.ts: limit/offset, services that ignore or reject them, an early
 * stop only on a proven newest-changed-first order), then dated the way the poller dates
 * them (booked_at, an ORDERED tracking_status, else the ORDERED event of the tracking).
 */
import { bookingTime, isBooked } from '../intake/booked-shipment';
import { BookingTimeResolver } from '../intake/sources/polling/booking-time-resolver';
import type { IntakeLogger, ShipmentSourcePort } from '../intake/ports';
import { ShipmentPages } from '../intake/sources/polling/shipment-pages';
import { NANOS_PER_MS } from '../intake/timestamps';
import type { DayWindow } from './day-window';
import { epochMs, type ListedBooking } from './end-of-day';

export interface ServiceBookingsOptions {
  readonly shipments: ShipmentSourcePort;
  readonly logger: IntakeLogger;
  /** @default 100 */
  readonly pageSize?: number;
}

/** Booked (or since canceled) within the day; a booking whose time cannot be established is left out, and logged. */
export async function listBookingsOfDay(window: DayWindow, options: ServiceBookingsOptions): Promise<ListedBooking[]> {
  const { shipments, logger } = options;
  const pages = new ShipmentPages({ shipments, pageSize: options.pageSize ?? 100, maxPages: 10_000, logger });
  // A shipment booked within the day changed at or after its start: older pages can stop the read.
  const { read } = await pages.list(BigInt(window.start.getTime()) * NANOS_PER_MS);
  const times = new BookingTimeResolver({ shipments: options.shipments, logger: options.logger });
  const startNs = BigInt(window.start.getTime()) * NANOS_PER_MS;
  const out: ListedBooking[] = [];
  let undated = 0;
  for (const { shipment, changed } of read.values()) {
    if (changed < startNs) continue;
    const canceled = (shipment.status ?? '').toUpperCase() === 'CANCELED';
    if (!canceled && !isBooked(shipment)) continue;
    // A canceled shipment keeps no tracking: only a booking time in the listing dates it.
    const bookedAt = canceled ? bookingTime(shipment) : await times.establishBookingTime(shipment);
    if (bookedAt === null) {
      if (!canceled) undated++;
      continue;
    }
    const t = epochMs(bookedAt);
    if (t >= window.start.getTime() && t < window.end.getTime()) out.push({ shipment, bookedAt });
  }
  if (undated > 0) logger.warn(`end of day: ${undated} booked shipment(s) carry no booking time the service shows; left out of the report`);
  return out;
}
