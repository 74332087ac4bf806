import { agentMessage, englishOf, type AgentMessage } from '../../shared/agent-messages';
import type { JobRecord } from '../ledger/job-record';
import { JobError, JOB_ERROR_CODES } from '../ledger/errors';
import { isLedgerFailure, type LedgerGuard } from '../ledger/ledger-guard';
import type { Batching } from './batching';
import { messageOf } from './failure';
import type { JobFailures } from './job-failures';
import { failedStep, type JobSteps } from './job-steps';
import { Lane, type Batch, type Entry, type PrinterDown } from './lane';
import type { BatchOutcome, StepOutcome } from './outcomes';
import type { JobQueue } from './pipeline-context';
import type { PipelineSettings } from './pipeline-options';
import type { CancelStore, PipelineObserver, PipelineTarget } from './ports';
import type { SpooledJobs } from './spooled-jobs';

/** What the runner reads of the engine and the parts it starts. */
export interface RunnerParts {
  readonly settings: PipelineSettings;
  readonly queue: JobQueue;
  readonly guard: LedgerGuard;
  /** The engine's lines and the jobs in them: the runner alone changes them. */
  readonly lanes: Map<string, Lane>;
  readonly entries: Map<string, Entry>;
  /** Where a cancel the service told of is recorded. */
  readonly cancels: CancelStore;
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
 * (outcomes.ts). The only writer of a job's phase and of a line's state (its jobs, `down`,
 * `faults`, the `spooling` and `probing` slots): a step decides, `settle(outcome)` acts, so a
 * step that failed cannot leave a job half moved, and a job the scheduler picked is not in
 * `waiting` again before its outcome is settled. The commands (commands/) put jobs in and take
 * them out of their lines through it as well (`admit`, `drop`, `leaveAll`).
 */
export class Runner {
  private fetches = 0;
  private batchFetches = 0;

  constructor(private readonly parts: RunnerParts) {}

  /** Fetches in progress, single and batches' (bounded by fetchConcurrency). */
  get activeFetches(): number {
    return this.fetches + this.batchFetches;
  }

  /** A job joins its target's line (made on first use), in booking order. */
  admit(entry: Entry): void {
    const { lanes, entries } = this.parts;
    entries.set(entry.id, entry);
    let lane = lanes.get(entry.target);
    if (!lane) {
      lane = new Lane(entry.target);
      lanes.set(entry.target, lane);
    }
    lane.insert(entry);
  }

  /** A job leaves its line and the queue; work in progress on it is disowned. */
  drop(entry: Entry): void {
    entry.token += 1;
    entry.pdf = null;
    this.parts.lanes.get(entry.target)?.remove(entry);
    this.parts.entries.delete(entry.id);
  }

  /**
   * The engine stops: every job leaves its line, and steps still running on one are disowned.
   * A fetched PDF is only in memory: the row goes back to queued, nothing was sent. If the
   * ledger cannot take it, the row stays `fetching`, which start() requeues.
   */
  leaveAll(): void {
    const { entries, lanes, guard } = this.parts;
    for (const entry of entries.values()) {
      entry.token += 1;
      if (entry.phase === 'fetching' || entry.phase === 'ready') guard.tryWrite(entry.id, 'queued', {});
    }
    entries.clear();
    lanes.clear();
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
    void guarded(() => steps.fetch(entry, token), failedStep)
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

  /**
   * Starts the fetch of a batch; false when the ledger refused its claim (batching.ts). Up to
   * the fetch request it runs synchronously, so the scheduler sees the members `fetching` at once.
   */
  fetchBatch(lane: Lane, members: readonly Entry[]): boolean {
    const { batching, queue } = this.parts;
    const batch = batching.claim(members);
    if (!batch) return false;
    const tokens = members.map((m) => m.token);
    for (const m of members) {
      m.batch = batch;
      m.batchId = batch.id;
      m.phase = 'fetching';
    }
    this.batchFetches += 1;
    void guarded(() => batching.fetch(batch, tokens), failedStep)
      .then((outcome) => this.settleBatch(outcome, lane, batch))
      .catch((error: unknown) => this.stepFailed(lane, error))
      .finally(() => {
        this.batchFetches -= 1;
        queue.schedulePump();
      });
    return true;
  }

  /** Hands the head of a line to its spooler. */
  spool(lane: Lane, entry: Entry, target: PipelineTarget): void {
    entry.phase = 'spooling';
    this.run(lane, 'spooling', async () =>
      this.settle(await guarded(() => this.parts.steps.spool(entry, target), failedStep), lane, entry),
    );
  }

  /** Hands a whole batch, first in its line, to its spooler. */
  spoolBatch(lane: Lane, batch: Batch, target: PipelineTarget): void {
    for (const m of batch.members) m.phase = 'spooling';
    this.run(lane, 'spooling', async () =>
      this.settleBatch(await guarded(() => this.parts.batching.spool(batch, target), failedStep), lane, batch),
    );
  }

  /** Asks a printer that is down whether it is back. */
  probe(lane: Lane, target: PipelineTarget): void {
    this.run(lane, 'probing', async () => this.settle(await guarded(() => this.parts.steps.probe(lane, target), failedStep), lane));
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

  /** Acts on what a batch's step said (batching.ts): for every member alike, or for each. */
  settleBatch(outcome: BatchOutcome, lane: Lane, batch: Batch): void {
    const { members } = batch;
    switch (outcome.kind) {
      case 'fetched':
        batch.pdf = outcome.pdf;
        for (const m of members) {
          m.phase = 'ready';
          m.checkedAt = outcome.at;
        }
        return;
      case 'handedOver':
        for (const m of members) {
          this.leaveOnHandover(lane, m);
          m.pdf = null;
        }
        batch.pdf = null;
        this.parts.batching.recordHandover(batch, outcome.spoolerJobId, outcome.completed, outcome.note);
        return;
      case 'released':
        for (const { entry, outcome: own } of outcome.settled) this.settle(own, lane, entry);
        this.release(batch, outcome.members, outcome.alone);
        return;
      case 'dissolved':
        for (const m of members) {
          m.batch = null;
          m.alone = true;
          m.phase = 'waiting';
        }
        this.parts.batching.recordState(batch.id, 'dissolved');
        for (const { entry, outcome: own } of outcome.outcomes) this.settle(own, lane, entry);
        return;
      case 'printerDown': {
        // The batch keeps its place, its PDF (the batch's) and its tries; the line waits on the printer.
        for (const m of members) m.phase = 'ready';
        const first = members[0]!;
        first.notBefore = 0;
        this.showWait(first, this.markDown(lane, outcome.advice));
        return;
      }
      case 'stopped':
        for (const m of members) m.phase = 'ready';
        return;
      case 'ledgerDown':
      case 'fault':
        // Back in line as they were: ready with the batch's PDF, else out of the batch to be fetched again.
        if (batch.pdf) for (const m of members) m.phase = 'ready';
        else
          this.release(
            batch,
            members.filter((m) => m.batch === batch && this.parts.entries.get(m.id) === m),
          );
        this.stepFailed(lane, outcome.error);
        return;
      case 'disowned':
        return;
    }
  }

  /**
   * The members of a batch that lost its place (batching.readyToSpool) or was not sent leave it
   * and wait to be fetched again; `alone`: each on its own from now on.
   */
  release(batch: Batch, members: readonly Entry[], alone = false): void {
    for (const m of members) {
      m.batch = null;
      m.batchId = null;
      m.pdf = null;
      m.phase = 'waiting';
      if (alone) m.alone = true;
    }
    this.parts.batching.recordRelease(batch, members);
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
      .finally(() => this.stepEnded(lane, slot));
  }

  /** A line's step ended: its slot is free, and a turn runs. */
  private stepEnded(lane: Lane, slot: 'spooling' | 'probing'): void {
    lane[slot] = null;
    this.parts.queue.schedulePump();
  }

  private apply(outcome: StepOutcome, lane: Lane, entry: Entry | undefined): void {
    const { guard, spooled } = this.parts;
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
        const down = this.markDown(lane, outcome.advice);
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
        this.leaveOnHandover(lane, entry);
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
          this.drop(entry);
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
        this.drop(entry);
        const { reason, requestId } = outcome;
        guard.orDefer(() => guard.write(entry.id, 'failed', { reason, requestId, nextAttemptAt: null }));
        return;
      }
      case 'canceled': {
        if (outcome.by) {
          // Found canceled just before its hand-over (cancel-check.ts): the cancel is recorded.
          const { by, requestId } = outcome;
          this.drop(entry);
          writeCanceled(guard, entry.id, by, requestId);
          if (by === 'service') this.parts.cancels.recordCancel?.({ shipmentId: entry.shipmentId, source: by, requestId });
          this.parts.queue.schedulePump();
          return;
        }
        this.drop(entry);
        const patch = { reason: outcome.reason, requestId: outcome.requestId, nextAttemptAt: null };
        guard.orDefer(() => guard.write(entry.id, 'canceled', patch));
        return;
      }
    }
  }

  /** The printer was found down (again): the line waits on a probe, after a backoff. */
  private markDown(lane: Lane, advice: AgentMessage): PrinterDown {
    const { queue, settings } = this.parts;
    return lane.markDown(advice, queue.nowMs(), settings.retryBaseMs, settings.retryMaxMs);
  }

  /** The job reached its spooler: it leaves its line and the queue, and the line's fault streak ends. */
  private leaveOnHandover(lane: Lane, entry: Entry): void {
    lane.remove(entry);
    this.parts.entries.delete(entry.id);
    lane.faults = 0;
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

/**
 * A step's outcome, whatever it does: a step that throws after all (a bug; synchronously or
 * not) says `fault` (or `ledgerDown`), so its job goes back in line and its line is parked
 * instead of the job being left mid-step.
 */
async function guarded<T>(step: () => Promise<T>, failed: (error: unknown) => T): Promise<T> {
  try {
    return await step();
  } catch (error) {
    return failed(error);
  }
}

/** The row of a job whose shipment was canceled (`by` who). */
export function writeCanceled(guard: LedgerGuard, jobId: string, by: 'station' | 'service', requestId: string | null): JobRecord {
  return guard.write(jobId, 'canceled', { reason: agentMessage('job.shipmentCanceled', { by }), requestId, nextAttemptAt: null });
}

/** Back to waiting for its next step: ready to spool with its PDF in memory, else to fetch. */
function backInLine(entry: Entry): void {
  entry.phase = entry.pdf ? 'ready' : 'waiting';
}
