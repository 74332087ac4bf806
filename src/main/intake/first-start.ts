import type { BookingNotice } from '../ledger/booking-notice';
import type { BookingSinkPort, CursorStorePort, IntakeLogger } from './ports';
import { silentLogger } from './ports';
import { logField } from '../log-text';

/**
 * A station prints only what is booked after its first start. A new data dir (or a ledger
 * that replaced a damaged one) against a team with a history would otherwise print again
 * what other stations printed long ago: the poller's first reconcile, a webhook retried
 * late, a site's redelivery. This gate stands between intake and the pipeline:
 *
 * - The first start is recorded in the ledger (cursor `station.first-start`) when the
 *   ledger holds no job yet. A ledger with jobs and no record is a station from before this
 *   rule: everything passes, as before.
 * - The first start is a time on the service's clock (`now`: the agent reads it from the
 *   service's answers, api/service-clock.ts), because it is compared with the service's
 *   booked_at: a PC clock a minute fast would hold back the bookings of the first minute.
 *   It is taken at start(), after the agent's first answer from the service, and leans early
 *   by under a second (the answer's Date has whole seconds): a booking made in the second
 *   before the first start may print, none made after it is held.
 * - A booking whose booked time is before the first start is not printed: it is kept
 *   (cursor `station.held-before-start`, the newest MAX_HELD) and counted, and the UI offers
 *   those of the last OFFER_WINDOW_MINUTES to print (`printOffered`).
 * - `--catch-up MINUTES` moves the start of what passes back by that much, once for the
 *   station's life: given at the first start it prints what the first reconcile finds in
 *   those minutes; given later it prints the kept bookings of those minutes; a second start
 *   with it prints nothing again.
 * - Bookings made here (pack and ship, `trigger: 'scan'`) and bookings without a booked time
 *   always pass.
 */

/** How far back the UI's offer reaches, and the fresh station's first poll looks. */
export const OFFER_WINDOW_MINUTES = 60;
/** Bookings kept for the offer at most (the newest). */
const MAX_HELD = 1000;
const FIRST_START_CURSOR = 'station.first-start';
const HELD_CURSOR = 'station.held-before-start';
const NOT_STARTED: FirstStartRecord = { at: null, passFrom: null, catchUpMinutes: null };

interface FirstStartRecord {
  /** The first start (ms since the epoch); null on a station from before this rule. */
  readonly at: number | null;
  /** Bookings at or after this time (ms) pass; `at` unless a catch-up moved it back. */
  readonly passFrom: number | null;
  /** The `--catch-up` minutes already applied, once for the station's life. @default null */
  readonly catchUpMinutes: number | null;
}

export interface FirstStartOffer {
  /** Bookings kept from the OFFER_WINDOW_MINUTES before the first start. */
  readonly count: number;
  readonly windowMinutes: number;
  /** RFC 3339; null on a station from before this rule. */
  readonly firstStartAt: string | null;
}

export interface FirstStartGateOptions {
  /** Where the record and the kept bookings live (the ledger's cursors). */
  readonly store: CursorStorePort;
  /** The pipeline. */
  readonly sink: BookingSinkPort;
  /** True while the ledger holds no job: a fresh station (asked once, when nothing is recorded). */
  readonly isNew: () => boolean;
  /** `--catch-up MINUTES`: print what was booked this long before the first start, once. @default none */
  readonly catchUpMinutes?: number | null;
  /** @default silent */
  readonly logger?: IntakeLogger;
  /** The service's clock (ms since the epoch), read once at the first start. @default Date.now */
  readonly now?: () => number;
}

export class FirstStartGate implements BookingSinkPort {
  private record: FirstStartRecord;
  private readonly sink: BookingSinkPort;
  private readonly store: CursorStorePort;
  private readonly logger: IntakeLogger;
  /** Whether this run recorded the first start. */
  readonly firstRun: boolean;
  private readonly catchUpMinutes: number | null;
  private readonly now: () => number;

  constructor(options: FirstStartGateOptions) {
    this.sink = options.sink;
    this.store = options.store;
    this.logger = options.logger ?? silentLogger;
    this.now = options.now ?? Date.now;
    const stored = this.read();
    this.firstRun = stored === null && options.isNew();
    this.record = stored ?? NOT_STARTED;
    // A station from before this rule is recorded as one at once; a fresh one at start().
    if (stored === null && !this.firstRun) this.save();
    this.catchUpMinutes = options.catchUpMinutes ?? null;
  }

  /**
   * Applies `--catch-up` (once for the station's life). Called once the pipeline runs and
   * before intake starts, so the first reconcile already lets those minutes through.
   */
  start(): void {
    // Taken here, not when the gate is built: after the agent's first answer from the service
    // (its clock), and a start that fails its checks (a refused key, a wrong address) prints its
    // one error line, records nothing and is a first start again next time.
    if (this.firstRun && this.record.at === null) {
      const at = this.now();
      this.record = { at, passFrom: at, catchUpMinutes: null };
      this.save();
      this.logger.info(
        `first start of this station: only what is booked from now on prints by itself${this.catchUpMinutes ? ` (and, once, the ${this.catchUpMinutes} minutes before it)` : ''}; earlier bookings are offered in the UI`,
      );
    }
    if (this.catchUpMinutes !== null) this.catchUp(this.catchUpMinutes);
  }

  /**
   * How far a fresh station's first poll looks back: over the offer window (what it finds
   * there is counted, not printed) and the catch-up. undefined: the poller's own default.
   */
  lookbackMinutes(): number | undefined {
    if (!this.firstRun) return undefined;
    return Math.max(OFFER_WINDOW_MINUTES, this.catchUpMinutes ?? 0);
  }

  together<T>(fn: () => T): T {
    return this.sink.together ? this.sink.together(fn) : fn();
  }

  submitBooking(notice: BookingNotice): unknown {
    if (this.passes(notice)) return this.sink.submitBooking(notice);
    this.hold(notice);
    return [];
  }

  offer(): FirstStartOffer {
    const { at } = this.record;
    return {
      count: at === null ? 0 : this.inOfferWindow().length,
      windowMinutes: OFFER_WINDOW_MINUTES,
      firstStartAt: at === null ? null : new Date(at).toISOString(),
    };
  }

  /** Prints the offered bookings (the UI's button) and moves what passes back over the offer window. */
  printOffered(): number {
    if (this.record.at === null) return 0;
    const from = this.record.at - OFFER_WINDOW_MINUTES * 60_000;
    return this.release(from, `the ${OFFER_WINDOW_MINUTES} minutes before this station's first start (printed from the UI)`);
  }

  private catchUp(minutes: number): void {
    if (this.record.at === null) {
      this.logger.info(`--catch-up ${minutes}: this station printed before it kept its first start; nothing to catch up`);
      return;
    }
    if (this.record.catchUpMinutes !== null) {
      this.logger.info(
        `--catch-up ${minutes}: already done (${this.record.catchUpMinutes} minutes) at an earlier start; nothing is printed again`,
      );
      return;
    }
    const from = this.record.at - minutes * 60_000;
    this.record = { ...this.record, catchUpMinutes: minutes };
    this.release(from, `--catch-up ${minutes}`);
  }

  /** Passes what was booked from `from` on, and submits the kept bookings of that span. */
  private release(from: number, why: string): number {
    const passFrom = Math.min(this.record.passFrom ?? from, from);
    this.record = { ...this.record, passFrom };
    const held = this.readHeld();
    const released = held.filter((n) => bookedMs(n) !== null && bookedMs(n)! >= from);
    const run = (): void => {
      this.save();
      this.writeHeld(held.filter((n) => !released.includes(n)));
      for (const notice of released) this.sink.submitBooking(notice);
    };
    this.together(run);
    this.logger.info(`${why}: ${released.length} booking(s) booked before this station's first start submitted`);
    return released.length;
  }

  private passes(notice: BookingNotice): boolean {
    // A booking the site sent here was decided for this station by a relay (a claim, a rule, the
    // default station): the site, not a fresh station's first start, says what prints where, and
    // holding it back would leave it printed nowhere.
    if (notice.trigger === 'scan' || notice.siteDecision || this.record.passFrom === null) return true;
    const booked = bookedMs(notice);
    return booked === null || booked >= this.record.passFrom;
  }

  private hold(notice: BookingNotice): void {
    const held = this.readHeld().filter((n) => n.shipmentId !== notice.shipmentId);
    held.push(notice);
    held.sort((a, b) => (bookedMs(a) ?? 0) - (bookedMs(b) ?? 0));
    this.writeHeld(held.slice(-MAX_HELD));
    this.logger.info(
      `shipment ${notice.shipmentId}${notice.referenceId ? ` (${logField(notice.referenceId)})` : ''} was booked at ${notice.bookedAt}, before this station's first start: not printed by itself; the UI offers it (or a scan and Reprint)`,
    );
  }

  private inOfferWindow(): BookingNotice[] {
    const from = (this.record.at ?? 0) - OFFER_WINDOW_MINUTES * 60_000;
    return this.readHeld().filter((n) => (bookedMs(n) ?? 0) >= from);
  }

  private read(): FirstStartRecord | null {
    const raw = this.store.getCursor(FIRST_START_CURSOR);
    if (!raw) return null;
    try {
      const value = JSON.parse(raw) as Partial<FirstStartRecord>;
      const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
      return { at: num(value.at), passFrom: num(value.passFrom), catchUpMinutes: num(value.catchUpMinutes) };
    } catch {
      // A record no one can read: the station is treated as one from before the rule (prints everything), and says so.
      this.logger.warn(`ignoring an unreadable ${FIRST_START_CURSOR} record in the ledger: every booking prints as it arrives`);
      return { at: null, passFrom: null, catchUpMinutes: null };
    }
  }

  private save(): void {
    this.store.setCursor(FIRST_START_CURSOR, JSON.stringify(this.record));
  }

  private readHeld(): BookingNotice[] {
    const raw = this.store.getCursor(HELD_CURSOR);
    if (!raw) return [];
    try {
      const value = JSON.parse(raw) as unknown;
      return Array.isArray(value) ? (value as BookingNotice[]).filter((n) => typeof n?.shipmentId === 'string') : [];
    } catch {
      return [];
    }
  }

  private writeHeld(held: readonly BookingNotice[]): void {
    this.store.setCursor(HELD_CURSOR, JSON.stringify(held));
  }
}

function bookedMs(notice: BookingNotice): number | null {
  if (!notice.bookedAt) return null;
  const ms = Date.parse(notice.bookedAt);
  return Number.isFinite(ms) ? ms : null;
}
