import type { CancelCheck } from './cancel-check';
import { adviceOf, messageOf } from './failure';
import type { JobPatch, JobRecord } from '../ledger/job-record';
import { isAmbiguous, type JobFailures } from './job-failures';
import type { Entry, Lane } from './lane';
import { isLedgerFailure } from '../ledger/ledger-guard';
import type { PipelineContext } from './pipeline-context';
import type { PipelineTarget } from './ports';
import type { SpooledJobs } from './spooled-jobs';

/*
 * The two steps a job goes through in its line: fetch its PDF from the service, then hand
 * it to the spooler. Each step is written to the ledger before it runs (no write, no
 * spool), and a job that may already be at the spooler is looked up by title before it is
 * sent again. Kept apart from the queue, which only decides which job runs next.
 */

export class JobSteps {
  private fetches = 0;

  /** A failed step goes to `failures`; a handover to `spooled`. */
  constructor(
    private readonly context: PipelineContext,
    private readonly failures: JobFailures,
    private readonly spooled: SpooledJobs,
    /** The last look at the shipment before a hand-over (cancel-check.ts); batching.ts uses it too. */
    readonly cancels: CancelCheck,
  ) {}

  /** Fetches in progress (bounded by fetchConcurrency). */
  get activeFetches(): number {
    return this.fetches;
  }

  async fetch(entry: Entry): Promise<void> {
    const { failures } = this;
    entry.phase = 'fetching';
    const token = entry.token;
    try {
      this.countTry(entry, 'fetching');
    } catch (error) {
      // Not recorded, so not fetched: the job waits for the ledger, unchanged.
      entry.phase = 'waiting';
      throw error;
    }
    this.fetches += 1;
    try {
      const { pdf } = await this.context.fetcher.printFile({
        shipment_ids: [entry.shipmentId],
        document_type: entry.documentType,
        label_layout: entry.layout,
      });
      if (this.context.queue.disowned(entry, token)) return;
      entry.pdf = pdf;
      entry.phase = 'ready';
      entry.checkedAt = this.context.queue.nowMs();
    } catch (error) {
      if (this.context.queue.disowned(entry, token)) return;
      // Refused because its shipment was canceled (elsewhere, not yet heard of): canceled, not failed.
      if (await this.cancels.refused(entry, error, token)) return;
      if (this.context.queue.disowned(entry, token)) return;
      if (await failures.lacksDocument(entry, error)) {
        if (!this.context.queue.disowned(entry, token)) failures.skipMissing(entry, error);
        return;
      }
      if (this.context.queue.disowned(entry, token)) return;
      failures.onFailure(entry, error);
    } finally {
      this.fetches -= 1;
      this.context.queue.schedulePump();
    }
  }

  async spool(lane: Lane, entry: Entry, target: PipelineTarget): Promise<void> {
    const { failures, spooled } = this;
    let result: { spoolerJobId: string | null; completed: boolean; note?: string | null };
    try {
      if (entry.spoolUncertain) {
        // The lookup can fail as well (a spooler that cannot be asked); counting the try here
        // keeps maxAttempts a bound on a job that can neither be spooled nor looked up.
        this.countTry(entry, 'spooling');
        // A job spooled in a batch is at the spooler under the batch id (batching.ts).
        const found = await target.findSpooled(entry.batchId ?? entry.id);
        if (found && found.state !== 'aborted' && found.state !== 'canceled') {
          lane.remove(entry);
          this.context.queue.handedOver(entry);
          spooled.record(entry.id, entry.target, found.spoolerJobId, found.state === 'completed');
          return;
        }
        entry.spoolUncertain = false;
        entry.batchId = null;
      }
      // Canceled while it waited (here, at the service, by another station): it never prints.
      if ((await this.cancels.sweep([entry])).length > 0) return;
      if (this.context.queue.isStopped()) {
        entry.phase = entry.pdf ? 'ready' : 'waiting';
        return;
      }
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
        documentType: entry.documentType,
        layout: entry.layout,
      });
    } catch (error) {
      if (isLedgerFailure(error)) {
        entry.phase = entry.pdf ? 'ready' : 'waiting';
        throw error;
      }
      if (target.reconcilable === false && isAmbiguous(error)) {
        failures.failUnconfirmed(entry, error);
        return;
      }
      if (await failures.lacksDocument(entry, error)) {
        failures.skipMissing(entry, error);
        return;
      }
      if (failures.waitsForPrinter(entry, error)) {
        // Confirmed by the printer's own readiness: a queue that is fine (the error was
        // about this job after all) makes it an ordinary failure that spends the try.
        const readiness = await target.readiness().catch((e: unknown) => ({ ready: false, detail: null, message: messageOf(e) }));
        if (!readiness.ready) {
          failures.waitForPrinter(lane, entry, adviceOf(readiness, error));
          return;
        }
      }
      failures.onFailure(entry, error);
      return;
    }
    lane.remove(entry);
    this.context.queue.handedOver(entry);
    entry.pdf = null;
    spooled.record(entry.id, entry.target, result.spoolerJobId, result.completed, false, result.note ?? null);
  }

  /**
   * Ask a printer that was down whether it is back: if so its line moves again (the head
   * first, looked up at the spooler if it may be there already); if not, the next probe
   * waits longer and the head job shows the printer's advice.
   */
  async probe(lane: Lane, target: PipelineTarget): Promise<void> {
    const down = lane.down;
    if (!down) return;
    const readiness = await target.readiness().catch((e: unknown) => ({ ready: false, detail: null, message: messageOf(e) }));
    if (this.context.queue.isStopped()) return;
    if (readiness.ready) {
      lane.down = null;
      return;
    }
    // Probe backoff for a printer that is down: the jobs' retry backoff.
    const { retryBaseMs, retryMaxMs } = this.context.settings;
    const advice = readiness.message || readiness.detail !== null ? adviceOf(readiness, null) : down.message;
    const again = lane.markDown(advice, this.context.queue.nowMs(), retryBaseMs, retryMaxMs);
    if (lane.head) this.failures.showWait(lane.head, again);
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
