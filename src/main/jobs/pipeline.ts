import type { JobView, LabelLayout } from '../../shared/domain';
import type { PrinterTarget as BasePrinterTarget } from '../printing/target';

/** Targets may say they cannot be reconciled (no way to list what they printed). */
type PrinterTarget = BasePrinterTarget & { readonly reconcilable?: boolean };
import type { BookingNotice } from './booking-notice';
import { JobError, JOB_ERROR_CODES, ledgerWriteError, sqliteCode } from './errors';
import { backoffMs, classifyFailure, formatDelay } from './failure';
import { toJobView, type JobPatch, type JobRecord } from './job-record';
import { Lane, entryFrom, type Entry } from './lane';
import type { Ledger } from './ledger';
import { mediaForLayout, type PdfFetcher, type RouteDecision } from './ports';
import { SpoolerFollower, type FollowOutcome, type FollowedJob } from './spooler-follower';

export interface PrintPipelineOptions {
  readonly ledger: Ledger;
  /** Fetches PDFs (`ServiceClient` satisfies it). */
  readonly fetcher: PdfFetcher;
  /** The target for a printer URI; the caller caches targets. */
  readonly targetFor: (uri: string) => PrinterTarget;
  /** Where a document type prints and in which layout (routing profile). */
  readonly route: (documentType: string) => RouteDecision;
  /** Document types printed automatically after a booking. @default () => ['label'] */
  readonly autoPrintTypes?: () => readonly string[];
  /** Copies per automatic job and default for reprints. @default () => 1 */
  readonly copies?: () => number;
  /** PDFs fetched concurrently, across all targets. @default 4 */
  readonly fetchConcurrency?: number;
  /** Per target, how many jobs from the head may be fetched ahead (bounds PDFs held in memory). @default 8 */
  readonly lookahead?: number;
  /** Tries before a transient failure becomes a failed job. @default 8 */
  readonly maxAttempts?: number;
  /** @default 500 */
  readonly retryBaseMs?: number;
  /** @default 30000 */
  readonly retryMaxMs?: number;
  /** Poll target.jobState until the spooler says completed or aborted. @default true */
  readonly followSpooler?: boolean;
  /** @default 500 */
  readonly followIntervalMs?: number;
  /**
   * After a crash, how long after a job entered `spooling` the spooler is first asked about
   * it: an lp started by the killed process can outlive it and create its job a moment later.
   * @default 2000
   */
  readonly reconcileSettleMs?: number;
  /** @default () => new Date() */
  readonly now?: () => Date;
  /** Jitter source, in [0, 1). @default Math.random */
  readonly random?: () => number;
  /** Every change of a job (state, reason): the agent logs it and pushes it to the UI. */
  readonly onJobChange?: (job: JobView) => void;
  /**
   * A ledger write failed during background work (LEDGER_WRITE_FAILED: disk full, I/O
   * error, read-only, locked). Printing waits and the write is retried with backoff.
   * @default logs the message with console.error
   */
  readonly onError?: (error: JobError) => void;
  /** First wait before a failed ledger write is tried again; doubles up to ledgerRetryMaxMs. @default 1000 */
  readonly ledgerRetryBaseMs?: number;
  /** @default 30000 */
  readonly ledgerRetryMaxMs?: number;
}

export interface ReprintRequest {
  readonly shipmentId: string;
  /** @default 'label' */
  readonly documentType?: string;
  readonly layout?: LabelLayout;
  /** Printer URI; defaults to the routed printer. */
  readonly printer?: string;
  readonly copies?: number;
  /** @default 'reprint' */
  readonly trigger?: 'reprint' | 'scan' | 'manual';
  readonly reference?: string | null;
  readonly trackingId?: string | null;
}

/** Pause scope meaning "automatic printing as a whole". */
const AUTO_SCOPE = '*';

/**
 * The print queue: ledger row first, then fetch, then spool, then follow.
 *
 * Ordering: each target is a FIFO line in job creation order. Only the head of a line is
 * handed to the spooler; the next `lookahead` jobs are fetched ahead, concurrently and
 * round-robin across targets, so a slow or offline target holds up only its own line.
 * A head that failed transiently keeps its place and blocks its line while it waits for
 * its retry (labels must not come out of order); once it fails permanently it leaves the
 * line (state failed, with reason and request id) and the next job goes.
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
export class PrintPipeline {
  private readonly ledger: Ledger;
  private readonly o: Required<Omit<PrintPipelineOptions, 'onJobChange' | 'onError' | 'ledger' | 'fetcher' | 'targetFor' | 'route'>>;
  private readonly lanes = new Map<string, Lane>();
  private readonly entries = new Map<string, Entry>();
  private readonly targets = new Map<string, PrinterTarget>();
  private readonly pausedTargets = new Set<string>();
  private autoPaused = false;
  private readonly follower: SpoolerFollower;
  /** Jobs found at the spooler by start-up reconciliation, still followed. */
  private readonly recovered = new Set<string>();
  private activeFetches = 0;
  private roundRobin = 0;
  private started = false;
  private loading = false;
  private stopped = false;
  private pumpQueued = false;
  private wakeTimer: NodeJS.Timeout | null = null;
  private wakeAt = Infinity;
  private idleWaiters: (() => void)[] = [];
  /** Set while the ledger cannot be written: nothing new is fetched or spooled. */
  private ledgerDown: JobError | null = null;
  /** Consecutive failed ledger writes (backoff exponent); a successful write resets it. */
  private ledgerFailures = 0;
  private ledgerTimer: NodeJS.Timeout | null = null;
  /** Outcomes already true at the printer but not yet recorded, replayed in order. */
  private readonly deferred: (() => void)[] = [];

  constructor(private readonly options: PrintPipelineOptions) {
    this.ledger = options.ledger;
    this.o = {
      autoPrintTypes: options.autoPrintTypes ?? (() => ['label']),
      copies: options.copies ?? (() => 1),
      fetchConcurrency: Math.max(1, options.fetchConcurrency ?? 4),
      lookahead: Math.max(1, options.lookahead ?? 8),
      maxAttempts: Math.max(1, options.maxAttempts ?? 8),
      retryBaseMs: options.retryBaseMs ?? 500,
      retryMaxMs: options.retryMaxMs ?? 30_000,
      followSpooler: options.followSpooler ?? true,
      followIntervalMs: options.followIntervalMs ?? 500,
      reconcileSettleMs: options.reconcileSettleMs ?? 2000,
      ledgerRetryBaseMs: Math.max(1, options.ledgerRetryBaseMs ?? 1000),
      ledgerRetryMaxMs: Math.max(1, options.ledgerRetryMaxMs ?? 30_000),
      now: options.now ?? (() => new Date()),
      random: options.random ?? Math.random,
    };
    this.follower = new SpoolerFollower({
      intervalMs: this.o.followIntervalMs,
      onOutcome: (job, outcome) => this.onFollowOutcome(job, outcome, this.recovered.delete(job.jobId)),
    });
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
      await this.settle(open);
      for (const job of open) {
        if (this.stopped) return;
        await this.resume1(job);
      }
      this.started = true;
    } finally {
      this.loading = false;
    }
    this.schedulePump();
  }

  /** One automatic job per auto-print document type, idempotent per key. */
  submitBooking(notice: BookingNotice): JobView[] {
    const copies = this.o.copies();
    const jobs: JobView[] = [];
    for (const documentType of this.o.autoPrintTypes()) {
      const route = this.options.route(documentType);
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
      });
      if (created) {
        this.emit(job);
        if (!job.held) this.enqueue(job);
      }
      jobs.push(toJobView(job));
    }
    return jobs;
  }

  /** Always a new job, never deduplicated against automatic prints. */
  reprint(request: ReprintRequest): JobView[] {
    const documentType = request.documentType ?? 'label';
    const route = this.options.route(documentType);
    const seen = this.ledger.getShipment(request.shipmentId);
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
    const queued = this.write(jobId, 'queued', { reason: null, requestId: null, nextAttemptAt: null, held: false, spoolerJobId: null });
    this.enqueue(queued);
    return toJobView(queued);
  }

  /** Cancel a job not yet handed to the spooler. */
  cancel(jobId: string): JobView {
    const job = this.mustGet(jobId);
    const entry = this.entries.get(jobId);
    if (job.state === 'canceled') return toJobView(job);
    if (entry?.phase === 'spooling' || job.state === 'spooling') {
      throw new JobError(JOB_ERROR_CODES.BUSY, `Job ${jobId} is being sent to the printer right now; cancel it at the printer if needed.`, { jobId });
    }
    if (job.state === 'spooled' || job.state === 'completed') {
      throw new JobError(JOB_ERROR_CODES.INVALID_STATE, `Job ${jobId} is already at the printer (${job.state}); cancel it at the printer.`, { jobId });
    }
    if (entry) this.drop(entry);
    const canceled = this.write(jobId, 'canceled', { reason: 'canceled by hand', nextAttemptAt: null });
    this.schedulePump();
    return toJobView(canceled);
  }

  /** Pause one target (every job to it waits), or automatic printing as a whole (automatic jobs are recorded and held). */
  pause(target?: string): void {
    if (target !== undefined) {
      this.pausedTargets.add(target);
      this.ledger.setPaused(target, true);
      return;
    }
    this.autoPaused = true;
    this.ledger.setPaused(AUTO_SCOPE, true);
    const held = this.ledger.holdAutoJobs();
    const ids = new Set(held.map((j) => j.id));
    for (const lane of this.lanes.values()) for (const e of lane.removeIds(ids)) this.drop(e);
    for (const job of held) this.emit(job);
    // Jobs fetched ahead (row `fetching`, PDF in memory or on its way) are held as well:
    // a pause stops everything not yet being handed to a spooler. The PDF is fetched again
    // on resume; a fetch in progress is disowned.
    for (const entry of [...this.entries.values()]) {
      if (!entry.auto || entry.phase === 'spooling') continue;
      this.drop(entry);
      this.orDefer(() => this.write(entry.id, 'queued', { held: true }));
    }
    this.schedulePump();
  }

  resume(target?: string): void {
    if (target !== undefined) {
      this.pausedTargets.delete(target);
      this.ledger.setPaused(target, false);
    } else {
      this.autoPaused = false;
      this.ledger.setPaused(AUTO_SCOPE, false);
      for (const job of this.ledger.releaseHeld()) {
        this.emit(job);
        if (job.state === 'queued') this.enqueue(job);
      }
    }
    this.schedulePump();
  }

  isPaused(target?: string): boolean {
    return target === undefined ? this.autoPaused : this.pausedTargets.has(target);
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
    if (this.ledgerTimer) clearTimeout(this.ledgerTimer);
    this.ledgerTimer = null;
    await Promise.all([...this.lanes.values()].map((lane) => lane.spooling));
    await this.follower.stop();
    for (const entry of this.entries.values()) {
      entry.token += 1;
      // A fetched PDF is only in memory: the row goes back to queued, nothing was sent.
      // If the ledger cannot take it, the row stays `fetching`, which start() requeues.
      if (entry.phase === 'fetching' || entry.phase === 'ready') this.tryWrite(entry.id, 'queued', {});
    }
    this.entries.clear();
    this.lanes.clear();
    this.releaseIdle();
  }

  // ---- start-up reconciliation -----------------------------------------------------------

  private async resume1(job: JobRecord): Promise<void> {
    switch (job.state) {
      case 'queued':
        if (!job.held) this.enqueue(job);
        return;
      case 'fetching':
        // Nothing was sent to a spooler yet.
        this.enqueue(this.write(job.id, 'queued', {}));
        return;
      case 'spooling':
      case 'spooled': {
        if (job.spoolerJobId) {
          // lp answered before the crash: the job reached the spooler whole; just follow it.
          if (job.state === 'spooled') this.followJob(job.id, job.target, job.spoolerJobId);
          else this.onSpooled(job.id, job.target, job.spoolerJobId, false);
          return;
        }
        const target = this.resolveTarget(job.target);
        if (target instanceof Error) {
          this.enqueue(job);
          return;
        }
        if (target.reconcilable === false) {
          this.resumeUnreconcilable(job);
          return;
        }
        let found: Awaited<ReturnType<PrinterTarget['findSpooled']>> = null;
        try {
          found = await target.findSpooled(job.id);
        } catch {
          // The spooler cannot be asked now: queue it, still marked uncertain, so the
          // lookup is repeated before anything is sent.
          this.enqueue(this.write(job.id, 'queued', {}));
          return;
        }
        if (found && found.state !== 'aborted' && found.state !== 'canceled') {
          this.onSpooled(job.id, job.target, found.spoolerJobId, found.state === 'completed', true);
        } else {
          const queued = this.write(job.id, 'queued', { spoolAttempted: false });
          this.enqueue(queued);
        }
        return;
      }
      default:
        return;
    }
  }

  /**
   * A target that cannot say what it printed (windows, service) is never sent a job again
   * after a restart on a guess: `spooled` means the spooler took it, and a `spooling` job
   * that was handed over may have printed, so a person decides.
   */
  private resumeUnreconcilable(job: JobRecord): void {
    if (job.state === 'spooled') {
      this.write(job.id, 'completed', { reason: 'handed to the printer before the restart; it cannot be followed further' });
    } else if (job.spoolAttempted) {
      this.write(job.id, 'failed', {
        reason: 'the agent stopped while sending this job: it may have printed: check the printer, then retry by hand',
        nextAttemptAt: null,
      });
    } else {
      // `spooling` without spool_attempted: only the lookup ran, nothing was sent.
      this.enqueue(this.write(job.id, 'queued', {}));
    }
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
    if (!this.started || this.stopped || this.ledgerDown) {
      this.releaseIdle();
      return;
    }
    try {
      const now = this.nowMs();
      for (const lane of this.lanes.values()) this.trySpool(lane, now);
      this.fillFetches(now);
      this.armWake(now);
    } catch (error) {
      this.workFailed(error);
    }
    this.releaseIdle();
  }

  private trySpool(lane: Lane, now: number): void {
    if (lane.spooling || this.pausedTargets.has(lane.target)) return;
    const head = lane.head;
    if (!head || head.notBefore > now) return;
    const target = this.resolveTarget(lane.target);
    if (target instanceof Error) {
      this.fail(head, target.message, null);
      this.schedulePump();
      return;
    }
    const ready = head.phase === 'ready' || (head.phase === 'waiting' && !target.needsPdf);
    if (!ready) return;
    head.phase = 'spooling';
    lane.spooling = this.spool(lane, head, target)
      .catch((error: unknown) => this.workFailed(error))
      .finally(() => {
        lane.spooling = null;
        this.schedulePump();
      });
  }

  private fillFetches(now: number): void {
    const lanes = [...this.lanes.values()];
    while (this.activeFetches < this.o.fetchConcurrency && lanes.length > 0) {
      let picked: Entry | null = null;
      for (let i = 0; i < lanes.length && !picked; i++) {
        const index = (this.roundRobin + i) % lanes.length;
        picked = this.fetchCandidate(lanes[index]!, now);
        if (picked) this.roundRobin = index + 1;
      }
      if (!picked) return;
      void this.fetch(picked).catch((error: unknown) => this.workFailed(error));
    }
  }

  private fetchCandidate(lane: Lane, now: number): Entry | null {
    if (this.pausedTargets.has(lane.target)) return null;
    const target = this.resolveTarget(lane.target);
    if (target instanceof Error || !target.needsPdf) return null;
    const window = Math.min(lane.entries.length, this.o.lookahead);
    for (let i = 0; i < window; i++) {
      const e = lane.entries[i]!;
      if (e.phase === 'waiting' && e.notBefore <= now) return e;
    }
    return null;
  }

  /** One timer for the earliest backoff that ends, instead of a timer per job. */
  private armWake(now: number): void {
    let next = Infinity;
    for (const lane of this.lanes.values()) {
      if (this.pausedTargets.has(lane.target) || this.ledgerDown) continue;
      const window = Math.min(lane.entries.length, this.o.lookahead);
      for (let i = 0; i < window; i++) {
        const e = lane.entries[i]!;
        if (e.notBefore > now && e.notBefore < next) next = e.notBefore;
      }
    }
    if (next === Infinity || next >= this.wakeAt) return;
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.wakeAt = next;
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = null;
      this.wakeAt = Infinity;
      this.pump();
    }, Math.max(0, next - now));
  }

  // ---- work ------------------------------------------------------------------------------

  private async fetch(entry: Entry): Promise<void> {
    entry.phase = 'fetching';
    const token = entry.token;
    try {
      this.countTry(entry, 'fetching');
    } catch (error) {
      // Not recorded, so not fetched: the job waits for the ledger, unchanged.
      entry.phase = 'waiting';
      throw error;
    }
    this.activeFetches += 1;
    try {
      const { pdf } = await this.options.fetcher.printFile({
        shipment_ids: [entry.shipmentId],
        document_type: entry.documentType,
        label_layout: entry.layout,
      });
      if (this.disowned(entry, token)) return;
      entry.pdf = pdf;
      entry.phase = 'ready';
    } catch (error) {
      if (this.disowned(entry, token)) return;
      if (await this.lacksDocument(entry, error)) {
        if (!this.disowned(entry, token)) this.skipMissing(entry, error);
        return;
      }
      if (this.disowned(entry, token)) return;
      this.onFailure(entry, error);
    } finally {
      this.activeFetches -= 1;
      this.schedulePump();
    }
  }

  private async spool(lane: Lane, entry: Entry, target: PrinterTarget): Promise<void> {
    let result: { spoolerJobId: string | null; completed: boolean };
    try {
      if (entry.spoolUncertain) {
        // The lookup can fail as well (a spooler that cannot be asked); counting the try here
        // keeps maxAttempts a bound on a job that can neither be spooled nor looked up.
        this.countTry(entry, 'spooling');
        const found = await target.findSpooled(entry.id);
        if (found && found.state !== 'aborted' && found.state !== 'canceled') {
          lane.remove(entry);
          this.entries.delete(entry.id);
          this.recordSpooled(entry.id, entry.target, found.spoolerJobId, found.state === 'completed');
          return;
        }
        entry.spoolUncertain = false;
      }
      // Written before the hand-over: if the ledger cannot take it, the job is not sent.
      this.countTry(entry, 'spooling', { spoolAttempted: true });
      entry.spoolUncertain = true; // until spool() answers, the job may be at the spooler
      result = await target.spool({
        jobId: entry.id,
        title: `Print Station ${entry.id} ${entry.shipmentId} ${entry.documentType}`,
        pdf: target.needsPdf ? entry.pdf : null,
        media: mediaForLayout(entry.layout),
        copies: entry.copies,
        shipmentId: entry.shipmentId,
        documentType: entry.documentType,
        layout: entry.layout,
      });
    } catch (error) {
      if (isLedgerFailure(error)) {
        entry.phase = entry.pdf ? 'ready' : 'waiting';
        throw error;
      }
      if (target.reconcilable === false && isAmbiguous(error)) {
        // The target cannot be asked what it printed (service printers): after a timeout
        // or a 5xx the document may be out, so a person decides instead of an automatic resend.
        const failure = classifyFailure(error);
        const said = /may have printed/.test(failure.message)
          ? failure.message
          : `${failure.message}; it may have printed: check the printer, then retry by hand`;
        this.fail(entry, said, failure.requestId);
        return;
      }
      if (await this.lacksDocument(entry, error)) {
        this.skipMissing(entry, error);
        return;
      }
      this.onFailure(entry, error);
      return;
    }
    lane.remove(entry);
    this.entries.delete(entry.id);
    entry.pdf = null;
    this.recordSpooled(entry.id, entry.target, result.spoolerJobId, result.completed);
  }

  /** The handover happened: record it now, or as soon as the ledger can be written. */
  private recordSpooled(jobId: string, targetUri: string, spoolerJobId: string | null, completed: boolean, recovered = false): void {
    this.orDefer(() => this.onSpooled(jobId, targetUri, spoolerJobId, completed, recovered));
  }

  /** Record the handover; finish at once (folder, service, windows) or follow the spooler. */
  private onSpooled(jobId: string, targetUri: string, spoolerJobId: string | null, completed: boolean, recovered = false): void {
    const patch = { spoolerJobId, reason: null, requestId: null, nextAttemptAt: null };
    this.write(jobId, 'spooled', patch);
    if (completed) this.write(jobId, 'completed', {});
    else if (spoolerJobId) this.followJob(jobId, targetUri, spoolerJobId, recovered);
  }

  private followJob(jobId: string, targetUri: string, spoolerJobId: string, recovered = false): void {
    if (!this.o.followSpooler || this.stopped) return;
    const target = this.resolveTarget(targetUri);
    if (target instanceof Error) return;
    if (recovered) this.recovered.add(jobId);
    this.follower.follow({ jobId, spoolerJobId, target });
  }

  /** Wait until an lp left running by a crashed run has had time to reach the spooler. */
  private async settle(open: readonly JobRecord[]): Promise<void> {
    let latest = 0;
    for (const job of open) {
      if ((job.state === 'spooling' || job.state === 'spooled') && !job.spoolerJobId) latest = Math.max(latest, Date.parse(job.updatedAt) || 0);
    }
    const wait = latest + this.o.reconcileSettleMs - this.nowMs();
    if (latest > 0 && wait > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(wait, this.o.reconcileSettleMs)));
  }

  private onFollowOutcome(job: FollowedJob, outcome: FollowOutcome, recovered: boolean): void {
    if (this.stopped) return;
    // Runs inside the follower's tick: a ledger that cannot be written must not throw there.
    try {
      this.orDefer(() => this.recordOutcome(job, outcome, recovered));
    } catch (error) {
      this.workFailed(error);
    }
  }

  private recordOutcome(job: FollowedJob, outcome: FollowOutcome, recovered: boolean): void {
    if (recovered && (outcome === 'aborted' || outcome === 'canceled')) {
      // A job found at the spooler after a crash that then ends canceled or aborted was
      // most likely cut off by the crash itself (lp killed mid-job): send it again once.
      const queued = this.write(job.jobId, 'queued', {
        reason: `the spooler ${outcome} job ${job.spoolerJobId} after the restart; sending it again`,
        spoolerJobId: null,
        spoolAttempted: false,
      });
      this.enqueue(queued);
      return;
    }
    switch (outcome) {
      case 'completed':
        this.write(job.jobId, 'completed', {});
        return;
      case 'vanished':
        // CUPS drops finished jobs from its list when history is off: gone without an abort.
        this.write(job.jobId, 'completed', { reason: 'the spooler no longer lists the job; assumed printed' });
        return;
      case 'aborted':
        this.write(job.jobId, 'failed', { reason: `the printer aborted job ${job.spoolerJobId}; check the printer, then retry` });
        return;
      case 'canceled':
        this.write(job.jobId, 'canceled', { reason: `job ${job.spoolerJobId} was canceled at the printer` });
        return;
    }
  }

  private onFailure(entry: Entry, error: unknown): void {
    entry.tryCounted = false;
    const failure = classifyFailure(error);
    if (failure.transient && entry.tries < this.o.maxAttempts) {
      const delay = failure.retryAfterMs ?? backoffMs(entry.tries, this.o.retryBaseMs, this.o.retryMaxMs, this.o.random);
      if (entry.auto && this.autoPaused) {
        // It was being handed over when printing was paused: it waits for resume with the rest.
        this.drop(entry);
        this.orDefer(() => this.write(entry.id, 'queued', { reason: failure.message, requestId: failure.requestId, held: true, nextAttemptAt: null }));
        return;
      }
      entry.notBefore = this.nowMs() + delay;
      entry.phase = entry.pdf ? 'ready' : 'waiting';
      // If this write fails the row keeps its last state (spool_attempted included), which
      // is as safe: the job stays in line and is looked up before any resend.
      this.write(entry.id, 'queued', {
        reason: `${failure.message}; retrying in ${formatDelay(delay)}`,
        requestId: failure.requestId,
        nextAttemptAt: new Date(entry.notBefore).toISOString(),
      });
      return;
    }
    const gaveUp = failure.transient ? ` (gave up after ${entry.tries} attempts; retry by hand)` : '';
    this.fail(entry, `${failure.message}${gaveUp}`, failure.requestId);
  }

  private fail(entry: Entry, reason: string, requestId: string | null): void {
    this.drop(entry);
    this.orDefer(() => this.write(entry.id, 'failed', { reason, requestId, nextAttemptAt: null }));
  }

  /**
   * An automatic job for a document type the shipment does not have (e.g. customsinvoice
   * on an EU shipment; the service answers 422): nothing to print, so the job ends
   * `canceled`, not `failed`: no error state, no notification.
   */
  private async lacksDocument(entry: Entry, error: unknown): Promise<boolean> {
    if (!entry.auto) return false; // asked for by a person: say why it failed
    const e = (typeof error === 'object' && error !== null ? error : {}) as { status?: unknown; serviceMessage?: unknown };
    if (e.status !== 422) return false;
    const type = entry.documentType.toLowerCase();
    const lookup = this.options.fetcher.availableDocuments;
    if (lookup) {
      try {
        const types = await lookup.call(this.options.fetcher, entry.shipmentId);
        return !types.some((t) => t.toLowerCase() === type);
      } catch {
        // cannot ask: fall back to what the service said
      }
    }
    // The spec names no error codes; the sandbox (and its message) say document_type_unavailable.
    const said = typeof e.serviceMessage === 'string' ? e.serviceMessage.toLowerCase() : '';
    return said.includes('document_type_unavailable') || said.includes(`no ${type}`);
  }

  private skipMissing(entry: Entry, error: unknown): void {
    this.drop(entry);
    const requestId = classifyFailure(error).requestId;
    this.orDefer(() => this.write(entry.id, 'canceled', { reason: `this shipment has no ${entry.documentType}`, requestId, nextAttemptAt: null }));
  }

  /** Count a new try in the ledger's `attempts` (once per fetch+spool pass). */
  private countTry(entry: Entry, state: 'fetching' | 'spooling', patch: JobPatch = {}): JobRecord {
    const counted = entry.tryCounted;
    const job = this.write(entry.id, state, { ...patch, incrementAttempts: !counted, nextAttemptAt: null, reason: null });
    if (!counted) {
      entry.tries += 1;
      entry.tryCounted = true;
    }
    return job;
  }

  // ---- ledger failures -------------------------------------------------------------------

  /**
   * Background work (fetch, spool, follow, pump) that threw. A ledger that cannot be
   * written stops the pump until a retry succeeds; anything else is a bug and is rethrown.
   */
  private workFailed(error: unknown): void {
    if (!isLedgerFailure(error)) throw error;
    this.ledgerFailures += 1;
    const first = this.ledgerDown === null;
    this.ledgerDown = error;
    const delay = Math.min(this.o.ledgerRetryMaxMs, this.o.ledgerRetryBaseMs * 2 ** Math.min(20, this.ledgerFailures - 1));
    if (first || !this.ledgerTimer) this.report(new JobError(error.code, `${error.message} Printing waits; next try in ${formatDelay(delay)}.`, { cause: error }));
    if (this.ledgerTimer || this.stopped) return;
    this.ledgerTimer = setTimeout(() => {
      this.ledgerTimer = null;
      this.retryLedger();
    }, delay);
  }

  /** Replay what is known but unrecorded, in order, then let the pump run again. */
  private retryLedger(): void {
    if (this.stopped) return;
    try {
      while (this.deferred.length > 0) {
        this.deferred[0]!();
        this.deferred.shift();
      }
    } catch (error) {
      this.workFailed(error);
      return;
    }
    this.ledgerDown = null;
    this.schedulePump();
  }

  /** Run a ledger write now; if the ledger cannot take it, keep it for the retry. */
  private orDefer(fn: () => void): void {
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

  /** A write that may be lost (the row's previous state is as good), e.g. at stop(). */
  private tryWrite(id: string, state: JobRecord['state'], patch: JobPatch): void {
    try {
      this.write(id, state, patch);
    } catch (error) {
      if (!isLedgerFailure(error)) throw error;
    }
  }

  private report(error: JobError): void {
    try {
      if (this.options.onError) this.options.onError(error);
      else console.error(`${error.code}: ${error.message}`);
    } catch {
      // A listener's bug must not stall printing.
    }
  }

  // ---- helpers ---------------------------------------------------------------------------

  private drop(entry: Entry): void {
    entry.token += 1;
    entry.pdf = null;
    this.lanes.get(entry.target)?.remove(entry);
    this.entries.delete(entry.id);
  }

  private disowned(entry: Entry, token: number): boolean {
    return this.stopped || entry.token !== token || this.entries.get(entry.id) !== entry;
  }

  /** Errors are not cached: a target that cannot be made now (no API key yet) may work later. */
  private resolveTarget(uri: string): PrinterTarget | Error {
    const cached = this.targets.get(uri);
    if (cached) return cached;
    try {
      const target = this.options.targetFor(uri);
      this.targets.set(uri, target);
      return target;
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  }

  /** SQLite errors become LEDGER_WRITE_FAILED, which says what to do and is retried. */
  private write(id: string, state: JobRecord['state'], patch: JobPatch): JobRecord {
    let job: JobRecord;
    try {
      job = this.ledger.transition(id, state, patch);
    } catch (error) {
      throw sqliteCode(error) ? ledgerWriteError(error, this.ledger.dir) : error;
    }
    this.ledgerFailures = 0;
    this.emit(job);
    return job;
  }

  private emit(job: JobRecord): void {
    try {
      this.options.onJobChange?.(toJobView(job));
    } catch {
      // A listener's bug must not stall printing.
    }
  }

  private mustGet(id: string): JobRecord {
    const job = this.ledger.get(id);
    if (!job) throw new JobError(JOB_ERROR_CODES.NOT_FOUND, `No print job ${id}; it may have been removed by retention.`, { jobId: id });
    return job;
  }

  private isIdle(): boolean {
    if (this.stopped) return true;
    if (this.activeFetches > 0) return false;
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

/** A failure after which the request may or may not have taken effect. */
function isAmbiguous(error: unknown): boolean {
  const e = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; status?: unknown; retryAfterMs?: unknown };
  if (e.code === 'SERVICE_TIMEOUT' || e.code === 'SERVICE_UNREACHABLE' || e.code === 'SERVICE_INVALID_RESPONSE') return true;
  if (e.code === 'PRINT_MAY_HAVE_PRINTED') return true;
  // A 5xx may come from a gateway after the service printed. A 503 with Retry-After is the
  // service refusing up front ("label not ready"), so only that one is safe to send again.
  return e.code === 'SERVICE_UNAVAILABLE' && !(e.status === 503 && typeof e.retryAfterMs === 'number');
}

function isLedgerFailure(error: unknown): error is JobError {
  return error instanceof JobError && error.code === JOB_ERROR_CODES.LEDGER_WRITE_FAILED;
}
