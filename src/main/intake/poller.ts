import type { BookingNotice } from '../jobs/booking-notice';
import { createBookingDispatcher, type BookingDispatcher, type DispatchResult } from './booking-dispatch';
import { bookingTime, bookingTimeFromTracking, changeTime, isBooked, noticeFromShipment } from './booked-shipment';
import { INTAKE_ERROR_CODES, IntakeConfigError } from './errors';
import {
  silentLogger,
  type BookingSinkPort,
  type CursorStorePort,
  type IntakeLogger,
  type ShipmentIndexPort,
  type ShipmentRecord,
  type ShipmentSourcePort,
  type StationRulesSource,
  type TrackingEventRecord,
} from './ports';
import { compareTimestamps, fromEpochNanos, NANOS_PER_MS, toEpochNanos } from './timestamps';

/**
 * Polls GET /shipments for bookings (issue 4, part 2) and keeps a persisted high-water
 * mark: the newest change time it has read. What the spec leaves open, and how this copes
 * (docs/OPERATIONS.md "Poller"):
 *
 * - Paging and order are not in the spec. Pages of `limit`/`offset` are asked for; a
 *   service that answers them with 400 is read with a plain GET from then on; one that
 *   ignores `limit` answers with everything in one page; one that ignores `offset` repeats
 *   a page (detected: stop). The poll stops early, at the first page older than the mark,
 *   only on a service whose rows all carry `updated_at` in non-increasing order (the
 *   sandbox); any other is read to the end, so the cost there follows the team's history.
 * - "Booked" and the booking time are read as booked-shipment.ts explains. A booking whose
 *   time cannot be established (no `booked_at`, no ORDERED event in the listing or in
 *   GET /shipments/{id}/tracking) is not auto-printed: a carrier event on an old shipment
 *   must not print it again. Only bookings at or after the window start are submitted.
 * - Timestamps equal to the mark: ids within `overlapMs` of the mark are kept with it, so a
 *   shipment sharing the mark's timestamp is neither missed nor submitted twice.
 *
 * Every poll submits everything booked since the mark, so the first poll after start and
 * the first success after a failure are reconciliations (spec, Events 5); the ledger's
 * idempotency makes a booking also seen by webhook print once.
 */

export interface PollerOptions {
  readonly shipments: ShipmentSourcePort;
  readonly cursors: CursorStorePort;
  readonly sink: BookingSinkPort;
  readonly stationRules: StationRulesSource;
  /** Seconds between polls; each wait varies by ±10 %. @default 15 */
  readonly intervalSeconds?: number;
  /** First run ever (no mark): only bookings this recent are printed, not the whole history. @default 10 */
  readonly initialLookbackMinutes?: number;
  /** Page size asked for. @default 50 */
  readonly pageSize?: number;
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
  /** Name of the persisted cursor. @default 'poller.shipments' */
  readonly cursorName?: string;
  /** Every booking seen is indexed here so a scan finds it (the ledger). @default none */
  readonly index?: ShipmentIndexPort;
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

interface CursorState {
  readonly mark: string;
  readonly seen: readonly string[];
}

export class Poller {
  private readonly options: PollerOptions;
  private readonly dispatch: BookingDispatcher;
  private readonly logger: IntakeLogger;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly intervalMs: number;
  private inFlight: Promise<PollResult> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private needsReconcile = true;
  private failures = 0;
  private lastErrorValue: unknown = null;
  private pagingRejected = false;
  private warnedUnordered = false;
  private readonly bookedAtCache = new Map<string, string>();

  constructor(options: PollerOptions) {
    const interval = options.intervalSeconds ?? 15;
    if (!(interval > 0)) throw new IntakeConfigError(INTAKE_ERROR_CODES.INVALID_OPTION, `Poll interval must be more than 0 seconds (got ${interval}); use 0 only to turn polling off, without starting a Poller.`);
    if ((options.pageSize ?? 50) < 1) throw new IntakeConfigError(INTAKE_ERROR_CODES.INVALID_OPTION, 'Poller pageSize must be at least 1.');
    this.options = options;
    this.intervalMs = interval * 1000;
    this.logger = options.logger ?? silentLogger;
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.dispatch = createBookingDispatcher({ stationRules: options.stationRules, sink: options.sink, shipments: options.shipments, index: options.index, logger: this.logger });
  }

  get consecutiveFailures(): number {
    return this.failures;
  }

  /** The error of the last failed poll, null after a success. */
  get lastError(): unknown {
    return this.lastErrorValue;
  }

  /** Polls now (a reconciliation), then every interval with jitter until stop(). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.needsReconcile = true;
    this.schedule(0);
  }

  /** Stops the timer and waits for a poll in progress. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.inFlight) await this.inFlight;
  }

  /** One poll; concurrent calls share it. Never throws: failures are in the result. */
  pollOnce(): Promise<PollResult> {
    this.inFlight ??= this.run().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  private schedule(delayMs: number): void {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.pollOnce().then((result) => this.schedule(this.nextDelay(result)));
    }, delayMs);
  }

  private nextDelay(result: PollResult): number {
    const jitter = 1 + (this.random() * 2 - 1) * 0.1;
    if (result.ok) return this.intervalMs * jitter;
    const maxMs = (this.options.maxBackoffSeconds ?? 300) * 1000;
    const backoff = Math.min(maxMs, this.intervalMs * 2 ** Math.min(this.failures, 16));
    const retryAfter = readRetryAfter(result.error);
    return Math.max(backoff * jitter, retryAfter ?? 0);
  }

  private async run(): Promise<PollResult> {
    const reconciled = this.needsReconcile;
    try {
      const result = await this.read(reconciled);
      if (this.failures > 0) this.logger.info(`poller: service reachable again after ${this.failures} failed poll(s); reconciled ${result.bookingsFound} booking(s)`);
      this.failures = 0;
      this.lastErrorValue = null;
      this.needsReconcile = false;
      return result;
    } catch (error) {
      this.failures++;
      this.needsReconcile = true;
      this.lastErrorValue = error;
      this.logger.warn(`poller: poll failed (${this.failures} in a row), backing off: ${error instanceof Error ? error.message : String(error)}`);
      return { ok: false, reconciled, pagesRead: 0, shipmentsRead: 0, bookingsFound: 0, submitted: 0, skipped: 0, mark: this.safeMark(), error };
    }
  }

  private async read(reconciled: boolean): Promise<PollResult> {
    const overlapNs = BigInt(Math.max(0, Math.round(this.options.overlapMs ?? 0))) * NANOS_PER_MS;
    const state = this.loadCursor();
    const lookbackMs = (this.options.initialLookbackMinutes ?? 10) * 60_000;
    const mark = state?.mark ?? fromEpochNanos(BigInt(Math.round(this.now() - lookbackMs)) * NANOS_PER_MS);
    const markNs = toEpochNanos(mark) as bigint;
    // The first mark is only a lookback: nothing before it was seen, nothing to overlap.
    const windowStart = state ? markNs - overlapNs : markNs;
    const seenAtMark = new Set(state?.seen ?? []);

    const { read, pagesRead, ordered, undated } = await this.list(windowStart);
    if (undated > 0) this.logger.warn(`poller: ${undated} shipment(s) carry no timestamp the poller can follow (updated_at, tracking_status, booked_at, created_at); they are left to webhooks`);
    if (!ordered && read.size > 0 && !this.warnedUnordered) {
      this.warnedUnordered = true;
      this.logger.warn(
        `poller: this service does not list shipments newest-changed first with updated_at, so every poll reads the whole list (${pagesRead} request(s) now); the cost of polling grows with the team's history. Turn on webhooks and poll rarely.`,
      );
    }

    let failed: unknown = null;
    const bookings: Array<{ notice: BookingNotice; shipment: ShipmentRecord }> = [];
    let newMark = markNs;
    let newMarkText = mark;
    for (const { shipment, changed } of read.values()) {
      if (changed > newMark) {
        newMark = changed;
        newMarkText = changeTime(shipment) as string;
      }
      if (changed < windowStart || (changed === windowStart && !state)) continue;
      if (changed <= markNs && seenAtMark.has(shipment.id)) continue;
      if (!isBooked(shipment)) continue;
      let booked: string | null;
      try {
        booked = await this.establishBookingTime(shipment);
      } catch (error) {
        // Unknown for now, not unknowable: keep the mark so the next poll asks again.
        failed ??= error;
        this.logger.error(`poller: tracking of shipment ${shipment.id} could not be read to date its booking: ${errorText(error)}`);
        continue;
      }
      if (booked === null) {
        // Changed since the mark, but perhaps only by a carrier event on an old booking:
        // printing it could send a label for a parcel long gone. Indexed, so a scan finds it.
        this.indexOnly(shipment);
        this.logger.warn(
          `poller: shipment ${shipment.id}${shipment.reference_id ? ` (${shipment.reference_id})` : ''} changed since the last poll but its booking time is unknown (no booked_at, no ORDERED tracking event); not printed automatically. A webhook, or a scan and Reprint, prints it.`,
        );
        continue;
      }
      // Changed lately but booked before the window: a tracking update, not a new booking.
      if ((toEpochNanos(booked) as bigint) < windowStart) continue;
      bookings.push({ notice: noticeFromShipment(shipment, booked), shipment });
    }
    // Labels in booking order, as with webhooks; bookings in the same instant keep the
    // service's order (oldest first: a newest-first list is reversed, the sort is stable).
    if (ordered) bookings.reverse();
    bookings.sort((a, b) => compareTimestamps(a.notice.bookedAt, b.notice.bookedAt));

    let submitted = 0;
    let skipped = 0;
    for (const { notice, shipment } of bookings) {
      try {
        const result = await this.dispatch(notice, shipment);
        if (result.print) submitted++;
        else skipped++;
        this.options.onBooking?.(result);
      } catch (error) {
        failed ??= error;
        this.logger.error(`poller: booking ${notice.shipmentId} could not be submitted: ${errorText(error)}`);
      }
    }

    const nextWindow = newMark - overlapNs;
    const seen = new Set([...read.values()].filter((r) => r.changed >= nextWindow).map((r) => r.shipment.id));
    if (newMark === markNs) for (const id of seenAtMark) seen.add(id);
    const nextMark = newMarkText;
    // A failed submission keeps the old mark: the next poll tries again (the ledger dedupes).
    if (failed === null) this.saveCursor({ mark: nextMark, seen: [...seen] });
    if (reconciled) this.logger.info(`poller: reconciled since ${mark}: ${bookings.length} booking(s), ${submitted} submitted, ${pagesRead} page(s) read`);
    if (failed !== null) throw failed;
    return { ok: true, reconciled, pagesRead, shipmentsRead: read.size, bookingsFound: bookings.length, submitted, skipped, mark: nextMark, error: null };
  }

  /**
   * Reads GET /shipments. A service that answers limit/offset with 400 (the spec shows
   * neither) is read with a plain GET from then on, for this poller's lifetime.
   */
  private async list(windowStart: bigint): Promise<Listing> {
    try {
      return await this.listPages(windowStart);
    } catch (error) {
      if (this.pagingRejected || !isBadRequest(error)) throw error;
      this.pagingRejected = true;
      this.logger.warn(`poller: the service rejects limit/offset on GET /shipments (${errorText(error)}); from now on each poll reads the whole list in one request`);
      return this.listPages(windowStart);
    }
  }

  private async listPages(windowStart: bigint): Promise<Listing> {
    const limit = this.options.pageSize ?? 50;
    const read = new Map<string, { shipment: ShipmentRecord; changed: bigint }>();
    let pagesRead = 0;
    // The early stop is trusted only while the rows prove the order: each carries
    // updated_at and none is newer than the row before. The spec promises no order; a
    // list by creation time would hide a booking of an older shipment beyond page 1.
    let ordered = true;
    let previous: bigint | null = null;
    let undated = 0;
    for (let offset = 0; ; ) {
      const page = await this.options.shipments.listShipments(this.pagingRejected ? {} : { limit, offset });
      pagesRead++;
      let fresh = 0;
      for (const shipment of page) {
        const updated = shipment.updated_at ? toEpochNanos(shipment.updated_at) : null;
        if (updated === null || (previous !== null && updated > previous)) ordered = false;
        if (updated !== null) previous = updated;
        if (read.has(shipment.id)) continue;
        fresh++;
        const text = changeTime(shipment);
        const changed = text === null ? null : toEpochNanos(text);
        if (changed === null) {
          undated++;
          continue;
        }
        read.set(shipment.id, { shipment, changed });
      }
      if (this.pagingRejected) break; // no paging parameters: that was everything
      if (page.length === 0 || page.length < limit) break; // the last page
      if (page.length > limit) break; // limit ignored: that was everything
      if (fresh === 0) break; // offset ignored: the same page again
      if (ordered && previous !== null && previous < windowStart) break; // reached what is known
      if (pagesRead >= (this.options.maxPages ?? 10_000)) {
        this.logger.warn(`poller: stopped after ${pagesRead} pages (maxPages); the service may not honour limit/offset, and later pages were not read`);
        break;
      }
      offset += page.length;
    }
    return { read, pagesRead, ordered, undated };
  }

  private indexOnly(shipment: ShipmentRecord): void {
    if (!this.options.index) return;
    try {
      const { shipmentId, referenceId, trackingId, carrier, source, bookedAt } = noticeFromShipment(shipment, null);
      this.options.index.upsertShipment({ shipmentId, referenceId, trackingId, carrier, source, bookedAt, data: shipment });
    } catch (error) {
      this.logger.warn(`poller: could not index shipment ${shipment.id}: ${errorText(error)}`);
    }
  }

  /**
   * When the shipment was booked: from the listing (booked_at, an ORDERED tracking_status),
   * else from its ORDERED event in GET /shipments/{id}/tracking. Null when that cannot be
   * established. Throws when the tracking could not be read for a reason that may pass.
   */
  private async establishBookingTime(shipment: ShipmentRecord): Promise<string | null> {
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
        this.logger.warn(`poller: tracking of shipment ${shipment.id} is refused: ${errorText(error)}`);
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

  private safeMark(): string | null {
    try {
      return this.loadCursor()?.mark ?? null;
    } catch {
      return null; // the cursor store itself failed; that error is already being reported
    }
  }

  private loadCursor(): CursorState | null {
    const raw = this.options.cursors.getCursor(this.cursorName);
    if (!raw) return null;
    try {
      const value = JSON.parse(raw) as Partial<CursorState>;
      if (typeof value.mark === 'string' && toEpochNanos(value.mark) !== null) {
        return { mark: value.mark, seen: Array.isArray(value.seen) ? value.seen.filter((s): s is string => typeof s === 'string') : [] };
      }
    } catch {
      // fall through
    }
    this.logger.warn(`poller: ignoring unreadable cursor ${this.cursorName}; starting from the initial lookback`);
    return null;
  }

  private saveCursor(state: CursorState): void {
    this.options.cursors.setCursor(this.cursorName, JSON.stringify(state));
  }

  private get cursorName(): string {
    return this.options.cursorName ?? 'poller.shipments';
  }
}

interface Listing {
  readonly read: Map<string, { shipment: ShipmentRecord; changed: bigint }>;
  readonly pagesRead: number;
  /** Every row carried updated_at and none was newer than the one before. */
  readonly ordered: boolean;
  readonly undated: number;
}

/** Booking times kept in memory, so carrier events on known bookings cost no request. */
const BOOKED_AT_CACHE_SIZE = 10_000;

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A 400 from the service (ApiError's `status`, or its code). */
function isBadRequest(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  return ('status' in error && error.status === 400) || ('code' in error && error.code === 'SERVICE_BAD_REQUEST');
}

/** The client says retrying cannot help (ApiError.retryable === false: 400, 404, ...). */
function isPermanent(error: unknown): boolean {
  return Boolean(error && typeof error === 'object' && 'retryable' in error && error.retryable === false);
}

function readRetryAfter(error: unknown): number | null {
  if (error && typeof error === 'object' && 'retryAfterMs' in error && typeof error.retryAfterMs === 'number') return error.retryAfterMs;
  return null;
}
