import { JobError, JOB_ERROR_CODES, ledgerWriteError, sqliteCode } from './errors';
import type { AgentMessage } from '../../shared/agent-messages';
import { formatDelay } from '../../shared/agent-messages';
import { backoffDelay } from '../retry/backoff';
import { LEDGER } from '../retry/policies';
import { toJobView, type JobPatch, type JobRecord } from './job-record';

/** What the pipeline writes: a reason only as a message code, so every reason it composes can be worded in the UI's languages. */
export type PipelinePatch = Omit<JobPatch, 'reason'> & { readonly reason?: AgentMessage | null };
import type { JobState, JobView } from '../../shared/domain';

/** The ledger as the guard writes it (the job repository; the pipeline's JobStore port). */
export interface GuardedStore {
  /** The data directory holding the ledger (what a write error tells the user to check). */
  readonly dir: string;
  transition(id: string, state: JobState, patch?: JobPatch): JobRecord;
  get(id: string): JobRecord | null;
  transaction?<T>(fn: () => T): T;
  probeWrite?(): void;
}

/** Who hears of the rows written and of an outage (the pipeline's observer). */
export interface GuardObserver {
  onJobChange(job: JobView): void;
  onError(error: JobError): void;
  onLedgerBack?(): void;
}

/** The queue the guard parks and wakes again. */
export interface GuardedQueue {
  isStopped(): boolean;
  schedulePump(): void;
}

/*
 * The pipeline's ledger writes, and what happens when the ledger cannot take one
 * (LEDGER_WRITE_FAILED: disk full, I/O error, read-only, locked). Kept apart from the queue
 * because it is a small state machine of its own: a failed write stops the pump instead of
 * crashing the process, is retried with backoff, and the outcomes that happened at the
 * printer meanwhile are replayed, in order, once the ledger works again.
 */

export interface LedgerGuardOptions {
  readonly ledger: GuardedStore;
  /** Hears of every row written and of every write failure. */
  readonly observer: GuardObserver;
  /** Once stopped, no retry is armed any more; once the backlog is replayed, the pump runs again. */
  readonly queue: GuardedQueue;
  /** First wait before a failed write is tried again; doubles up to retryMaxMs. */
  readonly retryBaseMs: number;
  readonly retryMaxMs: number;
}

export class LedgerGuard {
  /** Set while the ledger cannot be written: nothing new is fetched or spooled. */
  private ledgerDown: JobError | null = null;
  /**
   * The failure told to the observer, until a write succeeds again: the outage as the user
   * sees it. It outlives `ledgerDown`, which a retry clears to let the pump try a write.
   */
  private outage: JobError | null = null;
  /** Consecutive failed ledger writes (backoff exponent); a successful write resets it. */
  private ledgerFailures = 0;
  private ledgerTimer: NodeJS.Timeout | null = null;
  /** Outcomes already true at the printer but not yet recorded, replayed in order. */
  private readonly deferred: (() => void)[] = [];
  /** Inside together(): the rows written so far, told to the observer once the transaction commits. */
  private grouped: JobRecord[] | null = null;
  /** Failures already taken in (the same error reaches workFailed from the write and from its step). */
  private readonly seen = new WeakSet<JobError>();

  constructor(private readonly options: LedgerGuardOptions) {}

  /** The failure that stopped the pump, while the ledger cannot be written. */
  get down(): JobError | null {
    return this.ledgerDown;
  }

  /** The job's row as the ledger has it now (null when there is none). */
  read(id: string): JobRecord | null {
    return this.options.ledger.get(id);
  }

  /** The failure the user was told of, until the ledger takes a write again. */
  get failing(): JobError | null {
    return this.outage;
  }

  /**
   * SQLite errors become LEDGER_WRITE_FAILED, which says what to do and is retried. The
   * failure stops the pump at once, before the caller sees it: a scheduler loop that called
   * the write cannot pick the same step again.
   */
  write(id: string, state: JobRecord['state'], patch: PipelinePatch): JobRecord {
    const job = this.call(() => this.options.ledger.transition(id, state, patch));
    if (this.grouped) this.grouped.push(job);
    else this.options.observer.onJobChange(toJobView(job));
    return job;
  }

  /**
   * Any other ledger write of the pipeline (pauses, holding and releasing jobs): a failure
   * is LEDGER_WRITE_FAILED and stops the pump, as for write(); success ends an outage.
   */
  call<T>(fn: () => T): T {
    let result: T;
    try {
      result = fn();
    } catch (error) {
      throw this.failed(error);
    }
    if (!this.grouped) this.wrote();
    return result;
  }

  /**
   * Runs `fn`'s writes in one ledger transaction: one commit for a batch's members instead
   * of one each (every commit appends each page it touched to the WAL, about 15 KiB a job
   * transition; docs/BENCHMARKS.md). All or nothing: if `fn` throws, nothing it
   * wrote is kept and the error (LEDGER_WRITE_FAILED for SQLite's) reaches the caller, as
   * for a single write. The observer hears of the rows once they are committed. Nested
   * calls join the outer transaction.
   */
  together<T>(fn: () => T): T {
    const { ledger } = this.options;
    if (this.grouped || !ledger.transaction) return fn();
    const grouped: JobRecord[] = [];
    this.grouped = grouped;
    let result: T;
    try {
      result = ledger.transaction(fn);
    } catch (error) {
      this.grouped = null;
      throw this.failed(error);
    } finally {
      this.grouped = null;
    }
    this.wrote();
    for (const job of grouped) this.options.observer.onJobChange(toJobView(job));
    return result;
  }

  /** orDefer() for several writes that belong together: committed at once, or kept and replayed at once. */
  orDeferTogether(fn: () => void): void {
    this.orDefer(() => this.together(fn));
  }

  /** A write that may be lost (the row's previous state is as good), e.g. at stop(). */
  tryWrite(id: string, state: JobRecord['state'], patch: PipelinePatch): void {
    try {
      this.write(id, state, patch);
    } catch (error) {
      if (!isLedgerFailure(error)) throw error;
    }
  }

  /** Run a ledger write now; if the ledger cannot take it, keep it for the retry. */
  orDefer(fn: () => void): void {
    // Inside together() a failure undoes the whole group: it is the group that is kept for the retry.
    if (this.grouped) return fn();
    if (this.ledgerDown) {
      this.deferred.push(fn);
      return;
    }
    try {
      fn();
    } catch (error) {
      if (!isLedgerFailure(error)) throw error;
      this.deferred.push(fn);
      this.workFailed(error);
    }
  }

  /**
   * Background work (fetch, spool, follow, pump) that threw. A ledger that cannot be
   * written stops the pump until a retry succeeds; anything else is a bug and is rethrown.
   * The user is told once per outage, not at every retry.
   */
  workFailed(error: unknown): void {
    if (!isLedgerFailure(error)) throw error;
    if (this.seen.has(error)) return;
    this.seen.add(error);
    this.ledgerFailures += 1;
    this.ledgerDown = error;
    const delay = backoffDelay({ ...LEDGER, baseMs: this.options.retryBaseMs, maxMs: this.options.retryMaxMs }, this.ledgerFailures - 1);
    if (!this.outage) {
      // Told once and shown until the outage ends: the longest wait, not the first (which is stale a second later).
      const message = `${error.message} Printing waits; the agent tries again at least every ${formatDelay(this.options.retryMaxMs)}.`;
      this.outage = new JobError(error.code, message, { cause: error });
      this.options.observer.onError(this.outage);
    }
    if (this.ledgerTimer || this.options.queue.isStopped()) return;
    this.ledgerTimer = setTimeout(() => {
      this.ledgerTimer = null;
      this.retryLedger();
    }, delay);
  }

  /**
   * A write of the same ledger went through outside the guard (intake recorded a booking):
   * the disk has room again, so the retry runs now instead of at the end of its backoff
   * (up to retryMaxMs), and the status clears with the labels it just recorded.
   */
  wroteElsewhere(): void {
    if (!this.ledgerDown || !this.ledgerTimer || this.options.queue.isStopped()) return;
    clearTimeout(this.ledgerTimer);
    this.ledgerTimer = null;
    this.retryLedger();
  }

  /** Drop a pending retry (the pipeline stops). */
  stop(): void {
    if (this.ledgerTimer) clearTimeout(this.ledgerTimer);
    this.ledgerTimer = null;
  }

  /** A failed write as LEDGER_WRITE_FAILED (SQLite's errors), taken in before the caller sees it. */
  private failed(error: unknown): unknown {
    const failure = sqliteCode(error) ? ledgerWriteError(error, this.options.ledger.dir) : error;
    if (isLedgerFailure(failure) && !this.grouped) this.workFailed(failure);
    return failure;
  }

  /** A write went through: the backoff starts over, and an outage the user was told of is over. */
  private wrote(): void {
    this.ledgerFailures = 0;
    if (!this.outage || this.ledgerDown) return;
    this.outage = null;
    this.options.observer.onLedgerBack?.();
  }

  /** Replay what is known but unrecorded, in order (or probe with a write that changes nothing), then let the pump run again. */
  private retryLedger(): void {
    if (this.options.queue.isStopped()) return;
    try {
      if (this.deferred.length === 0) {
        this.call(() => this.options.ledger.probeWrite?.());
      }
      while (this.deferred.length > 0) {
        this.deferred[0]!();
        this.deferred.shift();
      }
    } catch (error) {
      this.workFailed(error);
      return;
    }
    this.ledgerDown = null;
    this.wrote();
    this.options.queue.schedulePump();
  }
}

export function isLedgerFailure(error: unknown): error is JobError {
  return error instanceof JobError && error.code === JOB_ERROR_CODES.LEDGER_WRITE_FAILED;
}
