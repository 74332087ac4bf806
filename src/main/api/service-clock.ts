/**
 * The service's clock, as its answers tell it: every HTTP answer carries a `Date` header
 * (RFC 9110 §6.6.1), whole seconds of the server's clock. A station's rules that compare with
 * the service's own times (a booking's booked_at) read this clock, not the PC's: a station
 * whose clock runs a minute fast would otherwise count a booking made just after its first
 * start as made before it.
 *
 * The estimate leans early, never late: the answer was dated at or after the header's second
 * and no later than it arrived, so `header - arrival` is a lower bound of the offset. Every
 * answer can only raise that bound (up to the true offset, within a second), except when the
 * service's clock is set back: a bound more than a minute below the one kept replaces it.
 */

/** Kept bounds further apart than this mean the service's clock moved, not a slow answer. */
const CLOCK_STEP_MS = 60_000;

export class ServiceClock {
  /** Service time minus this machine's time (ms), a lower bound; null until an answer dated one. */
  private offsetMs: number | null = null;

  /** @param localNow this machine's clock. @default Date.now */
  constructor(private readonly localNow: () => number = Date.now) {}

  /** Takes one answer's `Date` header, read when the answer arrived. A missing or unreadable one is ignored. */
  readonly observe = (dateHeader: string | null, arrivedAtMs: number = this.localNow()): void => {
    if (dateHeader === null) return;
    const dated = Date.parse(dateHeader);
    if (!Number.isFinite(dated)) return;
    const bound = dated - arrivedAtMs;
    if (this.offsetMs === null || bound > this.offsetMs || bound < this.offsetMs - CLOCK_STEP_MS) this.offsetMs = bound;
  };

  /** Whether an answer has dated the service's clock yet. */
  get known(): boolean {
    return this.offsetMs !== null;
  }

  /** The service's time now (ms since the epoch); this machine's until an answer dated it. */
  now(): number {
    return this.localNow() + (this.offsetMs ?? 0);
  }
}
