import { bookingTime, bookingTimeFromTracking } from '../../booked-shipment';
import { errorText } from '../../error-text';
import type { IntakeLogger, ShipmentRecord, ShipmentSourcePort, TrackingEventRecord } from '../../ports';
import { toEpochNanos } from '../../timestamps';

/*
 * When a listed shipment was booked, for the poller: the listing often does not say, and
 * then GET /shipments/{id}/tracking is asked for the ORDERED event. Each such lookup is a
 * request, so known booking times are cached. Kept apart from the Poller so the lookups,
 * their failure rules and the cache are read in one place.
 */

/** Booking times kept in memory, so carrier events on known bookings cost no request. */
const BOOKED_AT_CACHE_SIZE = 10_000;

export interface BookingTimeResolverOptions {
  readonly shipments: ShipmentSourcePort;
  readonly logger: IntakeLogger;
}

export class BookingTimeResolver {
  private readonly bookedAtCache = new Map<string, string>();

  constructor(private readonly options: BookingTimeResolverOptions) {}

  /**
   * When the shipment was booked: from the listing (booked_at, an ORDERED tracking_status),
   * else from its ORDERED event in GET /shipments/{id}/tracking. Null when that cannot be
   * established. Throws when the tracking could not be read for a reason that may pass.
   */
  async establishBookingTime(shipment: ShipmentRecord): Promise<string | null> {
    const listed = bookingTime(shipment);
    if (listed !== null && toEpochNanos(listed) !== null) return listed;
    const cached = this.bookedAtCache.get(shipment.id);
    if (cached !== undefined) return cached;
    if (!this.options.shipments.tracking) return null;
    let events: readonly TrackingEventRecord[];
    try {
      events = await this.options.shipments.tracking(shipment.id);
    } catch (error) {
      if (isPermanent(error)) {
        this.options.logger.warn(`poller: tracking of shipment ${shipment.id} is refused: ${errorText(error)}`);
        return null;
      }
      throw error;
    }
    const booked = bookingTimeFromTracking(events);
    // A booking time never changes: remember it, so each later carrier event on the same
    // shipment costs no request. Bounded; the oldest entry goes first.
    if (booked !== null) {
      if (this.bookedAtCache.size >= BOOKED_AT_CACHE_SIZE) this.bookedAtCache.delete(this.bookedAtCache.keys().next().value as string);
      this.bookedAtCache.set(shipment.id, booked);
    }
    return booked;
  }
}

/** The client says retrying cannot help (ApiError.retryable === false: 400, 404, ...). */
function isPermanent(error: unknown): boolean {
  return Boolean(error && typeof error === 'object' && 'retryable' in error && error.retryable === false);
}
