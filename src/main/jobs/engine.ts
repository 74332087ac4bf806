import { JobError, JOB_ERROR_CODES } from '../ledger/errors';
import { toJobView, type JobRecord } from '../ledger/job-record';
import { LedgerGuard } from '../ledger/ledger-guard';
import { BatchBytes } from './batch-bytes';
import { Batching } from './batching';
import { CancelCheck } from './cancel-check';
import { JobFailures } from './job-failures';
import { JobSteps } from './job-steps';
import { entryFrom, type Entry, type Lane } from './lane';
import type { JobQueue, PipelineContext } from './pipeline-context';
import { observerFrom, resolveSettings, type PipelineSettings, type PrintPipelineOptions } from './pipeline-options';
import type { PipelineLedger, PipelineObserver } from './ports';
import { TargetCache } from './printer-directory';
import type { RecoveryContext } from './commands/recovery';
import { Runner, writeCanceled } from './runner';
import { Scheduler } from './scheduler';
import { SpooledJobs } from './spooled-jobs';

/** Pause scope meaning "automatic printing as a whole". */
export const AUTO_SCOPE = '*';

/**
 * The engine's state and its parts, put together once: the lines and the jobs in them, the
 * pauses, the scheduler (scheduler.ts), the runner that settles each step's outcome
 * (runner.ts), the steps (job-steps.ts, batching.ts), the outcome of a failure (job-failures.ts), the spooler's side (spooled-jobs.ts) and the ledger's writes
 * (ledger/ledger-guard.ts). The facade (pipeline.ts) and the commands (commands/) work on it;
 * the steps see it only as the `JobQueue` port (pipeline-context.ts), which it implements.
 */
export class Engine implements JobQueue {
  readonly ledger: PipelineLedger;
  readonly settings: PipelineSettings;
  readonly lanes = new Map<string, Lane>();
  readonly entries = new Map<string, Entry>();
  readonly pausedTargets = new Set<string>();
  autoPaused = false;
  started = false;
  loading = false;
  stopped = false;
  /** Inside together(): what the jobs created so far start (told, queued), run once it commits. */
  afterCommit: (() => void)[] | null = null;
  readonly printers: TargetCache;
  readonly observer: PipelineObserver;
  readonly guard: LedgerGuard;
  readonly spooled: SpooledJobs;
  readonly failures: JobFailures;
  readonly steps: JobSteps;
  readonly cancelCheck: CancelCheck;
  readonly batching: Batching;
  readonly runner: Runner;
  readonly recovery: RecoveryContext;
  readonly scheduler: Scheduler;

  constructor(readonly options: PrintPipelineOptions) {
    this.ledger = options.ledger;
    this.settings = resolveSettings(options);
    this.printers = new TargetCache(options.targetFor);
    this.observer = observerFrom(options);
    const { ledgerRetryBaseMs: retryBaseMs, ledgerRetryMaxMs: retryMaxMs } = this.settings;
    this.guard = new LedgerGuard({ ledger: this.ledger, observer: this.observer, queue: this, retryBaseMs, retryMaxMs });
    // Every PDF fetched teaches the byte cap on batches what a shipment weighs (batch-bytes.ts).
    const bytes = new BatchBytes(this.settings.batchMaxBytes);
    const fetcher = bytes.watch(options.fetcher);
    const context: PipelineContext = { settings: this.settings, queue: this, guard: this.guard, fetcher, printers: this.printers };
    this.spooled = new SpooledJobs(context);
    this.failures = new JobFailures(context);
    this.cancelCheck = new CancelCheck(context, this.ledger);
    this.steps = new JobSteps(context, this.failures, this.cancelCheck);
    this.batching = new Batching(context, this.ledger, this.steps, this.failures, this.spooled, bytes);
    this.runner = new Runner({
      ...context,
      lanes: this.lanes,
      entries: this.entries,
      cancels: this.ledger,
      observer: this.observer,
      steps: this.steps,
      batching: this.batching,
      failures: this.failures,
      spooled: this.spooled,
      rearm: () => this.scheduler.rearm(),
    });
    this.recovery = { ...context, spooled: this.spooled };
    this.scheduler = new Scheduler({
      ...context,
      lanes: this.lanes,
      pausedTargets: this.pausedTargets,
      runner: this.runner,
      batching: this.batching,
      running: () => this.started && !this.stopped,
      stopped: () => this.stopped,
      nowMs: () => this.nowMs(),
    });
    for (const scope of this.ledger.pausedScopes()) {
      if (scope === AUTO_SCOPE) this.autoPaused = true;
      else this.pausedTargets.add(scope);
    }
  }

  // ---- JobQueue: what the steps may read and ask of the queue ---------------------------

  isStopped(): boolean {
    return this.stopped;
  }

  isAutoPaused(): boolean {
    return this.autoPaused;
  }

  nowMs(): number {
    return this.settings.now().getTime();
  }

  enqueue(job: JobRecord): void {
    if (!this.started && !this.loading) return; // start() loads it from the ledger
    if (this.stopped || this.entries.has(job.id)) return;
    this.runner.admit(entryFrom(job, this.nowMs()));
    this.schedulePump();
  }

  disowned(entry: Entry, token: number): boolean {
    return this.stopped || entry.token !== token || this.entries.get(entry.id) !== entry;
  }

  schedulePump(): void {
    this.scheduler.schedule();
  }

  // ---- shared by the commands -------------------------------------------------------------

  writeCanceled(jobId: string, by: 'station' | 'service', requestId: string | null): JobRecord {
    return writeCanceled(this.guard, jobId, by, requestId);
  }

  emit(job: JobRecord): void {
    this.observer.onJobChange(toJobView(job));
  }

  mustGet(id: string): JobRecord {
    const job = this.ledger.get(id);
    if (!job) throw new JobError(JOB_ERROR_CODES.NOT_FOUND, `No print job ${id}; it may have been removed by retention.`, { jobId: id });
    return job;
  }

  inTransaction<T>(fn: () => T): T {
    return this.ledger.transaction ? this.ledger.transaction(fn) : fn();
  }
}
