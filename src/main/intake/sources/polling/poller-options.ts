// The poller's options and what one poll reports (poller.ts).
import type { DispatchResult } from '../../booking-dispatch';
import type {
  BookingSinkPort,
  CursorStorePort,
  IntakeLogger,
  ShipmentIndexPort,
  ShipmentSourcePort,
  StationRulesSource,
} from '../../ports';

export interface PollerOptions {
  readonly shipments: ShipmentSourcePort;
  readonly cursors: CursorStorePort;
  readonly sink: BookingSinkPort;
  readonly stationRules: StationRulesSource;
  /**
   * Seconds from the start of one poll to the start of the next (the poll's own time is
   * part of it, so the rate is exactly one an interval); each varies by ±1 % so stations
   * drift out of step. @default 5 (12 requests a minute; docs/OPERATIONS.md, Poller)
   */
  readonly intervalSeconds?: number;
  /**
   * While bookings are arriving (a poll found one), poll this often instead, until
   * `busyPolls` polls in a row have found nothing: with a long interval (an operator's
   * `--poll-interval 30`), a wave of orders is still printed seconds after each booking.
   * Never longer than intervalSeconds, so at the default 5 s it changes nothing. @default 5
   */
  readonly busyIntervalSeconds?: number;
  /** Empty polls at busyIntervalSeconds before going back to intervalSeconds. @default 4 */
  readonly busyPolls?: number;
  /** First run ever (no mark): only bookings this recent are printed, not the whole history. @default 10 */
  readonly initialLookbackMinutes?: number;
  /** Page size asked for. @default 50 */
  readonly pageSize?: number;
  /** A poll's first page, the "anything new?" request (shipment-pages.ts). @default 10 */
  readonly firstPageSize?: number;
  /**
   * Shipments changed this close below the mark are read again and checked against the ids
   * kept with it, for a service that makes a change visible later than its timestamp says.
   * Ids sharing the mark's exact timestamp are always kept. Each poll reads every shipment
   * changed in this margin, so keep it small. @default 0
   */
  readonly overlapMs?: number;
  /** Safety stop for a service that pages without end. @default 10000 */
  readonly maxPages?: number;
  /** Longest wait after repeated failures, in seconds. @default 300 */
  readonly maxBackoffSeconds?: number;
  /**
   * A shipment whose tracking lookup fails this many polls in a row is parked (kept with the
   * cursor and asked about again at each poll) so the mark can move on. @default 5
   */
  readonly parkAfterFailures?: number;
  /** Name of the persisted cursor. @default 'poller.shipments' */
  readonly cursorName?: string;
  /** Every booking seen is indexed here so a scan finds it (the ledger). @default none */
  readonly index?: ShipmentIndexPort;
  /**
   * A shipment changed since the mark reads CANCELED (the web application, another station):
   * whatever of it waits at this station must not print. @default none
   */
  readonly onCanceled?: (shipmentId: string) => void;
  /**
   * A booking, a cancel or the poll mark could not be written because the ledger cannot take
   * writes (disk full, read-only): the agent parks its lines on it and says so once. The
   * poller then logs no line per booking or per poll for it, and polls on at its interval
   * (no backoff: the service is fine) to record them once the ledger takes writes.
   * @default none (a line each, and the poll backs off as for any failure)
   */
  readonly onLedgerFailure?: (error: unknown) => void;
  /** A booking went through the station rules. @default none */
  readonly onBooking?: (result: DispatchResult) => void;
  /** @default silent */
  readonly logger?: IntakeLogger;
  /** @default Date.now */
  readonly now?: () => number;
  /** @default Math.random */
  readonly random?: () => number;
}

export interface PollResult {
  readonly ok: boolean;
  /** True when this poll was a reconciliation (first after start or after a failure). */
  readonly reconciled: boolean;
  readonly pagesRead: number;
  readonly shipmentsRead: number;
  /** Bookings handed to the station rules (each then submitted or skipped). */
  readonly bookingsFound: number;
  readonly submitted: number;
  readonly skipped: number;
  /** The mark after this poll (RFC 3339). */
  readonly mark: string | null;
  readonly error: unknown;
}
