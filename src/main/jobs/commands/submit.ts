import type { JobView } from '../../../shared/domain';
import { JobError, JOB_ERROR_CODES } from '../../ledger/errors';
import { toJobView } from '../../ledger/job-record';
import type { Engine } from '../engine';
import type { ReprintRequest } from '../pipeline-options';
import type { BookingToPrint } from '../ports';

/*
 * New work: a booking's automatic jobs, a reprint, a failed job tried again. The row is
 * written first (`queued`); the job joins its line once it is recorded.
 */

/**
 * One automatic job per auto-print document type (or per type in `documentTypes`: the
 * end-of-day manifest), idempotent per shipment and type.
 */
export function submitBooking(engine: Engine, notice: BookingToPrint, documentTypes: readonly string[]): JobView[] {
  const { ledger, settings } = engine;
  // A booking notice that arrives after its cancel (webhooks come out of order; End of day's
  // "print what is missing") prints nothing: the shipment is void.
  if (ledger.cancelOf?.(notice.shipmentId)) return [];
  const copies = settings.copies();
  const jobs: JobView[] = [];
  for (const documentType of documentTypes) {
    const route = engine.options.route(documentType, notice.carrier ?? null);
    const { job, created } = ledger.createAutoJob({
      shipmentId: notice.shipmentId,
      reference: notice.referenceId,
      trackingId: notice.trackingId,
      documentType,
      layout: route.layout,
      target: route.target,
      copies,
      trigger: notice.trigger,
      bookedAt: notice.bookedAt,
      held: engine.autoPaused,
      siteDecision: notice.siteDecision ?? null,
    });
    if (created) {
      const begin = (): void => {
        // Recorded: a ledger the lines are parked on takes writes again, so they go on now.
        engine.guard.wroteElsewhere();
        engine.emit(job);
        if (!job.held) engine.enqueue(job);
      };
      if (engine.afterCommit) engine.afterCommit.push(begin);
      else begin();
    }
    jobs.push(toJobView(job));
  }
  return jobs;
}

/**
 * Runs `fn` in one ledger transaction; the jobs it creates are told and queued once it
 * commits; if `fn` throws, none of them starts. Nested calls join the outer one.
 */
export function together<T>(engine: Engine, fn: () => T): T {
  if (engine.afterCommit) return fn();
  const after: (() => void)[] = [];
  engine.afterCommit = after;
  let result: T;
  try {
    result = engine.inTransaction(fn);
  } finally {
    engine.afterCommit = null;
  }
  for (const begin of after) begin();
  return result;
}

/** Always a new job, never deduplicated against automatic prints. */
export function reprint(engine: Engine, request: ReprintRequest): JobView[] {
  const documentType = request.documentType ?? 'label';
  const seen = engine.ledger.getShipment(request.shipmentId);
  const route = engine.options.route(documentType, seen?.carrier ?? null);
  const job = engine.ledger.createJob({
    shipmentId: request.shipmentId,
    reference: request.reference !== undefined ? request.reference : (seen?.referenceId ?? null),
    trackingId: request.trackingId !== undefined ? request.trackingId : (seen?.trackingId ?? null),
    documentType,
    layout: request.layout ?? route.layout,
    target: request.printer ?? route.target,
    copies: request.copies ?? engine.settings.copies(),
    trigger: request.trigger ?? 'reprint',
  });
  engine.emit(job);
  engine.enqueue(job);
  return [toJobView(job)];
}

/** A failed or canceled job goes back in line (same row; attempts keep counting). */
export function retry(engine: Engine, jobId: string): JobView {
  const job = engine.mustGet(jobId);
  if (job.state !== 'failed' && job.state !== 'canceled') {
    throw new JobError(
      JOB_ERROR_CODES.INVALID_STATE,
      `Job ${jobId} is ${job.state}; only failed or canceled jobs can be retried. Use reprint for another copy.`,
      { jobId },
    );
  }
  // The old spooler id goes: findSpooled (spoolAttempted) will tell an aborted copy,
  // which may be sent again, from one that is still at the spooler.
  const queued = engine.guard.write(jobId, 'queued', {
    reason: null,
    requestId: null,
    nextAttemptAt: null,
    held: false,
    spoolerJobId: null,
  });
  engine.enqueue(queued);
  return toJobView(queued);
}
