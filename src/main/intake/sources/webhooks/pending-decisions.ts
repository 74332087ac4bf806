import { agentMessage, englishOf, plainMessage, type AgentMessage } from '../../../../shared/agent-messages';
import { messageOf } from '../../../errors';
import type { JobView } from '../../../../shared/domain';
import type { BookingNotice } from '../../../ledger/booking-notice';
import type { PendingBooking } from '../../../ledger/intake-store';
import { errorText } from '../../error-text';
import { BookingWaitingError } from '../../errors';
import type { IntakeLogger } from '../../ports';
import { backoffDelay } from '../../../retry/backoff';
import { PENDING_DECISION } from '../../../retry/policies';

/**
 * Webhook bookings acknowledged but not yet decided.
 * The webhook server stores each booking with its message id before the 2xx; this keeps the
 * ones whose decision was put off (a station rule needs the shipment and it could not be
 * fetched) and tries them again with backoff, across restarts, until they are decided.
 */

/** The ledger, as far as pending bookings go (intake-store.ts). */
export interface PendingBookingPort {
  /** Remembers the message id and stores the booking, in one transaction; false for a redelivery. */
  rememberBooking(messageId: string, notice: BookingNotice, data: unknown): boolean;
  deferPendingBooking(shipmentId: string, nextAttemptAt: string, reason: AgentMessage): void;
  removePendingBooking(shipmentId: string): void;
  pendingBookings(): PendingBooking[];
}

export interface DecisionRetryOptions {
  /** Wait before the first retry; doubles with each failure (±10 % jitter). @default 2000 */
  readonly baseMs?: number;
  /** Longest wait between retries. @default 300000 (5 minutes) */
  readonly maxMs?: number;
}

interface PendingDecisionsOptions extends DecisionRetryOptions {
  /** Without a store, retries still run but do not survive a restart. */
  readonly store?: Partial<PendingBookingPort>;
  /** Dispatches the booking again (in order with the others). */
  readonly redispatch: (notice: BookingNotice, data: unknown) => void;
  readonly logger: IntakeLogger;
  readonly now: () => number;
  readonly random?: () => number;
}

export class PendingDecisions {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Failures per shipment this run; the stored count carries it across restarts. */
  private readonly attempts = new Map<string, number>();
  private closed = false;

  constructor(private readonly options: PendingDecisionsOptions) {}

  /** Schedules every stored booking (at start): one acknowledged before a crash is decided now. */
  resume(): number {
    const stored = this.read();
    for (const pending of stored) {
      this.attempts.set(pending.notice.shipmentId, pending.attempts);
      this.schedule(pending.notice, pending.data, Date.parse(pending.nextAttemptAt) - this.options.now());
    }
    if (stored.length > 0) {
      this.options.logger.info(`intake: ${stored.length} webhook booking(s) still to be decided; deciding them now or at their next try`);
    }
    return stored.length;
  }

  /** The booking was decided: forget it. */
  decided(shipmentId: string): void {
    this.forget(shipmentId);
    try {
      this.options.store?.removePendingBooking?.(shipmentId);
    } catch (error) {
      // Left stored, it is decided once more after a restart; the ledger's idempotency keeps it to one label.
      this.options.logger.warn(`intake: could not mark booking ${shipmentId} as decided: ${errorText(error)}`);
    }
  }

  /** The booking was decided and its stored row removed already (with its submission): forget its retries. */
  forget(shipmentId: string): void {
    this.clear(shipmentId);
    this.attempts.delete(shipmentId);
  }

  /**
   * The decision was put off (or the submission failed): store why and try again later.
   * `quiet`: the cause is told elsewhere once (the ledger cannot be written), no line here.
   */
  putOff(notice: BookingNotice, data: unknown, error: unknown, quiet = false): void {
    if (this.closed) return;
    const attempts = (this.attempts.get(notice.shipmentId) ?? 0) + 1;
    this.attempts.set(notice.shipmentId, attempts);
    const policy = {
      ...PENDING_DECISION,
      baseMs: this.options.baseMs ?? PENDING_DECISION.baseMs,
      maxMs: this.options.maxMs ?? PENDING_DECISION.maxMs,
    };
    const delayMs = backoffDelay(policy, attempts - 1, this.options.random);
    const nextAt = new Date(this.options.now() + delayMs).toISOString();
    const reason = errorText(error);
    try {
      this.options.store?.deferPendingBooking?.(notice.shipmentId, nextAt, messageOf(error));
    } catch (storeError) {
      if (!quiet)
        this.options.logger.warn(`intake: could not store the next try of booking ${notice.shipmentId}: ${errorText(storeError)}`);
    }
    if (!quiet) this.options.logger.warn(`intake: booking ${notice.shipmentId} waits (try ${attempts}, next at ${nextAt}): ${reason}`);
    this.schedule(notice, data, delayMs);
  }

  /** Stops the timers; what is stored stays for the next start. */
  close(): void {
    this.closed = true;
    for (const id of [...this.timers.keys()]) this.clear(id);
  }

  private schedule(notice: BookingNotice, data: unknown, delayMs: number): void {
    this.clear(notice.shipmentId);
    const timer = setTimeout(
      () => {
        this.timers.delete(notice.shipmentId);
        if (!this.closed) this.options.redispatch(notice, data);
      },
      Math.max(0, delayMs),
    );
    this.timers.set(notice.shipmentId, timer);
  }

  private clear(shipmentId: string): void {
    const timer = this.timers.get(shipmentId);
    if (timer) clearTimeout(timer);
    this.timers.delete(shipmentId);
  }

  private read(): PendingBooking[] {
    try {
      return this.options.store?.pendingBookings?.() ?? [];
    } catch (error) {
      this.options.logger.error(`intake: could not read the webhook bookings still to be decided: ${errorText(error)}`);
      return [];
    }
  }
}

/** Id prefix of a pending booking's history entry; no job has it. */
export const PENDING_VIEW_PREFIX = 'intake:';

/**
 * A waiting booking as a history entry: queued, with why it waits. It is not a job yet (its
 * id is `intake:<shipment id>`): once decided, the job, if any, takes its place.
 */
export function pendingJobView(pending: PendingBooking): JobView {
  const { notice } = pending;
  return {
    id: `${PENDING_VIEW_PREFIX}${notice.shipmentId}`,
    shipmentId: notice.shipmentId,
    reference: notice.referenceId,
    trackingId: notice.trackingId,
    documentType: 'label',
    layout: 'printer',
    target: 'station rules',
    copies: 1,
    trigger: notice.trigger,
    state: 'queued',
    ...pendingReason(pending),
    requestId: null,
    attempts: pending.attempts,
    spoolerJobId: null,
    createdAt: pending.receivedAt,
    updatedAt: pending.receivedAt,
    pendingIntake: true,
  };
}

/** Why a waiting booking waits, in English and as a message code; a row stored before codes keeps its English without one. */
function pendingReason(pending: PendingBooking): Pick<JobView, 'reason' | 'reasonMessage'> {
  if (pending.reason === null) {
    const message = plainMessage('intake.waitingForRules');
    return { reason: englishOf(message), reasonMessage: message };
  }
  if (!pending.reasonMessage) return { reason: `${pending.reason} Next try at ${pending.nextAttemptAt}.` };
  const message = agentMessage('intake.waiting', { cause: pending.reasonMessage, nextAttemptAt: pending.nextAttemptAt });
  return { reason: englishOf(message), reasonMessage: message };
}

/** Throws BookingWaitingError for a waiting booking's history id: there is no job to act on yet. */
export function refuseOnPendingBooking(id: string, action: 'retried' | 'canceled'): void {
  if (!id.startsWith(PENDING_VIEW_PREFIX)) return;
  throw new BookingWaitingError(
    `Booking ${id.slice(PENDING_VIEW_PREFIX.length)} is not a print job yet, so it cannot be ${action}: it waits for the service ` +
      'to answer (see its reason) and is decided by the station rules, and printed if they say so, as soon as it does.',
  );
}

/**
 * The history entries of waiting bookings for a history query (listJobs): only when the
 * query can show queued entries, matched like the ledger's search (prefix of shipment id,
 * reference or tracking id, ignoring case). Newest first.
 */
export function pendingHistory(store: Pick<PendingBookingPort, 'pendingBookings'>, query: { search?: string; state?: string }): JobView[] {
  if (query.state !== undefined && query.state !== 'queued') return [];
  const text = query.search?.trim().toLowerCase() ?? '';
  const hit = (value: string | null): boolean => value !== null && value.toLowerCase().startsWith(text);
  return store
    .pendingBookings()
    .filter((p) => !text || hit(p.notice.shipmentId) || hit(p.notice.referenceId) || hit(p.notice.trackingId))
    .sort((a, b) => b.receivedAt.localeCompare(a.receivedAt))
    .map(pendingJobView);
}
