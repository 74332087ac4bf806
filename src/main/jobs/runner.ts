import { agentMessage, englishOf } from '../../shared/agent-messages';
import { JobError, JOB_ERROR_CODES } from '../ledger/errors';
import { isLedgerFailure, type LedgerGuard } from '../ledger/ledger-guard';
import type { Batching } from './batching';
import { messageOf } from './failure';
import type { JobFailures } from './job-failures';
import type { JobSteps } from './job-steps';
import type { Batch, Entry, Lane, PrinterDown } from './lane';
import type { StepOutcome } from './outcomes';
import type { JobQueue } from './pipeline-context';
import type { PipelineSettings } from './pipeline-options';
import type { PipelineObserver, PipelineTarget } from './ports';
import type { SpooledJobs } from './spooled-jobs';

/** What the runner reads of the engine and the parts it starts. */
export interface RunnerParts {
  readonly settings: PipelineSettings;
  readonly queue: JobQueue;
  readonly guard: LedgerGuard;
  readonly lanes: ReadonlyMap<string, Lane>;
  readonly observer: PipelineObserver;
  readonly steps: JobSteps;
  readonly batching: Batching;
  readonly failures: JobFailures;
  readonly spooled: SpooledJobs;
  /** The scheduler's wake timer, armed again after a line was parked. */
  rearm(): void;
}

/**
 * Starts what the scheduler planned (scheduler.ts) and settles what each step says happened
 * (outcomes.ts). The only writer of a job's phase and of a line's state outside the engine's
 * construction: a step decides, `settle(outcome)` acts, so a step that failed cannot leave a
 * job half moved, and a job the scheduler picked is not in `waiting` again before its outcome
 * is settled.
 */
export class Runner {
  private fetches = 0;

  constructor(private readonly parts: RunnerParts) {}

  /** Single fetches in progress (bounded, with the batches', by fetchConcurrency). */
  get activeFetches(): number {
    return this.fetches;
  }

  /**
   * Starts the fetch of one job. False when it could not get under way (its try could not be
   * written): its outcome is settled already and the turn fetches nothing more.
   */
  fetch(lane: Lane, entry: Entry): boolean {
    const { steps, queue } = this.parts;
    entry.phase = 'fetching';
    const token = entry.token;
    const early = steps.beginFetch(entry);
    if (early) {
      this.settle(early, lane, entry);
      return false;
    }
    this.fetches += 1;
    void steps
      .fetch(entry, token)
      .then((outcome) => {
        // Canceled, held, moved or stopped meanwhile: what the fetch says no longer applies.
        const owned = !queue.disowned(entry, token) || outcome.kind === 'fault' || outcome.kind === 'ledgerDown';
        if (owned) this.settle(outcome, lane, entry);
      })
      .catch((error: unknown) => this.stepFailed(lane, error))
      .finally(() => {
        this.fetches -= 1;
        queue.schedulePump();
      });
    return true;
  }

  /** Starts the fetch of a batch; false when the ledger refused its claim (batching.ts). */
  fetchBatch(lane: Lane, members: readonly Entry[]): boolean {
    const fetching = this.parts.batching.fetch(members);
    if (!fetching) return false;
    void fetching.catch((error: unknown) => this.stepFailed(lane, error));
    return true;
  }

  /** Hands the head of a line to its spooler. */
  spool(lane: Lane, entry: Entry, target: PipelineTarget): void {
    entry.phase = 'spooling';
    this.run(lane, 'spooling', async () => this.settle(await this.parts.steps.spool(entry, target), lane, entry));
  }

  /** Hands a whole batch, first in its line, to its spooler. */
  spoolBatch(lane: Lane, batch: Batch, target: PipelineTarget): void {
    for (const m of batch.members) m.phase = 'spooling';
    this.run(lane, 'spooling', () => this.parts.batching.spool(lane, batch, target));
  }

  /** Asks a printer that is down whether it is back. */
  probe(lane: Lane, target: PipelineTarget): void {
    this.run(lane, 'probing', async () => this.settle(await this.parts.steps.probe(lane, target), lane));
  }

  /** The head's printer cannot be set up at all: the job fails for a person. */
  noTarget(lane: Lane, entry: Entry, error: Error): void {
    this.settle(this.parts.failures.noTarget(entry, error), lane, entry);
  }

  /**
   * Acts on what a step said: the one place a job's phase, its line's state and its ledger
   * row change after a step. `entry` is the job the step had (none for a probe). A write the
   * ledger cannot take here throws to the step's runner, which parks the lines (stepFailed).
   */
  settle(outcome: StepOutcome, lane: Lane, entry?: Entry): void {
    this.apply(outcome, lane, entry);
  }

  /**
   * The one path every failed step takes (fetch, spool, probe, a batch's, the turn's own),
   * whatever threw. A ledger that cannot be written parks every line at once (the guard:
   * told once, retried with backoff, the lines run again by themselves); anything else parks
   * the step's line as if its printer were down (its readiness probe, with backoff, decides
   * when it moves again) instead of escaping as an unhandled rejection.
   */
  stepFailed(lane: Lane | null, error: unknown): void {
    const { guard, lanes, settings, observer, queue } = this.parts;
    if (isLedgerFailure(error)) {
      guard.workFailed(error);
      return;
    }
    const message = messageOf(error);
    const parked = lane ? [lane] : [...lanes.values()];
    // Told once a streak: a line that hands a job over again starts a new one (handedOver).
    const first = parked.some((l) => l.faults === 0);
    for (const l of parked) l.markFault(message, queue.nowMs(), settings.retryBaseMs, settings.retryMaxMs);
    if (first) {
      const text = `Printing stopped on an unexpected error (${englishOf(message)}); it tries again by itself. Report this if it repeats.`;
      observer.onError(new JobError(JOB_ERROR_CODES.STEP_FAILED, text, { cause: error }));
    }
    // No turn now: the probe's timer moves the line again, after the backoff.
    this.parts.rearm();
  }

  /** Starts a step on a line; its failure goes to stepFailed, its end runs a turn. */
  private run(lane: Lane, slot: 'spooling' | 'probing', step: () => Promise<void>): void {
    lane[slot] = step()
      .catch((error: unknown) => this.stepFailed(lane, error))
      .finally(() => {
        lane[slot] = null;
        this.parts.queue.schedulePump();
      });
  }

  private apply(outcome: StepOutcome, lane: Lane, entry: Entry | undefined): void {
    const { queue, guard, settings, spooled } = this.parts;
    switch (outcome.kind) {
      case 'printerUp':
        lane.down = null;
        return;
      case 'printerDown': {
        if (entry) {
          // The job keeps its place at the head, its PDF and its try (the try is not over
          // until the printer has had the job).
          backInLine(entry);
          entry.notBefore = 0;
        }
        const down = lane.markDown(outcome.advice, queue.nowMs(), settings.retryBaseMs, settings.retryMaxMs);
        const shown = entry ?? lane.head;
        if (shown) this.showWait(shown, down);
        return;
      }
      case 'fault':
        if (entry) backInLine(entry);
        this.stepFailed(lane, outcome.error);
        return;
      case 'ledgerDown':
        if (entry) backInLine(entry);
        this.stepFailed(lane, outcome.error);
        return;
      case 'stopped':
        // Nothing was sent (a probe has no job): the job waits in its line for the next start.
        if (entry) backInLine(entry);
        return;
      case 'disowned':
        return;
    }
    if (!entry) throw new TypeError(`a ${outcome.kind} outcome without its job`);
    switch (outcome.kind) {
      case 'fetched':
        entry.pdf = outcome.pdf;
        entry.phase = 'ready';
        entry.checkedAt = outcome.at;
        return;
      case 'handedOver':
        lane.remove(entry);
        queue.handedOver(entry);
        if (outcome.found) {
          spooled.record(entry.id, entry.target, outcome.spoolerJobId, outcome.completed);
        } else {
          entry.pdf = null;
          spooled.record(entry.id, entry.target, outcome.spoolerJobId, outcome.completed, false, outcome.note);
        }
        return;
      case 'retryAt': {
        entry.tryCounted = false;
        const { reason, requestId } = outcome;
        if (outcome.at === null) {
          queue.drop(entry);
          guard.orDefer(() => guard.write(entry.id, 'queued', { reason, requestId, held: true, nextAttemptAt: null }));
          return;
        }
        entry.notBefore = outcome.at;
        backInLine(entry);
        // If this write fails the row keeps its last state (spool_attempted included), which
        // is as safe: the job stays in line and is looked up before any resend.
        guard.write(entry.id, 'queued', { reason, requestId, nextAttemptAt: new Date(outcome.at).toISOString() });
        return;
      }
      case 'failed': {
        entry.tryCounted = false;
        queue.drop(entry);
        const { reason, requestId } = outcome;
        guard.orDefer(() => guard.write(entry.id, 'failed', { reason, requestId, nextAttemptAt: null }));
        return;
      }
      case 'canceled': {
        if (outcome.by) {
          queue.shipmentCanceled([entry], outcome.by, outcome.requestId);
          return;
        }
        queue.drop(entry);
        const patch = { reason: outcome.reason, requestId: outcome.requestId, nextAttemptAt: null };
        guard.orDefer(() => guard.write(entry.id, 'canceled', patch));
        return;
      }
    }
  }

  /** The job at the head of a line that waits on its printer says why, and when it is looked at again. */
  private showWait(entry: Entry, down: PrinterDown): void {
    const delayMs = Math.max(0, down.nextProbeAt - this.parts.queue.nowMs());
    // Informational: if the ledger cannot take it, the job still waits in its line.
    this.parts.guard.tryWrite(entry.id, 'queued', {
      reason: agentMessage('job.waitingForPrinter', { advice: down.message, delayMs }),
      requestId: null,
      nextAttemptAt: new Date(down.nextProbeAt).toISOString(),
    });
  }
}

/** Back to waiting for its next step: ready to spool with its PDF in memory, else to fetch. */
function backInLine(entry: Entry): void {
  entry.phase = entry.pdf ? 'ready' : 'waiting';
}
