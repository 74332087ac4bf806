import { LABELS_PER_SHEET } from '../../shared/domain';
import { kindBatches } from '../printing/printer-kinds';
import type { BatchBytes } from './batch-bytes';
import { adviceOf } from './failure';
import { newJobId } from '../ledger/job-id';
import { isAmbiguous, type JobFailures } from './job-failures';
import type { Batch, Entry, Lane } from './lane';
import type { BatchOutcome } from './outcomes';
import { isLedgerFailure } from '../ledger/ledger-guard';
import type { PipelineContext } from './pipeline-context';
import { type BatchStore, type PipelineTarget } from './ports';
import { failedStep, type JobSteps } from './job-steps';
import type { SpooledJobs } from './spooled-jobs';

/*
 * Batching what is already waiting. When the fetch step picks a job, the
 * consecutive jobs behind it in its line that are already waiting, with the same document
 * type, layout and copies, go with it: one POST /shipments/print with their shipment ids
 * in line order (one PDF), then one spool job titled with the batch id. Nothing waits for a
 * batch to fill, so the first label of a burst goes alone and at once. A batch is also kept
 * under a byte cap, from the bytes per shipment seen so far (batch-bytes.ts).
 *
 * Sheet layouts (`2x2`, `3x1`, `1x2`): a batch of more than one sheet's worth takes whole
 * sheets only, and the rest waits at the head of the line until that batch's fetch ends, then
 * goes in the next batch with what arrived meanwhile, so a burst arriving over seconds does
 * not leave a part-empty sheet per batch. A batch under one sheet goes at once when its lane
 * fetches nothing of that layout (the first label of a burst, a lone label); beside such a
 * fetch it waits for that fetch to end (tens of milliseconds) and goes with what arrived.
 *
 * Exactly once per shipment: the ledger claims the members in one transaction (table
 * `batches`, jobs.batch_id), and every member is written `spooling` with spool_attempted and
 * its batch id before the one spool() call. A member that may be at the spooler is looked up
 * by the batch id (findSpooled) before anything is sent again, after a crash (recovery.ts)
 * and after a batch spool that threw. A batch the service refuses is dissolved: its members
 * are fetched one by one, their attempts not counted for the batch, so one bad shipment
 * cannot block the others. Whether a target batches at all is its kind's word
 * (PrinterKindEntry.batches: folder and service printers do not, one file or service call per
 * shipment and document).
 *
 * Like the single steps, a batch's fetch and spool return one outcome (BatchOutcome,
 * outcomes.ts) and never write a member's phase or the line: the runner settles it.
 */

/** Spooler job title of a batch: carries the batch id that crash recovery looks up. */
export function batchTitle(batch: Batch): string {
  const first = batch.members[0]!;
  return `Print Station ${batch.id} ${batch.members.length} shipments ${first.documentType}`;
}

/** `B` + a job id: never a substring of a job id, so a lookup by either finds only its own. */
export function newBatchId(now: number): string {
  return `B${newJobId(now)}`;
}

export class Batching {
  /** Member lists membersFrom cut to whole sheets, leaving labels behind. */
  private readonly trimmed = new WeakSet<readonly Entry[]>();
  /** Per target, the batch cut to whole sheets: the labels it left wait until its fetch ends. */
  private readonly filling = new Map<string, Batch>();

  constructor(
    private readonly context: PipelineContext,
    private readonly store: BatchStore,
    private readonly steps: JobSteps,
    private readonly failures: JobFailures,
    private readonly spooled: SpooledJobs,
    private readonly bytes: BatchBytes,
  ) {}

  /** Whether jobs to this target may be batched at all. */
  batches(target: PipelineTarget): boolean {
    return this.context.settings.batchMax > 1 && target.needsPdf && kindBatches(target.kind) && !!this.store.claimBatch;
  }

  /**
   * The batch that would start at `first`: it and the jobs like it that follow it, already
   * waiting. A lane with nothing in flight sends one label (one sheet on a sheet layout) at
   * once: webhooks read in one turn are queued together, and the first label of a burst must
   * not wait for a batch of them to be rendered; what waits behind it forms the next batch
   * while it is fetched.
   */
  membersFrom(lane: Lane, first: Entry, now: number): Entry[] {
    const perSheet = LABELS_PER_SHEET[first.layout];
    const members = this.run(lane, first, now);
    if (this.context.settings.firstAlone && members.length > perSheet && idle(lane)) members.length = perSheet;
    if (members.length > perSheet && members.length % perSheet !== 0) {
      members.length -= members.length % perSheet;
      this.trimmed.add(members);
    }
    return members;
  }

  /**
   * Whether `candidate` waits, on a sheet layout, to fill a sheet: behind the lane's batch that
   * was trimmed to whole sheets until that batch is fetched, or as a part sheet while the lane
   * fetches that layout. Either way it goes when that fetch ends, with what arrived meanwhile;
   * with nothing in flight a part sheet goes at once, so nothing waits for a batch to fill.
   */
  holds(lane: Lane, candidate: Entry, target: PipelineTarget, now: number): boolean {
    if (!this.batches(target)) return false;
    return this.behindTrimmed(lane, candidate) || this.partSheetBesideFetch(lane, candidate, now);
  }

  private behindTrimmed(lane: Lane, candidate: Entry): boolean {
    const batch = this.filling.get(lane.target);
    if (!batch) return false;
    if (!batch.members.some((m) => m.batch === batch && m.phase === 'fetching')) {
      this.filling.delete(lane.target);
      return false;
    }
    const first = batch.members[0]!;
    return candidate.documentType === first.documentType && candidate.layout === first.layout && candidate.copies === first.copies;
  }

  /**
   * A fetch takes tens of milliseconds, and a burst arrives a label or two at a time: a part
   * sheet sent beside a fetch of its layout would start one more part-empty sheet.
   */
  private partSheetBesideFetch(lane: Lane, candidate: Entry, now: number): boolean {
    const perSheet = LABELS_PER_SHEET[candidate.layout];
    if (perSheet === 1 || !batchable(candidate, now)) return false;
    if (!lane.entries.some((e) => e.phase === 'fetching' && e.layout === candidate.layout)) return false;
    return this.run(lane, candidate, now).length < Math.min(perSheet, this.maxFor(candidate));
  }

  /** `first` and the consecutive jobs like it already waiting behind it, up to the batch caps. */
  private run(lane: Lane, first: Entry, now: number): Entry[] {
    const members = [first];
    if (!batchable(first, now)) return members;
    const max = this.maxFor(first);
    const start = lane.entries.indexOf(first);
    for (let i = start + 1; i < lane.entries.length && members.length < max; i++) {
      const e = lane.entries[i]!;
      if (!batchable(e, now) || e.documentType !== first.documentType || e.layout !== first.layout || e.copies !== first.copies) break;
      members.push(e);
    }
    return members;
  }

  private maxFor(first: Entry): number {
    return Math.min(this.context.settings.batchMax, this.bytes.limit(first.documentType, first.layout));
  }

  /**
   * Claims the members in the ledger (the claim and every member's `fetching` in one commit)
   * and returns their batch; null when the ledger refused the claim (a member is taken or no
   * longer queued, or the ledger cannot be written), and the caller fetches the first job
   * alone. The runner then marks the members fetching and starts `fetch`.
   */
  claim(members: readonly Entry[]): Batch | null {
    const first = members[0]!;
    const batch: Batch = { id: newBatchId(this.context.queue.nowMs()), members, pdf: null };
    const spec = {
      id: batch.id,
      target: first.target,
      documentType: first.documentType,
      layout: first.layout,
      jobIds: members.map((m) => m.id),
    };
    const { guard } = this.context;
    let claimed = false;
    try {
      // Not counted as a try: a batch the service refuses costs its members nothing.
      claimed = guard.together(() => {
        if (!this.store.claimBatch!(spec)) return false;
        for (const m of members) guard.write(m.id, 'fetching', { nextAttemptAt: null, reason: null });
        return true;
      });
    } catch {
      // A ledger that cannot claim: nothing of the batch was written; the first job goes alone
      // (its own writes meet the ledger's state).
    }
    if (!claimed) return null;
    if (this.trimmed.has(members)) this.filling.set(first.target, batch);
    return batch;
  }

  /**
   * The batch's fetch: one print call for every member. `tokens` tell a member taken from
   * the step meanwhile (canceled, held): the others are released to be fetched again.
   */
  async fetch(batch: Batch, tokens: readonly number[]): Promise<BatchOutcome> {
    const { queue } = this.context;
    const { members } = batch;
    const first = members[0]!;
    const live = (): Entry[] => members.filter((m, i) => !queue.disowned(m, tokens[i]!));
    try {
      const { pdf } = await this.context.fetcher.printFile({
        shipment_ids: members.map((m) => m.shipmentId),
        document_type: first.documentType,
        label_layout: first.layout,
      });
      if (queue.isStopped()) return { kind: 'disowned' };
      const kept = live();
      if (kept.length !== members.length) return { kind: 'released', members: kept, alone: false, settled: [] };
      return { kind: 'fetched', pdf, at: queue.nowMs() };
    } catch {
      if (queue.isStopped()) return { kind: 'disowned' };
      // Refused (or failed) as a batch: each member is fetched on its own and fails on its own.
      return { kind: 'released', members: live(), alone: true, settled: [] };
    }
  }

  /**
   * Whether the head's batch is whole and first in its line, ready to spool. A batch that lost
   * its place (a member canceled or held, a job booked earlier inserted among its members) is
   * to be dissolved: `release` lists the members to fetch again on their own.
   */
  readyToSpool(lane: Lane, head: Entry): { ready: boolean; release: readonly Entry[] | null } {
    const batch = head.batch!;
    if (head.phase !== 'ready') return { ready: false, release: null };
    const whole = batch.members.every((m, i) => lane.entries[i] === m && m.phase === 'ready');
    if (whole) return { ready: true, release: null };
    const release = batch.members.filter((m) => m.batch === batch && lane.entries.includes(m) && m.phase === 'ready');
    return { ready: false, release };
  }

  /** The batch's hand-over, first in its line; never throws. */
  async spool(batch: Batch, target: PipelineTarget): Promise<BatchOutcome> {
    try {
      return await this.send(batch, target);
    } catch (bug) {
      return failedStep(bug);
    }
  }

  private async send(batch: Batch, target: PipelineTarget): Promise<BatchOutcome> {
    const { members } = batch;
    const first = members[0]!;
    let result: { spoolerJobId: string | null; completed: boolean; note?: string | null };
    try {
      if (members.some((m) => m.spoolUncertain)) {
        for (const m of members) this.steps.countTry(m, 'spooling');
        const found = await target.findSpooled(batch.id);
        if (found && found.state !== 'aborted' && found.state !== 'canceled') {
          return { kind: 'handedOver', spoolerJobId: found.spoolerJobId, completed: found.state === 'completed', note: null };
        }
        for (const m of members) m.spoolUncertain = false;
      }
      // A member canceled while the batch waited: its label is in the batch's PDF, so the batch
      // is not sent; the others go back to waiting in their places and are fetched again without it.
      const swept = await this.steps.cancels.sweep(members);
      if (swept.length > 0) {
        const gone = swept.map((g) => g.entry);
        return { kind: 'released', members: members.filter((m) => !gone.includes(m)), alone: false, settled: swept };
      }
      if (this.context.queue.isStopped()) return { kind: 'stopped' };
      // Written before the hand-over, in one commit: if the ledger cannot take it, the batch is not sent.
      this.steps.countTries(members, 'spooling', { spoolAttempted: true, batchId: batch.id }, () => this.recordState(batch.id, 'spooling'));
      for (const m of members) m.spoolUncertain = true;
      result = await target.spool({
        jobId: batch.id,
        title: batchTitle(batch),
        pdf: batch.pdf,
        media: this.context.settings.mediaFor(first.target, first.layout),
        copies: first.copies,
        shipmentId: first.shipmentId,
        documentType: first.documentType,
        layout: first.layout,
      });
    } catch (error) {
      if (isLedgerFailure(error)) return { kind: 'ledgerDown', error };
      if (target.reconcilable === false && isAmbiguous(error)) {
        return { kind: 'dissolved', outcomes: members.map((entry) => ({ entry, outcome: this.failures.unconfirmed(error) })) };
      }
      if (this.failures.waitsForPrinter(first, error)) {
        const readiness = await target.readiness().catch((e: unknown) => ({ ready: false, detail: (e as Error).message }));
        // The batch keeps its place, its PDF and its tries; the line waits on the printer.
        if (!readiness.ready) return { kind: 'printerDown', advice: adviceOf(readiness, error) };
      }
      // Any other failure: the members go on one by one, each looked up under the batch id
      // first (spoolUncertain) while the batch may be at the spooler, and each failing on its own.
      return { kind: 'dissolved', outcomes: members.map((entry) => ({ entry, outcome: this.failures.outcomeOf(entry, error) })) };
    }
    return { kind: 'handedOver', spoolerJobId: result.spoolerJobId, completed: result.completed, note: result.note ?? null };
  }

  /**
   * The ledger's side of members leaving their batch (nothing of it was sent): the batch row
   * dissolved and each member queued again without it, in one commit.
   */
  recordRelease(batch: Batch, members: readonly Entry[]): void {
    const { guard } = this.context;
    try {
      guard.together(() => {
        try {
          this.store.dissolveBatch?.(batch.id);
        } catch {
          // The batch row stays; its members leave it with their next write.
        }
        for (const m of members) guard.write(m.id, 'queued', { batchId: null });
      });
    } catch (error) {
      // If these writes are lost, the rows stay `fetching` (start() queues them again) and
      // each member's next spool write clears its batch id.
      if (!isLedgerFailure(error)) throw error;
    }
  }

  /**
   * The ledger's side of a batch handed over: one commit for the batch row and every
   * member's `spooled`, then each member is followed at the spooler.
   */
  recordHandover(batch: Batch, spoolerJobId: string | null, completed: boolean, note: string | null): void {
    this.spooled.recordAll(
      batch.members.map((m) => ({ jobId: m.id, targetUri: m.target })),
      spoolerJobId,
      completed,
      () => this.recordState(batch.id, 'spooled', spoolerJobId),
      note,
    );
  }

  /** Bookkeeping only: the members' rows are what recovery reads. */
  recordState(id: string, state: 'spooling' | 'spooled' | 'dissolved', spoolerJobId: string | null = null): void {
    try {
      this.store.batchState?.(id, state, spoolerJobId);
    } catch {
      // see above
    }
  }
}

function batchable(e: Entry, now: number): boolean {
  return e.phase === 'waiting' && e.notBefore <= now && !e.alone && !e.spoolUncertain && e.batch === null;
}

/** Nothing of the line is being fetched, waiting to be spooled or at the spooler. */
function idle(lane: Lane): boolean {
  return !lane.spooling && lane.entries.every((e) => e.phase === 'waiting');
}
