import { agentMessage, codedOnly, englishOf, plainMessage, type AgentMessage } from '../../shared/agent-messages';
import type { JobView, LabelLayout } from '../../shared/domain';
import { BatchBytes } from './batch-bytes';
import { Batching } from './batching';
import { CancelCheck } from './cancel-check';
import { JobError, JOB_ERROR_CODES, ledgerWriteError, pauseNotRecorded, sqliteCode } from '../ledger/errors';
import { JobFailures } from './job-failures';
import { toJobView, type JobRecord } from '../ledger/job-record';
import { JobSteps } from './job-steps';
import { Lane, entryFrom, type Entry } from './lane';
import { messageOf } from './failure';
import { LedgerGuard, isLedgerFailure } from '../ledger/ledger-guard';
import type { JobQueue, PipelineContext } from './pipeline-context';
import { observerFrom, resolveSettings, type PipelineSettings, type PrintPipelineOptions, type ReprintRequest } from './pipeline-options';
import type { BookingToPrint, PipelineLedger, PipelineObserver, PrinterDirectory } from './ports';
import { TargetCache } from './printer-directory';
import { resumeJob, settleAfterCrash, type RecoveryContext } from './recovery';
import { SpooledJobs } from './spooled-jobs';

// The options live in pipeline-options.ts; importers keep importing them from here.
export type { PrintPipelineOptions, ReprintRequest } from './pipeline-options';

/** Pause scope meaning "automatic printing as a whole". */
const AUTO_SCOPE = '*';

/**
 * The print queue: ledger row first, then fetch, then spool, then follow. This file holds
 * the public API and the scheduling (which job runs next); the steps themselves
 * (job-steps.ts), what a failure leads to (job-failures.ts), the spooler's side after the
 * handover (spooled-jobs.ts), start-up recovery (recovery.ts) and ledger-write failures
 * (ledger-guard.ts) live beside it, sharing one PipelineContext (pipeline-context.ts).
 * Outside jobs/ it talks only through the ports in ports.ts.
 *
 * Ordering: each target is a line ordered by when its shipment was booked (booked_at),
 * then by creation order (lane.ts: webhooks can arrive out of order). Only the head of a line is
 * handed to the spooler; the next `lookahead` jobs are fetched ahead, concurrently and
 * round-robin across targets, so a slow or offline target holds up only its own line.
 * A head that failed transiently keeps its place and blocks its line while it waits for
 * its retry (labels must not come out of order); once it fails permanently it leaves the
 * line (state failed, with reason and request id) and the next job goes. A printer that is
 * down as a whole (scheduler down, queue stopped, folder not writable: PrintError
 * printerDown, confirmed by its readiness) stops its line instead: one readiness probe
 * with backoff, no job's attempts spent, and the line resumes in order once it is back.
 *
 * Exactly once: the row is written (`queued`) before anything is fetched; `spooling` is
 * written, with `spool_attempted`, before spool() is called (no write, no spool). Any job
 * that may have reached the spooler is looked up by title (findSpooled) before it is ever
 * sent again, after a crash and after a spool() that threw. A target that cannot be
 * looked up (`reconcilable: false`) is never resent on a guess: such a job ends `failed`
 * "may have printed" and a person decides.
 *
 * A ledger that cannot be written (LEDGER_WRITE_FAILED) stops the pump instead of
 * crashing the process; the pump retries with backoff and replays, in order, the outcomes
 * that happened at the printer meanwhile.
 */
/** How long a cancel waits for a hand-over in progress to end before it looks at the spooler. */
const HANDOVER_WAIT_MS = 10_000;

/** What cancelShipment did with the jobs already at a spooler. */
export interface WithdrawResult {
  /** Canceled at the spooler before they printed; ended `canceled`. */
  readonly withdrawn: readonly JobView[];
  /** Printing, printed, or the spooler could not withdraw them: the label may be out. */
  readonly atPrinter: readonly JobView[];
}

export class PrintPipeline {
  private readonly ledger: PipelineLedger;
  private readonly o: PipelineSettings;
  private readonly lanes = new Map<string, Lane>();
  private readonly entries = new Map<string, Entry>();
  private readonly printers: PrinterDirectory;
  private readonly observer: PipelineObserver;
  private readonly pausedTargets = new Set<string>();
  private autoPaused = false;
  private readonly guard: LedgerGuard;
  private readonly spooled: SpooledJobs;
  private readonly failures: JobFailures;
  private readonly steps: JobSteps;
  private readonly cancelCheck: CancelCheck;
  private readonly batching: Batching;
  private readonly recovery: RecoveryContext;
  private roundRobin = 0;
  private started = false;
  private loading = false;
  private stopped = false;
  private pumpQueued = false;
  private wakeTimer: NodeJS.Timeout | null = null;
  private wakeAt = Infinity;
  private idleWaiters: (() => void)[] = [];
  /** Inside together(): what the jobs created so far start (told, queued), run once it commits. */
  private afterCommit: (() => void)[] | null = null;

  constructor(private readonly options: PrintPipelineOptions) {
    this.ledger = options.ledger;
    this.o = resolveSettings(options);
    this.printers = new TargetCache(options.targetFor);
    this.observer = observerFrom(options);
    // What the parts see of the queue: they reach its state only through this port.
    const queue: JobQueue = {
      isStopped: () => this.stopped,
      isAutoPaused: () => this.autoPaused,
      nowMs: () => this.nowMs(),
      enqueue: (job) => this.enqueue(job),
      drop: (entry) => this.drop(entry),
      handedOver: (entry) => {
        this.entries.delete(entry.id);
        const lane = this.lanes.get(entry.target);
        if (lane) lane.faults = 0;
      },
      disowned: (entry, token) => this.disowned(entry, token),
      schedulePump: () => this.schedulePump(),
      shipmentCanceled: (entries, by, requestId) => this.shipmentCanceled(entries, by, requestId),
    };
    const { ledgerRetryBaseMs: retryBaseMs, ledgerRetryMaxMs: retryMaxMs } = this.o;
    this.guard = new LedgerGuard({ ledger: this.ledger, observer: this.observer, queue, retryBaseMs, retryMaxMs });
    // Every PDF fetched teaches the byte cap on batches what a shipment weighs (batch-bytes.ts).
    const bytes = new BatchBytes(this.o.batchMaxBytes);
    const fetcher = bytes.watch(options.fetcher);
    const context: PipelineContext = { settings: this.o, queue, guard: this.guard, fetcher, printers: this.printers };
    this.spooled = new SpooledJobs(context);
    this.failures = new JobFailures(context);
    this.cancelCheck = new CancelCheck(context, this.ledger);
    this.steps = new JobSteps(context, this.failures, this.spooled, this.cancelCheck);
    this.batching = new Batching(context, this.ledger, this.steps, this.failures, this.spooled, bytes);
    this.recovery = { ...context, spooled: this.spooled };
    for (const scope of this.ledger.pausedScopes()) {
      if (scope === AUTO_SCOPE) this.autoPaused = true;
      else this.pausedTargets.add(scope);
    }
  }

  /** Reconcile jobs a crash left in flight, then run every unfinished job. */
  async start(): Promise<void> {
    if (this.started || this.loading || this.stopped) return;
    this.loading = true;
    try {
      if (!this.autoPaused) this.ledger.releaseHeld();
      const open = this.ledger.open();
      await settleAfterCrash(open, this.o.reconcileSettleMs, () => this.nowMs());
      const unrecovered = await this.resumeAll(open);
      if (unrecovered === null) return;
      this.started = true;
      this.recoverLater(unrecovered);
      // A start on a full or read-only disk says so now (status, log), not at the first booking.
      if (unrecovered.length === 0) this.probeLedger();
    } finally {
      this.loading = false;
    }
    this.schedulePump();
  }

  /**
   * Recovery of each job, in order; null once stopped. A job whose recovery needs a write the
   * ledger cannot take (a restart on a full disk: one caught mid-fetch goes back to queued)
   * is returned with every job after it, in order: the agent starts anyway, its lines parked
   * on the ledger (told once, with what to do), and recovers them once the ledger takes writes.
   */
  private async resumeAll(jobs: readonly JobRecord[]): Promise<JobRecord[] | null> {
    for (const [i, job] of jobs.entries()) {
      if (this.stopped) return null;
      try {
        await resumeJob(job, this.recovery);
      } catch (error) {
        if (!isLedgerFailure(error)) throw error;
        return jobs.slice(i);
      }
    }
    return [];
  }

  /** One write that changes nothing: a ledger that cannot take it parks the lines now, told once. */
  private probeLedger(): void {
    if (!this.ledger.probeWrite) return;
    try {
      this.guard.call(() => this.ledger.probeWrite?.());
    } catch (error) {
      if (!isLedgerFailure(error)) throw error;
    }
  }

  /** Recovers `jobs` once a write goes through again (the guard's replay, in order with the rest). */
  private recoverLater(jobs: readonly JobRecord[]): void {
    if (jobs.length === 0) return;
    this.guard.orDefer(() => {
      // The guard's replay needs a write that goes through before it counts the ledger back.
      this.guard.call(() => this.ledger.probeWrite?.());
      void this.resumeAll(jobs.map((job) => this.ledger.get(job.id) ?? job)).then(
        (rest) => this.recoverLater(rest ?? []),
        // Only a lookup at a spooler throws here, and recovery catches that itself: a bug, told as such.
        (error: unknown) =>
          this.observer.onError(
            error instanceof JobError
              ? error
              : new JobError(JOB_ERROR_CODES.LEDGER, `Recovering jobs after a restart failed: ${(error as Error).message}`, {
                  cause: error,
                }),
          ),
      );
    });
  }

  /**
   * One automatic job per auto-print document type (or per type in `documentTypes`: the
   * end-of-day manifest), idempotent per shipment and type.
   */
  submitBooking(notice: BookingToPrint, documentTypes: readonly string[] = this.o.autoPrintTypes()): JobView[] {
    // A booking notice that arrives after its cancel (webhooks come out of order; End of day's
    // "print what is missing") prints nothing: the shipment is void.
    if (this.ledger.cancelOf?.(notice.shipmentId)) return [];
    const copies = this.o.copies();
    const jobs: JobView[] = [];
    for (const documentType of documentTypes) {
      const route = this.options.route(documentType, notice.carrier ?? null);
      const { job, created } = this.ledger.createAutoJob({
        shipmentId: notice.shipmentId,
        reference: notice.referenceId,
        trackingId: notice.trackingId,
        documentType,
        layout: route.layout,
        target: route.target,
        copies,
        trigger: notice.trigger,
        bookedAt: notice.bookedAt,
        held: this.autoPaused,
        siteDecision: notice.siteDecision ?? null,
      });
      if (created) {
        const start = (): void => {
          // Recorded: a ledger the lines are parked on takes writes again, so they go on now.
          this.guard.wroteElsewhere();
          this.emit(job);
          if (!job.held) this.enqueue(job);
        };
        if (this.afterCommit) this.afterCommit.push(start);
        else start();
      }
      jobs.push(toJobView(job));
    }
    return jobs;
  }

  /**
   * Runs `fn` (submitBooking calls, and whatever else the caller writes to the same ledger)
   * in one ledger transaction: one commit for a group of bookings instead of one each. The
   * jobs it creates are told and queued once it commits; if `fn` throws, nothing it wrote is
   * kept and none of them starts. Nested calls join the outer one.
   */
  together<T>(fn: () => T): T {
    if (this.afterCommit) return fn();
    const after: (() => void)[] = [];
    this.afterCommit = after;
    let result: T;
    try {
      result = this.ledger.transaction ? this.ledger.transaction(fn) : fn();
    } finally {
      this.afterCommit = null;
    }
    for (const start of after) start();
    return result;
  }

  /** Always a new job, never deduplicated against automatic prints. */
  reprint(request: ReprintRequest): JobView[] {
    const documentType = request.documentType ?? 'label';
    const seen = this.ledger.getShipment(request.shipmentId);
    const route = this.options.route(documentType, seen?.carrier ?? null);
    const job = this.ledger.createJob({
      shipmentId: request.shipmentId,
      reference: request.reference !== undefined ? request.reference : (seen?.referenceId ?? null),
      trackingId: request.trackingId !== undefined ? request.trackingId : (seen?.trackingId ?? null),
      documentType,
      layout: request.layout ?? route.layout,
      target: request.printer ?? route.target,
      copies: request.copies ?? this.o.copies(),
      trigger: request.trigger ?? 'reprint',
    });
    this.emit(job);
    this.enqueue(job);
    return [toJobView(job)];
  }

  /** A failed or canceled job goes back in line (same row; attempts keep counting). */
  retry(jobId: string): JobView {
    const job = this.mustGet(jobId);
    if (job.state !== 'failed' && job.state !== 'canceled') {
      throw new JobError(
        JOB_ERROR_CODES.INVALID_STATE,
        `Job ${jobId} is ${job.state}; only failed or canceled jobs can be retried. Use reprint for another copy.`,
        { jobId },
      );
    }
    // The old spooler id goes: findSpooled (spoolAttempted) will tell an aborted copy,
    // which may be sent again, from one that is still at the spooler.
    const queued = this.guard.write(jobId, 'queued', {
      reason: null,
      requestId: null,
      nextAttemptAt: null,
      held: false,
      spoolerJobId: null,
    });
    this.enqueue(queued);
    return toJobView(queued);
  }

  /** Cancel a job not yet handed to the spooler. */
  cancel(jobId: string): JobView {
    const job = this.mustGet(jobId);
    const entry = this.entries.get(jobId);
    if (job.state === 'canceled') return toJobView(job);
    if (entry?.phase === 'spooling' || job.state === 'spooling') {
      throw new JobError(JOB_ERROR_CODES.BUSY, `Job ${jobId} is being sent to the printer right now; cancel it at the printer if needed.`, {
        jobId,
      });
    }
    if (job.state === 'spooled' || job.state === 'completed') {
      throw new JobError(
        JOB_ERROR_CODES.INVALID_STATE,
        `Job ${jobId} is already at the printer (${job.state}); cancel it at the printer.`,
        { jobId },
      );
    }
    if (entry) this.drop(entry);
    const canceled = this.guard.write(jobId, 'canceled', { reason: plainMessage('job.canceledByHand'), nextAttemptAt: null });
    this.schedulePump();
    return toJobView(canceled);
  }

  /**
   * The shipment is canceled (at this station, or the service says so): it is recorded, and
   * every job of it not yet handed to a spooler ends `canceled`, wherever it is (queued,
   * being fetched, fetched and waiting, in a batch not yet spooled: the batch's other labels
   * are fetched again without it); a spool that starts later checks the recorded cancel
   * first (cancel-check.ts). A job already at the spooler (`atPrinter`), or being handed
   * over right now (`busy`, once the hand-over is done), is withdrawn there if the spooler
   * still holds it (a stopped CUPS queue, a printer busy with others): `withdrawn` settles
   * with those, ended `canceled`, and those left at the printer (printing or done: a person
   * takes the label off). A busy hand-over that fails goes back in line and is canceled by
   * the check before its next spool. It never rejects.
   */
  cancelShipment(
    shipmentId: string,
    by: 'station' | 'service',
    requestId: string | null = null,
  ): { canceled: JobView[]; busy: JobView[]; atPrinter: JobView[]; withdrawn: Promise<WithdrawResult> } {
    this.ledger.recordCancel?.({ shipmentId, source: by, requestId });
    const result = { canceled: [] as JobView[], busy: [] as JobView[], atPrinter: [] as JobView[] };
    const spooled: JobRecord[] = [];
    const handing: JobRecord[] = [];
    const id = shipmentId.toLowerCase();
    for (const job of this.ledger.open()) {
      if (job.shipmentId.toLowerCase() !== id) continue;
      const entry = this.entries.get(job.id);
      if (job.state === 'spooled') {
        result.atPrinter.push(toJobView(job));
        spooled.push(job);
      } else if (entry?.phase === 'spooling' || job.state === 'spooling') {
        result.busy.push(toJobView(job));
        handing.push(job);
      } else {
        if (entry) this.drop(entry);
        result.canceled.push(toJobView(this.writeCanceled(job.id, by, requestId)));
      }
    }
    this.schedulePump();
    const withdrawn = this.afterHandover(handing)
      .then((handed) => this.withdrawSpooled([...spooled, ...handed], by, requestId))
      .catch(() => ({ withdrawn: [], atPrinter: [...result.atPrinter, ...result.busy] }));
    return { ...result, withdrawn };
  }

  /** Those of `jobs` that reached the spooler, once their hand-over is over (at most HANDOVER_WAIT_MS). */
  private async afterHandover(jobs: readonly JobRecord[]): Promise<JobRecord[]> {
    const deadline = this.nowMs() + HANDOVER_WAIT_MS;
    const handing = (job: JobRecord): boolean =>
      this.entries.get(job.id)?.phase === 'spooling' || this.ledger.get(job.id)?.state === 'spooling';
    while (jobs.some(handing) && this.nowMs() < deadline && !this.stopped) await new Promise((resolve) => setTimeout(resolve, 20));
    return jobs.flatMap((job) => {
      const now = this.ledger.get(job.id);
      return now?.state === 'spooled' ? [now] : [];
    });
  }

  /**
   * Cancels at the spooler each of `jobs` it still holds, and records them canceled. Not a
   * spooler job that also holds labels of other shipments (a batch): those must print. A
   * spooler that cannot be asked leaves the job as it was (at the printer).
   */
  private async withdrawSpooled(jobs: readonly JobRecord[], by: 'station' | 'service', requestId: string | null): Promise<WithdrawResult> {
    const result: { withdrawn: JobView[]; atPrinter: JobView[] } = { withdrawn: [], atPrinter: [] };
    if (jobs.length === 0) return result;
    const open = this.ledger.open();
    const ours = new Set(jobs.map((j) => j.id));
    for (const job of jobs) {
      const spoolerJobId = job.spoolerJobId;
      const target = spoolerJobId ? this.printers.resolve(job.target) : null;
      const shared = open.some((other) => other.spoolerJobId === spoolerJobId && !ours.has(other.id));
      let withdrawn = false;
      if (spoolerJobId && target && !(target instanceof Error) && target.cancelJob && !shared && !this.stopped) {
        withdrawn = await target.cancelJob(spoolerJobId).catch(() => false);
      }
      if (!withdrawn) {
        result.atPrinter.push(toJobView(job));
        continue;
      }
      this.spooled.forget(job.id);
      let canceled: JobView = { ...toJobView(job), state: 'canceled' };
      // Out of the spooler now: recorded, or (the ledger cannot be written) as soon as it can be.
      this.guard.orDefer(() => {
        canceled = toJobView(this.writeCanceled(job.id, by, requestId));
      });
      result.withdrawn.push(canceled);
    }
    return result;
  }

  /** Requests the check before spooling made to the service (cancel-check.ts), for the bench. */
  get cancelRecheckRequests(): number {
    return this.cancelCheck.requests;
  }

  /** Pause one target (every job to it waits), or automatic printing as a whole (automatic jobs are recorded and held). */
  pause(target?: string): void {
    // The ledger first: a pause it cannot record (LEDGER_WRITE_FAILED) changes nothing here
    // either, so what the UI shows is what holds after a restart.
    if (target !== undefined) {
      this.recordPause(true, () => this.ledger.setPaused(target, true));
      this.pausedTargets.add(target);
      return;
    }
    const held = this.recordPause(true, () =>
      this.inTransaction(() => {
        this.ledger.setPaused(AUTO_SCOPE, true);
        return this.ledger.holdAutoJobs();
      }),
    );
    this.autoPaused = true;
    const ids = new Set(held.map((j) => j.id));
    for (const lane of this.lanes.values()) for (const e of lane.removeIds(ids)) this.drop(e);
    for (const job of held) this.emit(job);
    // Jobs fetched ahead (row `fetching`, PDF in memory or on its way) are held as well:
    // a pause stops everything not yet being handed to a spooler. The PDF is fetched again
    // on resume; a fetch in progress is disowned.
    for (const entry of [...this.entries.values()]) {
      if (!entry.auto || entry.phase === 'spooling') continue;
      this.drop(entry);
      // Held as paused *when written*: a write deferred while the ledger is down may run after
      // a resume, and must then queue the job rather than hold it until the next resume (N10).
      this.guard.orDefer(() => {
        const job = this.guard.write(entry.id, 'queued', { held: this.autoPaused });
        if (!job.held) this.enqueue(job);
      });
    }
    this.schedulePump();
  }

  /** Like pause(): a resume the ledger cannot record throws LEDGER_WRITE_FAILED and the pause stays. */
  resume(target?: string): void {
    if (target !== undefined) {
      this.recordPause(false, () => this.ledger.setPaused(target, false));
      this.pausedTargets.delete(target);
    } else {
      const released = this.recordPause(false, () =>
        this.inTransaction(() => {
          this.ledger.setPaused(AUTO_SCOPE, false);
          return this.ledger.releaseHeld();
        }),
      );
      this.autoPaused = false;
      for (const job of released) {
        this.emit(job);
        if (job.state === 'queued') this.enqueue(job);
      }
    }
    this.schedulePump();
  }

  /**
   * A ledger write that failed outside the queue (a webhook delivery intake could not
   * record): the lines park on it as on one of their own, and resume once it takes writes.
   */
  ledgerFailed(error: unknown): void {
    const failure = sqliteCode(error) ? ledgerWriteError(error, this.ledger.dir) : error;
    if (isLedgerFailure(failure)) this.guard.workFailed(failure);
  }

  /** Why the lines are parked on the ledger (disk full, read-only), until it takes a write again; else null. */
  ledgerDown(): JobError | null {
    return this.guard.failing;
  }

  isPaused(target?: string): boolean {
    return target === undefined ? this.autoPaused : this.pausedTargets.has(target);
  }

  /**
   * The printer says it is ready again (PrinterWatch saw it): a line waiting on it is looked
   * at now, not when its probe back-off (up to retryMaxMs) runs out, so the labels go out
   * within seconds of the paper going in. The probe still decides.
   */
  printerReady(target: string): void {
    const lane = this.lanes.get(target);
    if (!lane?.down || lane.probing) return;
    lane.down.nextProbeAt = Math.min(lane.down.nextProbeAt, this.nowMs());
    this.schedulePump();
  }

  /** Printers whose line waits because the printer is down as a whole, with the printer's advice. */
  downPrinters(): Array<{ readonly target: string; readonly advice: string; readonly adviceMessage?: AgentMessage }> {
    return [...this.lanes.values()].flatMap((lane) => {
      if (!lane.down) return [];
      const adviceMessage = codedOnly(lane.down.message);
      return [{ target: lane.target, advice: lane.down.advice, ...(adviceMessage ? { adviceMessage } : {}) }];
    });
  }

  /**
   * Fallback: `from`'s waiting jobs of `documentTypes` go to `to`, fetched again in `layout`
   * (the ledger row's target and layout change: after a restart they stay moved). A job that
   * may be at `from`'s spooler already (a spool was attempted) moves only when that spooler
   * says it does not hold it; one it holds, or that cannot be looked up, stays: it prints
   * there when the printer is back, never on both.
   */
  async moveWaiting(from: string, to: string, layout: LabelLayout, documentTypes: readonly string[] = ['label']): Promise<JobView[]> {
    const moved: JobView[] = [];
    const target = this.printers.resolve(from);
    for (const candidate of this.ledger.open()) {
      if (this.stopped) break;
      if (candidate.target !== from || !documentTypes.includes(candidate.documentType)) continue;
      if (candidate.spoolAttempted || this.entries.get(candidate.id)?.spoolUncertain) {
        if (target instanceof Error) continue;
        const found = await target.findSpooled(candidate.id).catch(() => 'unknown' as const);
        if (found === 'unknown' || (found && found.state !== 'aborted' && found.state !== 'canceled')) continue;
      }
      // Read again after the lookup: the line may have handed it over meanwhile.
      const job = this.ledger.get(candidate.id);
      const entry = this.entries.get(candidate.id);
      if (!job || job.target !== from || (job.state !== 'queued' && job.state !== 'fetching') || entry?.phase === 'spooling') continue;
      if (entry) this.drop(entry);
      let next: JobRecord;
      try {
        next = this.guard.write(job.id, 'queued', {
          target: to,
          layout,
          reason: null,
          requestId: null,
          nextAttemptAt: null,
          spoolAttempted: false,
          spoolerJobId: null,
        });
      } catch (error) {
        if (entry) this.enqueue(job); // the row is unchanged: back in its own line
        throw error;
      }
      if (!next.held) this.enqueue(next);
      moved.push(toJobView(next));
    }
    this.schedulePump();
    return moved;
  }

  /** Resolves when no runnable work remains (paused targets and held jobs do not count). */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stop taking work; let spools in progress finish; leave everything else resumable. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.wakeTimer = null;
    this.guard.stop();
    await Promise.all([...this.lanes.values()].flatMap((lane) => [lane.spooling, lane.probing]));
    await this.spooled.stop();
    for (const entry of this.entries.values()) {
      entry.token += 1;
      // A fetched PDF is only in memory: the row goes back to queued, nothing was sent.
      // If the ledger cannot take it, the row stays `fetching`, which start() requeues.
      if (entry.phase === 'fetching' || entry.phase === 'ready') this.guard.tryWrite(entry.id, 'queued', {});
    }
    this.entries.clear();
    this.lanes.clear();
    this.releaseIdle();
  }

  // ---- scheduling ------------------------------------------------------------------------

  private enqueue(job: JobRecord): void {
    if (!this.started && !this.loading) return; // start() loads it from the ledger
    if (this.stopped || this.entries.has(job.id)) return;
    const entry = entryFrom(job, this.nowMs());
    this.entries.set(entry.id, entry);
    this.laneFor(entry.target).insert(entry);
    this.schedulePump();
  }

  private laneFor(target: string): Lane {
    let lane = this.lanes.get(target);
    if (!lane) {
      lane = new Lane(target);
      this.lanes.set(target, lane);
    }
    return lane;
  }

  private schedulePump(): void {
    if (this.pumpQueued) return;
    this.pumpQueued = true;
    queueMicrotask(() => {
      this.pumpQueued = false;
      this.pump();
    });
  }

  private pump(): void {
    if (!this.started || this.stopped || this.guard.down) {
      this.releaseIdle();
      return;
    }
    try {
      const now = this.nowMs();
      for (const lane of this.lanes.values()) {
        if (this.guard.down) break;
        this.trySpool(lane, now);
      }
      this.fillFetches(now);
      this.armWake(now);
    } catch (error) {
      this.stepFailed(null, error);
    }
    this.releaseIdle();
  }

  /**
   * The one path every failed step takes (fetch, spool, probe, a batch's, the pump's own),
   * whatever threw. A ledger that cannot be written parks every line at once (the guard:
   * told once, retried with backoff, the lines run again by themselves); anything else parks
   * the step's line as if its printer were down (its readiness probe, with backoff, decides
   * when it moves again) instead of escaping as an unhandled rejection. Either way the
   * scheduler does not pick the failed step again in the same turn (issue 19).
   */
  private stepFailed(lane: Lane | null, error: unknown): void {
    if (isLedgerFailure(error)) {
      this.guard.workFailed(error);
      return;
    }
    const message = messageOf(error);
    const parked = lane ? [lane] : [...this.lanes.values()];
    // Told once a streak: a line that hands a job over again starts a new one (handedOver).
    const first = parked.some((l) => l.faults === 0);
    for (const l of parked) l.markFault(message, this.nowMs(), this.o.retryBaseMs, this.o.retryMaxMs);
    if (first) {
      const text = `Printing stopped on an unexpected error (${englishOf(message)}); it tries again by itself. Report this if it repeats.`;
      this.observer.onError(new JobError(JOB_ERROR_CODES.STEP_FAILED, text, { cause: error }));
    }
    // No pump now: the probe's timer (armWake) moves the line again, after the backoff.
    this.armWake(this.nowMs());
  }

  private trySpool(lane: Lane, now: number): void {
    if (lane.spooling || this.pausedTargets.has(lane.target)) return;
    const head = lane.head;
    if (!head || head.notBefore > now) return;
    const target = this.printers.resolve(lane.target);
    if (target instanceof Error) {
      this.failures.failNoTarget(head, target);
      this.schedulePump();
      return;
    }
    if (lane.down) {
      // The printer is down: one probe for the whole line, nothing handed over meanwhile.
      if (lane.probing || lane.down.nextProbeAt > now) return;
      lane.probing = this.steps
        .probe(lane, target)
        .catch((error: unknown) => this.stepFailed(lane, error))
        .finally(() => {
          lane.probing = null;
          this.schedulePump();
        });
      return;
    }
    if (head.batch) {
      if (!this.batching.readyToSpool(lane, head)) return;
      const batch = head.batch;
      for (const m of batch.members) m.phase = 'spooling';
      lane.spooling = this.batching
        .spool(lane, batch, target)
        .catch((error: unknown) => this.stepFailed(lane, error))
        .finally(() => {
          lane.spooling = null;
          this.schedulePump();
        });
      return;
    }
    const ready = head.phase === 'ready' || (head.phase === 'waiting' && !target.needsPdf);
    if (!ready) return;
    head.phase = 'spooling';
    lane.spooling = this.steps
      .spool(lane, head, target)
      .catch((error: unknown) => this.stepFailed(lane, error))
      .finally(() => {
        lane.spooling = null;
        this.schedulePump();
      });
  }

  private fillFetches(now: number): void {
    const lanes = [...this.lanes.values()];
    // A step that fails before it is under way (its ledger write) has parked the lines by the
    // time it returns: the loop ends there instead of picking the same job again.
    while (!this.guard.down && this.activeFetches() < this.o.fetchConcurrency && lanes.length > 0) {
      let picked: Entry | null = null;
      let lane: Lane | null = null;
      for (let i = 0; i < lanes.length && !picked; i++) {
        const index = (this.roundRobin + i) % lanes.length;
        picked = this.fetchCandidate(lanes[index]!, now);
        if (picked) {
          this.roundRobin = index + 1;
          lane = lanes[index]!;
        }
      }
      if (!picked || !lane) return;
      const batched = this.batchFetch(lane, picked, now);
      if (!batched && this.guard.down) return;
      const fetching = batched ?? this.steps.fetch(picked);
      const failedLane = lane;
      void fetching.catch((error: unknown) => this.stepFailed(failedLane, error));
      // Not under way (it failed before its fetch started): never picked twice in one turn.
      if (picked.phase === 'waiting') return;
    }
  }

  /** The jobs already waiting behind `first` go with it in one batch, when its target batches (batching.ts). */
  private batchFetch(lane: Lane, first: Entry, now: number): Promise<void> | null {
    const target = this.printers.resolve(lane.target);
    if (target instanceof Error || !this.batching.batches(target)) return null;
    const members = this.batching.membersFrom(lane, first, now);
    return members.length > 1 ? this.batching.fetch(members) : null;
  }

  private activeFetches(): number {
    return this.steps.activeFetches + this.batching.activeFetches;
  }

  private fetchCandidate(lane: Lane, now: number): Entry | null {
    if (this.pausedTargets.has(lane.target) || lane.down?.fault) return null;
    const target = this.printers.resolve(lane.target);
    if (target instanceof Error || !target.needsPdf) return null;
    for (const e of lookahead(lane, this.o.lookahead)) {
      if (e.phase === 'waiting' && e.notBefore <= now) return this.batching.holds(lane, e, target, now) ? null : e;
    }
    return null;
  }

  /** One timer for the earliest backoff that ends, instead of a timer per job. */
  private armWake(now: number): void {
    let next = Infinity;
    for (const lane of this.lanes.values()) {
      if (this.pausedTargets.has(lane.target) || this.guard.down) continue;
      if (lane.down && !lane.probing && lane.down.nextProbeAt > now && lane.down.nextProbeAt < next) next = lane.down.nextProbeAt;
      for (const e of lookahead(lane, this.o.lookahead)) {
        if (e.notBefore > now && e.notBefore < next) next = e.notBefore;
      }
    }
    if (next === Infinity || next >= this.wakeAt) return;
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.wakeAt = next;
    this.wakeTimer = setTimeout(
      () => {
        this.wakeTimer = null;
        this.wakeAt = Infinity;
        this.pump();
      },
      Math.max(0, next - now),
    );
  }

  // ---- helpers ---------------------------------------------------------------------------

  /** A pause or resume written to the ledger first; one it cannot take says to press it again. */
  private recordPause<T>(pausing: boolean, fn: () => T): T {
    try {
      return this.guard.call(fn);
    } catch (error) {
      throw isLedgerFailure(error) ? pauseNotRecorded(error, pausing, this.ledger.dir) : error;
    }
  }

  private inTransaction<T>(fn: () => T): T {
    return this.ledger.transaction ? this.ledger.transaction(fn) : fn();
  }

  private drop(entry: Entry): void {
    entry.token += 1;
    entry.pdf = null;
    this.lanes.get(entry.target)?.remove(entry);
    this.entries.delete(entry.id);
  }

  /** JobQueue.shipmentCanceled: found canceled just before its hand-over (cancel-check.ts). */
  private shipmentCanceled(entries: readonly Entry[], by: 'station' | 'service', requestId: string | null): void {
    for (const entry of entries) {
      this.drop(entry);
      this.writeCanceled(entry.id, by, requestId);
      if (by === 'service') this.ledger.recordCancel?.({ shipmentId: entry.shipmentId, source: by, requestId });
    }
    this.schedulePump();
  }

  private writeCanceled(jobId: string, by: 'station' | 'service', requestId: string | null): JobRecord {
    return this.guard.write(jobId, 'canceled', {
      reason: agentMessage('job.shipmentCanceled', { by }),
      requestId,
      nextAttemptAt: null,
    });
  }

  private disowned(entry: Entry, token: number): boolean {
    return this.stopped || entry.token !== token || this.entries.get(entry.id) !== entry;
  }

  private emit(job: JobRecord): void {
    this.observer.onJobChange(toJobView(job));
  }

  private mustGet(id: string): JobRecord {
    const job = this.ledger.get(id);
    if (!job) throw new JobError(JOB_ERROR_CODES.NOT_FOUND, `No print job ${id}; it may have been removed by retention.`, { jobId: id });
    return job;
  }

  private isIdle(): boolean {
    if (this.stopped) return true;
    if (this.activeFetches() > 0) return false;
    for (const lane of this.lanes.values()) {
      if (lane.spooling) return false;
      if (lane.entries.length > 0 && !this.pausedTargets.has(lane.target)) return false;
    }
    return true;
  }

  private releaseIdle(): void {
    if (this.idleWaiters.length === 0 || !this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private nowMs(): number {
    return this.o.now().getTime();
  }
}

/** The first `count` jobs of a line that may be fetched ahead; a batch counts as one. */
function* lookahead(lane: Lane, count: number): Generator<Entry> {
  let seen = 0;
  for (const e of lane.entries) {
    if (seen >= count) return;
    if (e.batch && e.batch.members[0] !== e) continue;
    seen += 1;
    yield e;
  }
}
