import { codedOnly, type AgentMessage } from '../../shared/agent-messages';
import type { JobView, LabelLayout } from '../../shared/domain';
import { ledgerWriteError, sqliteCode, type JobError } from '../ledger/errors';
import { isLedgerFailure } from '../ledger/ledger-guard';
import { cancelJob, cancelShipment, type ShipmentCancelResult } from './commands/cancel';
import { moveWaiting } from './commands/move-waiting';
import { pause, resume } from './commands/pause';
import { start, stop } from './commands/start';
import { reprint, retry, submitBooking, together } from './commands/submit';
import { Engine } from './engine';
import type { PrintPipelineOptions, ReprintRequest } from './pipeline-options';
import type { BookingToPrint } from './ports';

// The options live in pipeline-options.ts; importers keep importing them from here.
export type { PrintPipelineOptions, ReprintRequest } from './pipeline-options';
export type { WithdrawResult } from './commands/cancel';

/**
 * The print queue, as the rest of the agent sees it: ledger row first, then fetch, then
 * spool, then follow. What it offers: new work (submitBooking, together, reprint, retry),
 * cancels (cancel, cancelShipment), pauses (pause, resume, isPaused), the fallback for a
 * stopped printer (downPrinters, moveWaiting, printerReady), the ledger's health
 * (ledgerFailed, ledgerDown), and its life (start, idle, stop).
 *
 * Inside (engine.ts): the scheduler (scheduler.ts) picks what runs next, each job at most
 * once a turn; the steps (job-steps.ts, batching.ts) fetch, spool and probe; what a failure
 * leads to is job-failures.ts; the spooler's side after the hand-over is spooled-jobs.ts;
 * every ledger write goes through the guard (ledger/ledger-guard.ts). Each command lives in
 * commands/. Outside jobs/ it talks only through the ports in ports.ts.
 *
 * Ordering: each target is a line ordered by when its shipment was booked (booked_at), then
 * by creation order (lane.ts). Only the head of a line is handed to the spooler; the next
 * `lookahead` jobs are fetched ahead. A head that failed transiently keeps its place; a
 * printer that is down as a whole stops its line until its readiness probe says it is back.
 *
 * Exactly once: the row is written (`queued`) before anything is fetched; `spooling` is
 * written, with `spool_attempted`, before spool() is called. Any job that may have reached
 * the spooler is looked up by title (findSpooled) before it is ever sent again. A ledger
 * that cannot be written stops the scheduler instead of crashing the process.
 */
export class PrintPipeline {
  private readonly engine: Engine;

  constructor(options: PrintPipelineOptions) {
    this.engine = new Engine(options);
  }

  /** Reconcile jobs a crash left in flight, then run every unfinished job. */
  start(): Promise<void> {
    return start(this.engine);
  }

  /**
   * One automatic job per auto-print document type (or per type in `documentTypes`: the
   * end-of-day manifest), idempotent per shipment and type.
   */
  submitBooking(notice: BookingToPrint, documentTypes: readonly string[] = this.engine.settings.autoPrintTypes()): JobView[] {
    return submitBooking(this.engine, notice, documentTypes);
  }

  /**
   * Runs `fn` (submitBooking calls, and whatever else the caller writes to the same ledger)
   * in one ledger transaction: one commit for a group of bookings instead of one each. The
   * jobs it creates are told and queued once it commits; if `fn` throws, nothing it wrote is
   * kept and none of them starts. Nested calls join the outer one.
   */
  together<T>(fn: () => T): T {
    return together(this.engine, fn);
  }

  /** Always a new job, never deduplicated against automatic prints. */
  reprint(request: ReprintRequest): JobView[] {
    return reprint(this.engine, request);
  }

  /** A failed or canceled job goes back in line (same row; attempts keep counting). */
  retry(jobId: string): JobView {
    return retry(this.engine, jobId);
  }

  /** Cancel a job not yet handed to the spooler (one being handed over refuses with JOB_BUSY). */
  cancel(jobId: string): JobView {
    return cancelJob(this.engine, jobId);
  }

  /**
   * The shipment is canceled (at this station, or the service says so): every job of it not
   * yet handed to a spooler ends `canceled`; those at the spooler are withdrawn where it still
   * holds them (`withdrawn`, which never rejects). See commands/cancel.ts.
   */
  cancelShipment(shipmentId: string, by: 'station' | 'service', requestId: string | null = null): ShipmentCancelResult {
    return cancelShipment(this.engine, shipmentId, by, requestId);
  }

  /** Requests the check before spooling made to the service (cancel-check.ts), for the bench. */
  get cancelRecheckRequests(): number {
    return this.engine.cancelCheck.requests;
  }

  /** Pause one target (every job to it waits), or automatic printing as a whole (automatic jobs are recorded and held). */
  pause(target?: string): void {
    pause(this.engine, target);
  }

  /** Like pause(): a resume the ledger cannot record throws LEDGER_WRITE_FAILED and the pause stays. */
  resume(target?: string): void {
    resume(this.engine, target);
  }

  isPaused(target?: string): boolean {
    return target === undefined ? this.engine.autoPaused : this.engine.pausedTargets.has(target);
  }

  /**
   * A ledger write that failed outside the queue (a webhook delivery intake could not
   * record): the lines park on it as on one of their own, and resume once it takes writes.
   */
  ledgerFailed(error: unknown): void {
    const failure = sqliteCode(error) ? ledgerWriteError(error, this.engine.ledger.dir) : error;
    if (isLedgerFailure(failure)) this.engine.guard.workFailed(failure);
  }

  /** Why the lines are parked on the ledger (disk full, read-only), until it takes a write again; else null. */
  ledgerDown(): JobError | null {
    return this.engine.guard.failing;
  }

  /**
   * The printer says it is ready again (PrinterWatch saw it): a line waiting on it is looked
   * at now, not when its probe back-off (up to retryMaxMs) runs out. The probe still decides.
   */
  printerReady(target: string): void {
    const lane = this.engine.lanes.get(target);
    if (!lane?.down || lane.probing) return;
    lane.down.nextProbeAt = Math.min(lane.down.nextProbeAt, this.engine.nowMs());
    this.engine.schedulePump();
  }

  /** Printers whose line waits because the printer is down as a whole, with the printer's advice. */
  downPrinters(): Array<{ readonly target: string; readonly advice: string; readonly adviceMessage?: AgentMessage }> {
    return [...this.engine.lanes.values()].flatMap((lane) => {
      if (!lane.down) return [];
      const adviceMessage = codedOnly(lane.down.message);
      return [{ target: lane.target, advice: lane.down.advice, ...(adviceMessage ? { adviceMessage } : {}) }];
    });
  }

  /** Fallback: `from`'s waiting jobs go to `to` in `layout`, never one its spooler may hold (commands/move-waiting.ts). */
  moveWaiting(from: string, to: string, layout: LabelLayout, documentTypes: readonly string[] = ['label']): Promise<JobView[]> {
    return moveWaiting(this.engine, from, to, layout, documentTypes);
  }

  /** Resolves when no runnable work remains (paused targets and held jobs do not count). */
  idle(): Promise<void> {
    return this.engine.scheduler.idle();
  }

  /** Scheduler turns so far: what a test bounds when a step keeps failing. */
  get turns(): number {
    return this.engine.scheduler.turns;
  }

  /** Stop taking work; let spools in progress finish; leave everything else resumable. */
  stop(): Promise<void> {
    return stop(this.engine);
  }
}
