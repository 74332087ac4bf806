import type { JobSiteDecision } from '../../shared/domain';

/**
 * A booking the station learned of, however it arrived (webhook or poll). Intake builds
 * it; station rules decide on it; the print pipeline turns it into jobs.
 */
export interface BookingNotice {
  readonly shipmentId: string;
  readonly referenceId: string | null;
  readonly trackingId: string | null;
  /** Carrier code (webhook `data.carrier`) or carrier name (poll). */
  readonly carrier: string | null;
  /** `API` or `APP`; null when unknown (a poll does not say how a shipment was booked). */
  readonly source: string | null;
  readonly senderReference: string | null;
  readonly system: string | null;
  /** RFC 3339; orders labels when deliveries arrive out of order. */
  readonly bookedAt: string | null;
  /** `scan`: booked at this station (pack and ship), printed by the same idempotent path. */
  readonly trigger: 'webhook' | 'poll' | 'scan';
  /** Why the site sent it to this station: set by the station's site consumer only. @default none */
  readonly siteDecision?: JobSiteDecision | null;
}
