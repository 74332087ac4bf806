import type { BookingNotice } from '../../../ledger/booking-notice';
import { createBookingDispatcher, type BookingDispatcher } from '../../booking-dispatch';
import { BookingTimeResolver } from './booking-time-resolver';
import { changeTime, isBooked, noticeFromShipment } from '../../booked-shipment';
import { errorText } from '../../error-text';
import { handOffLedgerFailure } from '../../ledger-outage';
import { BookingDeferredError, INTAKE_ERROR_CODES, IntakeConfigError } from '../../errors';
import { backoffDelay } from '../../../retry/backoff';
import { POLL } from '../../../retry/policies';
import { PollCursor, type ParkedShipment } from './poll-cursor';
import { silentLogger, type IntakeLogger, type ShipmentRecord } from '../../ports';
import type { PollerOptions, PollResult } from './poller-options';
import { ShipmentPages } from './shipment-pages';
import { compareTimestamps, fromEpochNanos, NANOS_PER_MS, toEpochNanos } from '../../timestamps';

/**
 * Polls GET /shipments for bookings and keeps a persisted high-water
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
 *
 * This file holds when to poll (interval, jitter, backoff) and what a poll submits and how
 * the mark moves; reading the pages is shipment-pages.ts, dating bookings is
 * booking-time-resolver.ts, and the persisted mark is poll-cursor.ts.
 */

/** Parked shipments kept at most; beyond, the oldest is given up on (logged: a scan prints it). */
const MAX_PARKED = 100;
/** How far ahead of the station's clock a service timestamp may be and still move the mark. */
const MAX_CLOCK_SKEW_MS = 5 * 60_000;
export type { PollerOptions, PollResult } from './poller-options';

export class Poller {
  private readonly options: PollerOptions;
  private readonly dispatch: BookingDispatcher;
  private readonly logger: IntakeLogger;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly intervalMs: number;
  private readonly busyIntervalMs: number;
  /** Fast polls left before the normal interval again (reset whenever a poll finds a booking). */
  private busyLeft = 0;
  private inFlight: Promise<PollResult> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private needsReconcile = true;
  private failures = 0;
  private lastErrorValue: unknown = null;
  private readonly pages: ShipmentPages;
  private readonly bookingTimes: BookingTimeResolver;
  private readonly cursor: PollCursor;
  /** Failed tracking lookups in a row, per shipment (N3). */
  private readonly lookupFailures = new Map<string, number>();

  constructor(options: PollerOptions) {
    const interval = options.intervalSeconds ?? 5;
    if (!(interval > 0)) {
      throw new IntakeConfigError(
        INTAKE_ERROR_CODES.INVALID_OPTION,
        `Poll interval must be more than 0 seconds (got ${interval}); use 0 only to turn polling off, without starting a Poller.`,
      );
    }
    if ((options.pageSize ?? 50) < 1) throw new IntakeConfigError(INTAKE_ERROR_CODES.INVALID_OPTION, 'Poller pageSize must be at least 1.');
    this.options = options;
    this.intervalMs = interval * 1000;
    this.busyIntervalMs = Math.min(this.intervalMs, Math.max(0, options.busyIntervalSeconds ?? 5) * 1000);
    this.logger = options.logger ?? silentLogger;
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.dispatch = createBookingDispatcher({
      stationRules: options.stationRules,
      sink: options.sink,
      shipments: options.shipments,
      index: options.index,
      onLedgerFailure: options.onLedgerFailure,
      logger: this.logger,
    });
    this.pages = new ShipmentPages({
      shipments: options.shipments,
      pageSize: options.pageSize ?? 50,
      firstPageSize: options.firstPageSize ?? 10,
      maxPages: options.maxPages ?? 10_000,
      logger: this.logger,
    });
    this.bookingTimes = new BookingTimeResolver({ shipments: options.shipments, logger: this.logger });
    this.cursor = new PollCursor(options.cursors, options.cursorName ?? 'poller.shipments', this.logger);
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
      const startedAt = this.now();
      // Start to start: the poll's own time (a list read, its submissions) is part of the
      // interval, so a station makes exactly one request an interval and no booking waits
      // longer than the interval for its poll.
      void this.pollOnce().then((result) => this.schedule(Math.max(0, this.nextDelay(result) - (this.now() - startedAt))));
    }, delayMs);
  }

  private nextDelay(result: PollResult): number {
    // The poll policy's jitter is small: every spare second of a wait is latency for the booking that lands in it.
    const draw = this.random();
    if (result.ok) {
      if (result.bookingsFound > 0) this.busyLeft = Math.max(0, Math.floor(this.options.busyPolls ?? 4));
      else if (this.busyLeft > 0) this.busyLeft -= 1;
      const intervalMs = this.busyLeft > 0 ? this.busyIntervalMs : this.intervalMs;
      return backoffDelay({ ...POLL, baseMs: intervalMs, maxMs: intervalMs }, 0, () => draw);
    }
    this.busyLeft = 0;
    const maxMs = this.options.maxBackoffSeconds !== undefined ? this.options.maxBackoffSeconds * 1000 : POLL.maxMs;
    const backoff = backoffDelay({ ...POLL, baseMs: this.intervalMs, maxMs }, this.failures, () => draw);
    const retryAfter = readRetryAfter(result.error);
    return Math.max(backoff, retryAfter ?? 0);
  }

  private async run(): Promise<PollResult> {
    const reconciled = this.needsReconcile;
    try {
      const result = await this.read(reconciled);
      if (this.failures > 0)
        this.logger.info(
          `poller: service reachable again after ${this.failures} failed poll(s); reconciled ${result.bookingsFound} booking(s)`,
        );
      this.failures = 0;
      this.lastErrorValue = null;
      this.needsReconcile = false;
      return result;
    } catch (error) {
      this.needsReconcile = true;
      this.lastErrorValue = error;
      // The service answered; the ledger could not take what it said. No backoff, no line:
      // the agent tells the outage once, and the next poll records it all once it can.
      if (this.ledgerOutage(error)) return this.failedResult(reconciled, error);
      this.failures++;
      this.logger.warn(
        `poller: poll failed (${this.failures} in a row), backing off: ${error instanceof Error ? error.message : String(error)}`,
      );
      return this.failedResult(reconciled, error);
    }
  }

  private failedResult(reconciled: boolean, error: unknown): PollResult {
    return {
      ok: false,
      reconciled,
      pagesRead: 0,
      shipmentsRead: 0,
      bookingsFound: 0,
      submitted: 0,
      skipped: 0,
      mark: this.cursor.safeMark(),
      error,
    };
  }

  private async read(reconciled: boolean): Promise<PollResult> {
    const overlapNs = BigInt(Math.max(0, Math.round(this.options.overlapMs ?? 0))) * NANOS_PER_MS;
    const state = this.cursor.load();
    const lookbackMs = (this.options.initialLookbackMinutes ?? 10) * 60_000;
    const mark = state?.mark ?? fromEpochNanos(BigInt(Math.round(this.now() - lookbackMs)) * NANOS_PER_MS);
    const markNs = toEpochNanos(mark) as bigint;
    // The first mark is only a lookback: nothing before it was seen, nothing to overlap.
    const windowStart = state ? markNs - overlapNs : markNs;
    const seenAtMark = new Set(state?.seen ?? []);
    const parked = new Map((state?.parked ?? []).map((p) => [p.shipment.id, p]));
    const looked = new Set<string>();
    const parkAfter = Math.max(1, this.options.parkAfterFailures ?? 5);

    const listing = await this.pages.list(windowStart);
    this.pages.warnAbout(listing);
    const { read, pagesRead, ordered } = listing;

    let failed: unknown = null;
    const bookings: Array<{ notice: BookingNotice; shipment: ShipmentRecord }> = [];
    let newMark = markNs;
    let newMarkText = mark;
    // A change time from the future (a skewed clock, a service bug) must not carry the mark
    // past everything real: every later poll would stop at its first page and miss bookings.
    const latestBelievable = BigInt(Math.round(this.now() + MAX_CLOCK_SKEW_MS)) * NANOS_PER_MS;
    let future = 0;
    for (const { shipment, changed } of read.values()) {
      if (changed > latestBelievable) future++;
      else if (changed > newMark) {
        newMark = changed;
        newMarkText = changeTime(shipment) as string;
      }
      if (changed < windowStart || (changed === windowStart && !state)) continue;
      if (changed <= markNs && seenAtMark.has(shipment.id)) continue;
      if ((shipment.status ?? '').toUpperCase() === 'CANCELED') {
        this.canceled(shipment.id);
        continue;
      }
      if (!isBooked(shipment)) continue;
      let booked: string | null;
      looked.add(shipment.id);
      try {
        booked = await this.bookingTimes.establishBookingTime(shipment);
      } catch (error) {
        const failures = (this.lookupFailures.get(shipment.id) ?? 0) + 1;
        this.lookupFailures.set(shipment.id, failures);
        if (failures >= parkAfter) {
          // One stuck lookup must not hold the mark for every other booking (N3): park it,
          // with its window, and keep asking at each poll while the mark moves on.
          if (!parked.has(shipment.id)) parked.set(shipment.id, { shipment, windowStart: fromEpochNanos(windowStart) });
          this.logger.error(
            `poller: tracking of shipment ${shipment.id} failed ${failures} polls in a row; parked, asked again at each poll, ` +
              `and the poll mark moves on: ${errorText(error)}`,
          );
          continue;
        }
        // Unknown for now, not unknowable: keep the mark so the next poll asks again.
        failed ??= error;
        this.logger.error(`poller: tracking of shipment ${shipment.id} could not be read to date its booking: ${errorText(error)}`);
        continue;
      }
      this.lookupFailures.delete(shipment.id);
      parked.delete(shipment.id);
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
    for (const entry of [...parked.values()]) {
      if (looked.has(entry.shipment.id)) continue;
      const booking = await this.unpark(entry, parked);
      if (booking) bookings.push(booking);
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
        // Put off on purpose (a site booking that waits for a station): the sink said so once.
        if (!this.ledgerOutage(error) && !(error instanceof BookingDeferredError))
          this.logger.error(`poller: booking ${notice.shipmentId} could not be submitted: ${errorText(error)}`);
      }
    }

    if (future > 0)
      this.logger.warn(
        `poller: ${future} shipment(s) carry a change time more than ${MAX_CLOCK_SKEW_MS / 60_000} minutes ahead of this station's clock; the poll mark ignores them (check the station's clock)`,
      );
    const nextWindow = newMark - overlapNs;
    const seen = new Set([...read.values()].filter((r) => r.changed >= nextWindow).map((r) => r.shipment.id));
    if (newMark === markNs) for (const id of seenAtMark) seen.add(id);
    const nextMark = newMarkText;
    // A failed submission keeps the old mark: the next poll tries again (the ledger dedupes).
    if (failed === null) this.cursor.save({ mark: nextMark, seen: [...seen], parked: this.boundParked([...parked.values()]) });
    // A poll that could not submit everything is not a reconciliation: the next one repeats it
    // (and says so once it succeeds), instead of a line a poll while the ledger is full.
    if (failed !== null) throw failed;
    if (reconciled)
      this.logger.info(
        `poller: reconciled since ${mark}: ${bookings.length} booking(s), ${submitted} submitted, ${pagesRead} page(s) read`,
      );
    return {
      ok: true,
      reconciled,
      pagesRead,
      shipmentsRead: read.size,
      bookingsFound: bookings.length,
      submitted,
      skipped,
      mark: nextMark,
      error: null,
    };
  }

  /** Asks again about a parked shipment; the booking to submit once its time is known and new. */
  private async unpark(
    entry: ParkedShipment,
    parked: Map<string, ParkedShipment>,
  ): Promise<{ notice: BookingNotice; shipment: ShipmentRecord } | null> {
    const { shipment } = entry;
    let booked: string | null;
    try {
      booked = await this.bookingTimes.establishBookingTime(shipment);
    } catch (error) {
      this.logger.warn(`poller: parked shipment ${shipment.id}: tracking still cannot be read: ${errorText(error)}`);
      return null;
    }
    parked.delete(shipment.id);
    this.lookupFailures.delete(shipment.id);
    if (booked === null) {
      this.indexOnly(shipment);
      this.logger.warn(
        `poller: parked shipment ${shipment.id} has no booking time (no ORDERED tracking event); not printed automatically. A scan and Reprint prints it.`,
      );
      return null;
    }
    if ((toEpochNanos(booked) as bigint) < (toEpochNanos(entry.windowStart) as bigint)) return null;
    this.logger.info(`poller: parked shipment ${shipment.id} dated (booked ${booked}); submitting it`);
    return { notice: noticeFromShipment(shipment, booked), shipment };
  }

  private boundParked(entries: ParkedShipment[]): ParkedShipment[] {
    if (entries.length <= MAX_PARKED) return entries;
    const dropped = entries.slice(0, entries.length - MAX_PARKED);
    const ids = dropped.map((e) => e.shipment.id).join(', ');
    this.logger.error(
      `poller: more than ${MAX_PARKED} shipments parked; given up on ${ids}: not printed automatically (a scan and Reprint prints them)`,
    );
    return entries.slice(-MAX_PARKED);
  }

  private canceled(shipmentId: string): void {
    try {
      this.options.onCanceled?.(shipmentId);
    } catch (error) {
      if (!this.ledgerOutage(error))
        this.logger.error(`poller: canceled shipment ${shipmentId} could not be recorded: ${errorText(error)}`);
    }
  }

  private indexOnly(shipment: ShipmentRecord): void {
    if (!this.options.index) return;
    try {
      const { shipmentId, referenceId, trackingId, carrier, source, bookedAt } = noticeFromShipment(shipment, null);
      this.options.index.upsertShipment({ shipmentId, referenceId, trackingId, carrier, source, bookedAt, data: shipment });
    } catch (error) {
      if (!this.ledgerOutage(error)) this.logger.warn(`poller: could not index shipment ${shipment.id}: ${errorText(error)}`);
    }
  }

  /** The ledger cannot take writes and the agent took it (told once): no line of ours. */
  private ledgerOutage(error: unknown): boolean {
    return handOffLedgerFailure(error, this.options.onLedgerFailure);
  }
}

function readRetryAfter(error: unknown): number | null {
  if (error && typeof error === 'object' && 'retryAfterMs' in error && typeof error.retryAfterMs === 'number') return error.retryAfterMs;
  return null;
}
