import { agentMessage, plainMessage, textMessage } from '../../shared/agent-messages';
import type { PipelineContext } from './pipeline-context';
import { SpoolerFollower, type FollowOutcome, type FollowedJob } from './spooler-follower';

/*
 * What happens once a spooler has a job: the handover is recorded (`spooled`, or at once
 * `completed` for targets that finish on hand-over), then the job is followed until the
 * spooler says how it ended, and that end is recorded. Kept apart from the queue: a
 * spooled job has left its line, and start-up recovery records handovers the same way.
 */

export class SpooledJobs {
  private readonly follower: SpoolerFollower;
  /** Jobs found at the spooler by start-up reconciliation, still followed. */
  private readonly recovered = new Set<string>();

  /** Settings followSpooler (poll target.jobState until the spooler says how it ended) and followIntervalMs. */
  constructor(private readonly context: Pick<PipelineContext, 'settings' | 'queue' | 'guard' | 'printers'>) {
    this.follower = new SpoolerFollower({
      intervalMs: context.settings.followIntervalMs,
      onOutcome: (job, outcome) => this.onFollowOutcome(job, outcome, this.recovered.delete(job.jobId)),
      onOutcomes: (outcomes) => this.onFollowOutcomes(outcomes),
      onNote: (job, note) => this.onNote(job, note),
    });
  }

  /** The handover happened: record it now, or as soon as the ledger can be written. */
  record(
    jobId: string,
    targetUri: string,
    spoolerJobId: string | null,
    completed: boolean,
    recovered = false,
    note: string | null = null,
  ): void {
    this.context.guard.orDefer(() => this.onSpooled(jobId, targetUri, spoolerJobId, completed, recovered, note));
  }

  /**
   * record() for the members of a batch, one spooler job, and `also` (the batch row), in
   * one commit; kept and replayed as a whole if the ledger cannot take it.
   */
  recordAll(
    jobs: ReadonlyArray<{ readonly jobId: string; readonly targetUri: string }>,
    spoolerJobId: string | null,
    completed: boolean,
    also: () => void,
    note: string | null = null,
  ): void {
    this.context.guard.orDeferTogether(() => {
      also();
      for (const job of jobs) this.onSpooled(job.jobId, job.targetUri, spoolerJobId, completed, false, note);
    });
  }

  /**
   * Record the handover; finish at once (folder, service, windows) or follow the spooler.
   * `note`: words kept on a job the printer cannot confirm (it stays `spooled`).
   */
  onSpooled(
    jobId: string,
    targetUri: string,
    spoolerJobId: string | null,
    completed: boolean,
    recovered = false,
    note: string | null = null,
  ): void {
    const patch = { spoolerJobId, reason: note ? textMessage(note) : null, requestId: null, nextAttemptAt: null };
    this.context.guard.write(jobId, 'spooled', patch);
    if (completed) this.context.guard.write(jobId, 'completed', {});
    else if (spoolerJobId) this.follow(jobId, targetUri, spoolerJobId, recovered);
  }

  follow(jobId: string, targetUri: string, spoolerJobId: string, recovered = false): void {
    if (!this.context.settings.followSpooler || this.context.queue.isStopped()) return;
    const target = this.context.printers.resolve(targetUri);
    if (target instanceof Error) return;
    if (recovered) this.recovered.add(jobId);
    this.follower.follow({ jobId, spoolerJobId, target });
  }

  /** A job withdrawn from the spooler (its shipment was canceled): no longer followed, its end recorded by the caller. */
  forget(jobId: string): void {
    this.follower.forget(jobId);
    this.recovered.delete(jobId);
  }

  /** Stop following; waits for a poll of the spooler in progress. */
  stop(): Promise<void> {
    return this.follower.stop();
  }

  /**
   * A job at the spooler held up by its printer (cannot be reached…) says so on its row,
   * still `spooled`: it waits visibly, and prints when the printer is back.
   */
  private onNote(job: FollowedJob, note: string | null): void {
    if (this.context.queue.isStopped()) return;
    const reason = note ? agentMessage('job.waitingAtPrinter', { words: note }) : null;
    try {
      this.context.guard.orDefer(() => {
        if (this.context.guard.read(job.jobId)?.state === 'spooled') this.context.guard.write(job.jobId, 'spooled', { reason });
      });
    } catch (error) {
      this.context.guard.workFailed(error);
    }
  }

  private onFollowOutcome(job: FollowedJob, outcome: FollowOutcome, recovered: boolean): void {
    if (this.context.queue.isStopped()) return;
    // Runs inside the follower's tick: a ledger that cannot be written must not throw there.
    try {
      this.context.guard.orDefer(() => this.recordOutcome(job, outcome, recovered));
    } catch (error) {
      this.context.guard.workFailed(error);
    }
  }

  /** Outcomes settled by one answer of the spooler (a batch's members): recorded in one commit. */
  private onFollowOutcomes(outcomes: ReadonlyArray<{ readonly job: FollowedJob; readonly outcome: FollowOutcome }>): void {
    if (this.context.queue.isStopped()) return;
    const settled = outcomes.map(({ job, outcome }) => ({ job, outcome, recovered: this.recovered.delete(job.jobId) }));
    try {
      this.context.guard.orDeferTogether(() => {
        for (const { job, outcome, recovered } of settled) this.recordOutcome(job, outcome, recovered);
      });
    } catch (error) {
      this.context.guard.workFailed(error);
    }
  }

  private recordOutcome(job: FollowedJob, outcome: FollowOutcome, recovered: boolean): void {
    const guard = this.context.guard;
    if (recovered && (outcome === 'aborted' || outcome === 'canceled')) {
      // A job found at the spooler after a crash that then ends canceled or aborted was
      // most likely cut off by the crash itself (lp killed mid-job): send it again once.
      const queued = guard.write(job.jobId, 'queued', {
        reason: agentMessage('job.resentAfterRestart', { outcome, spoolerJobId: job.spoolerJobId }),
        spoolerJobId: null,
        spoolAttempted: false,
      });
      // Back in line: one found cut off by a crash is sent again once.
      this.context.queue.enqueue(queued);
      return;
    }
    switch (outcome) {
      case 'completed':
        // A note that it waited at the printer (onNote) is over.
        guard.write(job.jobId, 'completed', { reason: null });
        return;
      case 'vanished':
        // CUPS drops finished jobs from its list when history is off: gone without an abort.
        guard.write(job.jobId, 'completed', { reason: plainMessage('job.assumedPrinted') });
        return;
      case 'lost':
        // Neither printed nor not: the printer forgot the job mid-print. A person checks.
        guard.write(job.jobId, 'failed', {
          reason: agentMessage('job.mayHavePrinted', { cause: agentMessage('job.lostAtPrinter', { spoolerJobId: job.spoolerJobId }) }),
        });
        return;
      case 'aborted': {
        // The printer's own words when it gave them ("Printer cannot print with supplied options").
        const words = job.target.jobMessage?.(job.spoolerJobId) ?? null;
        const reason = words
          ? agentMessage('job.refusedByPrinter', { spoolerJobId: job.spoolerJobId, words })
          : agentMessage('job.abortedAtPrinter', { spoolerJobId: job.spoolerJobId });
        guard.write(job.jobId, 'failed', { reason });
        return;
      }
      case 'canceled':
        guard.write(job.jobId, 'canceled', { reason: agentMessage('job.canceledAtPrinter', { spoolerJobId: job.spoolerJobId }) });
        return;
    }
  }
}
