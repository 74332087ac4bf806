import { plainMessage } from '../../../shared/agent-messages';
import type { JobView } from '../../../shared/domain';
import { JobError, JOB_ERROR_CODES } from '../../ledger/errors';
import { toJobView, type JobRecord } from '../../ledger/job-record';
import type { Engine } from '../engine';

/*
 * Cancel: one job not yet handed over, or every job of a canceled shipment, withdrawing
 * from the spooler what it still holds.
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

export interface ShipmentCancelResult {
  readonly canceled: JobView[];
  readonly busy: JobView[];
  readonly atPrinter: JobView[];
  readonly withdrawn: Promise<WithdrawResult>;
}

/** Cancel a job not yet handed to the spooler. */
export function cancelJob(engine: Engine, jobId: string): JobView {
  const job = engine.mustGet(jobId);
  const entry = engine.entries.get(jobId);
  if (job.state === 'canceled') return toJobView(job);
  if (entry?.phase === 'spooling' || job.state === 'spooling') {
    throw new JobError(JOB_ERROR_CODES.BUSY, `Job ${jobId} is being sent to the printer right now; cancel it at the printer if needed.`, {
      jobId,
    });
  }
  if (job.state === 'spooled' || job.state === 'completed') {
    throw new JobError(JOB_ERROR_CODES.INVALID_STATE, `Job ${jobId} is already at the printer (${job.state}); cancel it at the printer.`, {
      jobId,
    });
  }
  if (entry) engine.runner.drop(entry);
  const canceled = engine.guard.write(jobId, 'canceled', { reason: plainMessage('job.canceledByHand'), nextAttemptAt: null });
  engine.schedulePump();
  return toJobView(canceled);
}

/**
 * The shipment is canceled: it is recorded, and every job of it not yet handed to a spooler
 * ends `canceled`, wherever it is; a spool that starts later checks the recorded cancel first
 * (cancel-check.ts). A job already at the spooler (`atPrinter`), or being handed over right
 * now (`busy`, once the hand-over is done), is withdrawn there if the spooler still holds it:
 * `withdrawn` settles with those, ended `canceled`, and those left at the printer. It never rejects.
 */
export function cancelShipment(
  engine: Engine,
  shipmentId: string,
  by: 'station' | 'service',
  requestId: string | null,
): ShipmentCancelResult {
  engine.ledger.recordCancel?.({ shipmentId, source: by, requestId });
  const result = { canceled: [] as JobView[], busy: [] as JobView[], atPrinter: [] as JobView[] };
  const spooled: JobRecord[] = [];
  const handing: JobRecord[] = [];
  const id = shipmentId.toLowerCase();
  for (const job of engine.ledger.open()) {
    if (job.shipmentId.toLowerCase() !== id) continue;
    const entry = engine.entries.get(job.id);
    if (job.state === 'spooled') {
      result.atPrinter.push(toJobView(job));
      spooled.push(job);
    } else if (entry?.phase === 'spooling' || job.state === 'spooling') {
      result.busy.push(toJobView(job));
      handing.push(job);
    } else {
      if (entry) engine.runner.drop(entry);
      result.canceled.push(toJobView(engine.writeCanceled(job.id, by, requestId)));
    }
  }
  engine.schedulePump();
  const withdrawn = afterHandover(engine, handing)
    .then((handed) => withdrawSpooled(engine, [...spooled, ...handed], by, requestId))
    .catch(() => ({ withdrawn: [], atPrinter: [...result.atPrinter, ...result.busy] }));
  return { ...result, withdrawn };
}

/**
 * Those of `jobs` that reached the spooler, once their hand-over is over (at most
 * HANDOVER_WAIT_MS): it waits on their lines' spooling promises, which settle when the
 * hand-over ends, instead of looking again and again.
 */
async function afterHandover(engine: Engine, jobs: readonly JobRecord[]): Promise<JobRecord[]> {
  const deadline = engine.nowMs() + HANDOVER_WAIT_MS;
  const handing = (job: JobRecord): boolean =>
    engine.entries.get(job.id)?.phase === 'spooling' || engine.ledger.get(job.id)?.state === 'spooling';
  for (;;) {
    const spooling = jobs.filter(handing).flatMap((job) => engine.lanes.get(job.target)?.spooling ?? []);
    const left = deadline - engine.nowMs();
    if (spooling.length === 0 || left <= 0 || engine.stopped) break;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, left)));
    await Promise.race([Promise.all(spooling), timeout]);
    clearTimeout(timer);
  }
  return jobs.flatMap((job) => {
    const now = engine.ledger.get(job.id);
    return now?.state === 'spooled' ? [now] : [];
  });
}

/**
 * Cancels at the spooler each of `jobs` it still holds, and records them canceled. Not a
 * spooler job that also holds labels of other shipments (a batch): those must print. A
 * spooler that cannot be asked leaves the job as it was (at the printer).
 */
async function withdrawSpooled(
  engine: Engine,
  jobs: readonly JobRecord[],
  by: 'station' | 'service',
  requestId: string | null,
): Promise<WithdrawResult> {
  const result: { withdrawn: JobView[]; atPrinter: JobView[] } = { withdrawn: [], atPrinter: [] };
  if (jobs.length === 0) return result;
  const open = engine.ledger.open();
  const ours = new Set(jobs.map((j) => j.id));
  for (const job of jobs) {
    const spoolerJobId = job.spoolerJobId;
    const target = spoolerJobId ? engine.printers.resolve(job.target) : null;
    const shared = open.some((other) => other.spoolerJobId === spoolerJobId && !ours.has(other.id));
    let withdrawn = false;
    if (spoolerJobId && target && !(target instanceof Error) && target.cancelJob && !shared && !engine.stopped) {
      withdrawn = await target.cancelJob(spoolerJobId).catch(() => false);
    }
    if (!withdrawn) {
      result.atPrinter.push(toJobView(job));
      continue;
    }
    engine.spooled.forget(job.id);
    let canceled: JobView = { ...toJobView(job), state: 'canceled' };
    // Out of the spooler now: recorded, or (the ledger cannot be written) as soon as it can be.
    engine.guard.orDefer(() => {
      canceled = toJobView(engine.writeCanceled(job.id, by, requestId));
    });
    result.withdrawn.push(canceled);
  }
  return result;
}
