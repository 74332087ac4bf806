import { plainMessage } from '../../../shared/agent-messages';
import type { JobRecord } from '../../ledger/job-record';
import type { PipelineContext } from '../pipeline-context';
import type { PipelineTarget } from '../ports';
import type { SpooledJobs } from '../spooled-jobs';

/*
 * Start-up reconciliation: what to do with each job a crash (or a stop) left unfinished.
 * A job that may have reached a spooler is looked up by title before it is ever sent
 * again; one on a target that cannot be looked up is never resent on a guess. Kept apart
 * from the queue because it runs once, before the queue starts, and holds the rules that
 * make "exactly once" survive a crash.
 */

/** What recovery needs from the pipeline: its queue, its ledger writes, its printers, its spooled jobs. */
export interface RecoveryContext extends Pick<PipelineContext, 'queue' | 'guard' | 'printers'> {
  /** Records a handover found at the spooler (spooled, then completed or followed), or follows one. */
  readonly spooled: Pick<SpooledJobs, 'onSpooled' | 'follow'>;
}

/** Wait until an lp left running by a crashed run has had time to reach the spooler. */
export async function settleAfterCrash(open: readonly JobRecord[], settleMs: number, nowMs: () => number): Promise<void> {
  let latest = 0;
  for (const job of open) {
    if ((job.state === 'spooling' || job.state === 'spooled') && !job.spoolerJobId)
      latest = Math.max(latest, Date.parse(job.updatedAt) || 0);
  }
  const wait = latest + settleMs - nowMs();
  if (latest > 0 && wait > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(wait, settleMs)));
}

/** Bring one unfinished job back: in line, followed, or ended. */
export async function resumeJob(job: JobRecord, context: RecoveryContext): Promise<void> {
  switch (job.state) {
    case 'queued':
      if (!job.held) context.queue.enqueue(job);
      return;
    case 'fetching':
      // Nothing was sent to a spooler yet.
      context.queue.enqueue(context.guard.write(job.id, 'queued', {}));
      return;
    case 'spooling':
    case 'spooled': {
      if (job.spoolerJobId) {
        // lp answered before the crash: the job reached the spooler whole; just follow it.
        if (job.state === 'spooled') context.spooled.follow(job.id, job.target, job.spoolerJobId);
        else context.spooled.onSpooled(job.id, job.target, job.spoolerJobId, false);
        return;
      }
      const target = context.printers.resolve(job.target);
      if (target instanceof Error) {
        context.queue.enqueue(job);
        return;
      }
      if (target.reconcilable === false) {
        resumeUnreconcilable(job, context);
        return;
      }
      let found: Awaited<ReturnType<PipelineTarget['findSpooled']>>;
      try {
        // A member of a batch is at the spooler under the batch id (batching.ts).
        found = await target.findSpooled(job.batchId ?? job.id);
      } catch {
        // The spooler cannot be asked now: queue it, still marked uncertain, so the
        // lookup is repeated before anything is sent.
        context.queue.enqueue(context.guard.write(job.id, 'queued', {}));
        return;
      }
      if (found && found.state !== 'aborted' && found.state !== 'canceled') {
        context.spooled.onSpooled(job.id, job.target, found.spoolerJobId, found.state === 'completed', true);
      } else {
        const queued = context.guard.write(job.id, 'queued', { spoolAttempted: false });
        context.queue.enqueue(queued);
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
function resumeUnreconcilable(job: JobRecord, context: RecoveryContext): void {
  if (job.state === 'spooled') {
    context.guard.write(job.id, 'completed', { reason: plainMessage('job.handedBeforeRestart') });
  } else if (job.spoolAttempted) {
    context.guard.write(job.id, 'failed', {
      reason: plainMessage('job.stoppedWhileSending'),
      nextAttemptAt: null,
    });
  } else {
    // `spooling` without spool_attempted: only the lookup ran, nothing was sent.
    context.queue.enqueue(context.guard.write(job.id, 'queued', {}));
  }
}
