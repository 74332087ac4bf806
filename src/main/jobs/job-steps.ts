import type { CancelCheck } from './cancel-check';
import { adviceOf, messageOf } from './failure';
import type { JobPatch, JobRecord } from '../ledger/job-record';
import { isAmbiguous, type JobFailures } from './job-failures';
import type { Entry, Lane } from './lane';
import { isLedgerFailure } from '../ledger/ledger-guard';
import type { BatchOutcome, StepOutcome } from './outcomes';
import type { PipelineContext } from './pipeline-context';
import type { PipelineTarget } from './ports';

/*
 * The steps a job goes through in its line: fetch its PDF from the service, then hand it to
 * the spooler; and the probe of a printer that is down. Each step takes a job (or a line) and
 * returns one outcome (outcomes.ts), never throwing and never writing a job's phase or a
 * line's state: the runner (runner.ts) settles the outcome. Each step's try is written to the
 * ledger before it runs (no write, no spool), and a job that may already be at the spooler is
 * looked up by title before it is sent again.
 */

export class JobSteps {
  /** A failed step's outcome comes from `failures`. */
  constructor(
    private readonly context: PipelineContext,
    private readonly failures: JobFailures,
    /** The last look at the shipment before a hand-over (cancel-check.ts); batching.ts uses it too. */
    readonly cancels: CancelCheck,
  ) {}

  /**
   * The part of a fetch before its first await: the try is written to the ledger. An outcome
   * when the fetch cannot start (the ledger refused the write), null when it may go on.
   */
  beginFetch(entry: Entry): StepOutcome | null {
    try {
      this.countTry(entry, 'fetching');
      return null;
    } catch (error) {
      // Not recorded, so not fetched: the job waits for the ledger (or its line is parked), unchanged.
      return failedStep(error);
    }
  }

  /** The fetch itself, after beginFetch; `token` tells a job taken from the step meanwhile. */
  async fetch(entry: Entry, token: number): Promise<StepOutcome> {
    const { failures } = this;
    const { queue } = this.context;
    try {
      const { pdf } = await this.context.fetcher.printFile({
        shipment_ids: [entry.shipmentId],
        document_type: entry.documentType,
        label_layout: entry.layout,
      });
      return { kind: 'fetched', pdf, at: queue.nowMs() };
    } catch (error) {
      try {
        if (queue.disowned(entry, token)) return { kind: 'disowned' };
        // Refused because its shipment was canceled (elsewhere, not yet heard of): canceled, not failed.
        const canceled = await this.cancels.refused(entry, error);
        if (canceled) return canceled;
        if (queue.disowned(entry, token)) return { kind: 'disowned' };
        if (await failures.lacksDocument(entry, error)) return failures.missing(entry, error);
        return failures.outcomeOf(entry, error);
      } catch (bug) {
        return failedStep(bug);
      }
    }
  }

  async spool(entry: Entry, target: PipelineTarget): Promise<StepOutcome> {
    let result: { spoolerJobId: string | null; completed: boolean; note?: string | null };
    try {
      if (entry.spoolUncertain) {
        // The lookup can fail as well (a spooler that cannot be asked); counting the try here
        // keeps maxAttempts a bound on a job that can neither be spooled nor looked up.
        this.countTry(entry, 'spooling');
        // A job spooled in a batch is at the spooler under the batch id (batching.ts).
        const found = await target.findSpooled(entry.batchId ?? entry.id);
        if (found && found.state !== 'aborted' && found.state !== 'canceled') {
          return { kind: 'handedOver', spoolerJobId: found.spoolerJobId, completed: found.state === 'completed', note: null, found: true };
        }
        entry.spoolUncertain = false;
        entry.batchId = null;
      }
      // Canceled while it waited (here, at the service, by another station): it never prints.
      const gone = await this.cancels.sweep([entry]);
      if (gone.length > 0) return gone[0]!.outcome;
      if (this.context.queue.isStopped()) return { kind: 'stopped' };
      // Written before the hand-over: if the ledger cannot take it, the job is not sent.
      // Alone, under its own id: a batch it was in is no longer where to look for it.
      this.countTry(entry, 'spooling', { spoolAttempted: true, batchId: null });
      entry.batchId = null;
      entry.spoolUncertain = true; // until spool() answers, the job may be at the spooler
      result = await target.spool({
        jobId: entry.id,
        title: `Print Station ${entry.id} ${entry.shipmentId} ${entry.documentType}`,
        pdf: target.needsPdf ? entry.pdf : null,
        media: this.context.settings.mediaFor(entry.target, entry.layout),
        copies: entry.copies,
        shipmentId: entry.shipmentId,
        reference: entry.reference,
        documentType: entry.documentType,
        layout: entry.layout,
      });
    } catch (error) {
      try {
        return await this.spoolFailed(entry, target, error);
      } catch (bug) {
        return failedStep(bug);
      }
    }
    return { kind: 'handedOver', spoolerJobId: result.spoolerJobId, completed: result.completed, note: result.note ?? null, found: false };
  }

  private async spoolFailed(entry: Entry, target: PipelineTarget, error: unknown): Promise<StepOutcome> {
    const { failures } = this;
    if (isLedgerFailure(error)) return { kind: 'ledgerDown', error };
    if (target.reconcilable === false && isAmbiguous(error)) return failures.unconfirmed(error);
    if (await failures.lacksDocument(entry, error)) return failures.missing(entry, error);
    if (failures.waitsForPrinter(entry, error)) {
      // Confirmed by the printer's own readiness: a queue that is fine (the error was
      // about this job after all) makes it an ordinary failure that spends the try.
      const readiness = await target.readiness().catch((e: unknown) => ({ ready: false, detail: null, message: messageOf(e) }));
      if (!readiness.ready) return { kind: 'printerDown', advice: adviceOf(readiness, error) };
    }
    return failures.outcomeOf(entry, error);
  }

  /**
   * Ask a printer that was down whether it is back: if so its line moves again (the head
   * first, looked up at the spooler if it may be there already); if not, the next probe
   * waits longer and the head job shows the printer's advice.
   */
  async probe(lane: Lane, target: PipelineTarget): Promise<StepOutcome> {
    const down = lane.down;
    if (!down) return { kind: 'printerUp' };
    try {
      const readiness = await target.readiness().catch((e: unknown) => ({ ready: false, detail: null, message: messageOf(e) }));
      if (this.context.queue.isStopped()) return { kind: 'stopped' };
      if (readiness.ready) return { kind: 'printerUp' };
      const advice = readiness.message || readiness.detail !== null ? adviceOf(readiness, null) : down.message;
      return { kind: 'printerDown', advice };
    } catch (bug) {
      return failedStep(bug);
    }
  }

  /**
   * countTry() for every member of a batch, and `also` (the batch row), in one commit. If it
   * fails nothing was written, so the members' try counts in memory stay as they were.
   */
  countTries(entries: readonly Entry[], state: 'fetching' | 'spooling', patch: JobPatch, also: () => void): void {
    const before = entries.map((e) => ({ tries: e.tries, tryCounted: e.tryCounted }));
    try {
      this.context.guard.together(() => {
        for (const e of entries) this.countTry(e, state, patch);
        also();
      });
    } catch (error) {
      entries.forEach((e, i) => Object.assign(e, before[i]));
      throw error;
    }
  }

  /** Count a new try in the ledger's `attempts` (once per fetch+spool pass). */
  countTry(entry: Entry, state: 'fetching' | 'spooling', patch: JobPatch = {}): JobRecord {
    const counted = entry.tryCounted;
    const job = this.context.guard.write(entry.id, state, { ...patch, incrementAttempts: !counted, nextAttemptAt: null, reason: null });
    if (!counted) {
      entry.tries += 1;
      entry.tryCounted = true;
    }
    return job;
  }
}

/** A step that threw: the ledger could not take a write, or a bug (the same for a job's step and a batch's). */
export function failedStep(error: unknown): Extract<StepOutcome & BatchOutcome, { kind: 'ledgerDown' | 'fault' }> {
  return isLedgerFailure(error) ? { kind: 'ledgerDown', error } : { kind: 'fault', error };
}
