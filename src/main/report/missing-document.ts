/**
 * One document's turn in "print what is missing", shared by the end-of-day report (labels)
 * and documents per parcel (every document type): a document in line or printed waits; a
 * failed one is retried as the same job, never copied; otherwise a new automatic job is
 * submitted, which the ledger's idempotency (one per shipment and document type) keeps to one.
 */
import type { JobView } from '../../shared/domain';
import type { JobRecord } from '../ledger/job-record';

const IN_LINE_OR_DONE: ReadonlySet<string> = new Set(['queued', 'fetching', 'spooling', 'spooled', 'completed']);

export interface MissingTally {
  queued: number;
  retried: number;
  waiting: number;
}

export interface MissingDocumentStep {
  /** The shipment's jobs for this document type. */
  readonly own: readonly JobRecord[];
  readonly retry: (jobId: string) => unknown;
  /** Submits the automatic job; returns it (new, or the one that was there). */
  readonly submit: () => JobView | undefined;
  /**
   * Leave a failure that may have printed to a person (check the printer) instead of
   * retrying it. @default false
   */
  readonly holdMayHavePrinted?: boolean;
}

export function printIfMissing(step: MissingDocumentStep, tally: MissingTally): void {
  const { own } = step;
  if (own.some((j) => IN_LINE_OR_DONE.has(j.state))) {
    tally.waiting++;
    return;
  }
  const failed = own.findLast((j) => j.state === 'failed');
  if (failed && step.holdMayHavePrinted && /may have printed/.test(failed.reason ?? '')) {
    tally.waiting++;
    return;
  }
  if (failed) {
    try {
      step.retry(failed.id);
      tally.retried++;
    } catch {
      // Retried meanwhile (a second click, another window): it is back in line already.
      tally.waiting++;
    }
    return;
  }
  const job = step.submit();
  // A job handed back that was there before is someone else's, already counted as waiting.
  if (job?.state === 'queued' && !own.some((j) => j.id === job.id)) tally.queued++;
  else tally.waiting++;
}
