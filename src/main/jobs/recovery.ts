import type { JobPatch, JobRecord } from './job-record';
import type { PipelineTarget } from './ports';

/*
 * Start-up reconciliation: what to do with each job a crash (or a stop) left unfinished.
 * A job that may have reached a spooler is looked up by title before it is ever sent
 * again; one on a target that cannot be looked up is never resent on a guess. Kept apart
 * from the queue because it runs once, before the queue starts, and holds the rules that
 * make "exactly once" survive a crash.
 */

/** What recovery needs from the pipeline. */
export interface RecoveryHost {
  readonly write: (id: string, state: JobRecord['state'], patch: JobPatch) => JobRecord;
  /** Put a job in its line. */
  readonly enqueue: (job: JobRecord) => void;
  readonly resolveTarget: (uri: string) => PipelineTarget | Error;
  /** Record a handover found at the spooler (spooled, then completed or followed). */
  readonly onSpooled: (jobId: string, targetUri: string, spoolerJobId: string | null, completed: boolean, recovered?: boolean) => void;
  /** Follow a job the spooler already has. */
  readonly follow: (jobId: string, targetUri: string, spoolerJobId: string) => void;
}

/** Wait until an lp left running by a crashed run has had time to reach the spooler. */
export async function settleAfterCrash(open: readonly JobRecord[], settleMs: number, nowMs: () => number): Promise<void> {
  let latest = 0;
  for (const job of open) {
    if ((job.state === 'spooling' || job.state === 'spooled') && !job.spoolerJobId) latest = Math.max(latest, Date.parse(job.updatedAt) || 0);
  }
  const wait = latest + settleMs - nowMs();
  if (latest > 0 && wait > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(wait, settleMs)));
}

/** Bring one unfinished job back: in line, followed, or ended. */
export async function resumeJob(job: JobRecord, host: RecoveryHost): Promise<void> {
  switch (job.state) {
    case 'queued':
      if (!job.held) host.enqueue(job);
      return;
    case 'fetching':
      // Nothing was sent to a spooler yet.
      host.enqueue(host.write(job.id, 'queued', {}));
      return;
    case 'spooling':
    case 'spooled': {
      if (job.spoolerJobId) {
        // lp answered before the crash: the job reached the spooler whole; just follow it.
        if (job.state === 'spooled') host.follow(job.id, job.target, job.spoolerJobId);
        else host.onSpooled(job.id, job.target, job.spoolerJobId, false);
        return;
      }
      const target = host.resolveTarget(job.target);
      if (target instanceof Error) {
        host.enqueue(job);
        return;
      }
      if (target.reconcilable === false) {
        resumeUnreconcilable(job, host);
        return;
      }
      let found: Awaited<ReturnType<PipelineTarget['findSpooled']>>;
      try {
        found = await target.findSpooled(job.id);
      } catch {
        // The spooler cannot be asked now: queue it, still marked uncertain, so the
        // lookup is repeated before anything is sent.
        host.enqueue(host.write(job.id, 'queued', {}));
        return;
      }
      if (found && found.state !== 'aborted' && found.state !== 'canceled') {
        host.onSpooled(job.id, job.target, found.spoolerJobId, found.state === 'completed', true);
      } else {
        const queued = host.write(job.id, 'queued', { spoolAttempted: false });
        host.enqueue(queued);
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
function resumeUnreconcilable(job: JobRecord, host: RecoveryHost): void {
  if (job.state === 'spooled') {
    host.write(job.id, 'completed', { reason: 'handed to the printer before the restart; it cannot be followed further' });
  } else if (job.spoolAttempted) {
    host.write(job.id, 'failed', {
      reason: 'the agent stopped while sending this job: it may have printed: check the printer, then retry by hand',
      nextAttemptAt: null,
    });
  } else {
    // `spooling` without spool_attempted: only the lookup ran, nothing was sent.
    host.enqueue(host.write(job.id, 'queued', {}));
  }
}
