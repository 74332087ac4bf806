import type { JobRecord } from '../ledger/job-record';
import type { Entry } from './lane';
import type { LedgerGuard } from '../ledger/ledger-guard';
import type { PipelineSettings } from './pipeline-options';
import type { PdfFetcher, PrinterDirectory } from './ports';

/*
 * What the pipeline's parts (job-steps.ts, job-failures.ts, spooled-jobs.ts, recovery.ts)
 * share: the queue they work for, its ledger writes, its printers and its fetcher. One
 * context object with named members instead of a callback per need, so a reader can
 * follow every call from a part back to the queue (pipeline.ts implements `JobQueue`).
 */

/**
 * The queue as its parts see it: its state, and a job put in its line. Nothing here changes a
 * job's phase or a line: only the runner does (runner.ts), settling what a step returned.
 */
export interface JobQueue {
  /** stop() was called: nothing new starts, no retry is armed. */
  isStopped(): boolean;
  /** Automatic printing as a whole is paused. */
  isAutoPaused(): boolean;
  nowMs(): number;
  /** Put a job in its line (through the runner, runner.ts). */
  enqueue(job: JobRecord): void;
  /** The job was canceled, held or the pipeline stopped while a step was running. */
  disowned(entry: Entry, token: number): boolean;
  /** Run the scheduler again soon (a step ended, the ledger is back). */
  schedulePump(): void;
}

export interface PipelineContext {
  readonly settings: PipelineSettings;
  readonly queue: JobQueue;
  /** Every ledger write of the pipeline goes through it (ledger-guard.ts). */
  readonly guard: LedgerGuard;
  readonly fetcher: PdfFetcher;
  readonly printers: PrinterDirectory;
}
