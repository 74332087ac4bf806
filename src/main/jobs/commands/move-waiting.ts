import type { JobView, LabelLayout } from '../../../shared/domain';
import type { JobRecord } from '../../ledger/job-record';
import { toJobView } from '../../ledger/job-record';
import type { Engine } from '../engine';

/**
 * Fallback: `from`'s waiting jobs of `documentTypes` go to `to`, fetched again in `layout`
 * (the ledger row's target and layout change: after a restart they stay moved). A job that
 * may be at `from`'s spooler already (a spool was attempted) moves only when that spooler
 * says it does not hold it; one it holds, or that cannot be looked up, stays: it prints
 * there when the printer is back, never on both.
 */
export async function moveWaiting(
  engine: Engine,
  from: string,
  to: string,
  layout: LabelLayout,
  documentTypes: readonly string[],
): Promise<JobView[]> {
  const moved: JobView[] = [];
  const target = engine.printers.resolve(from);
  for (const candidate of engine.ledger.open()) {
    if (engine.stopped) break;
    if (candidate.target !== from || !documentTypes.includes(candidate.documentType)) continue;
    if (candidate.spoolAttempted || engine.entries.get(candidate.id)?.spoolUncertain) {
      if (target instanceof Error) continue;
      const found = await target.findSpooled(candidate.id).catch(() => 'unknown' as const);
      if (found === 'unknown' || (found && found.state !== 'aborted' && found.state !== 'canceled')) continue;
    }
    // Read again after the lookup: the line may have handed it over meanwhile.
    const job = engine.ledger.get(candidate.id);
    const entry = engine.entries.get(candidate.id);
    if (!job || job.target !== from || (job.state !== 'queued' && job.state !== 'fetching') || entry?.phase === 'spooling') continue;
    if (entry) engine.runner.drop(entry);
    let next: JobRecord;
    try {
      next = engine.guard.write(job.id, 'queued', {
        target: to,
        layout,
        reason: null,
        requestId: null,
        nextAttemptAt: null,
        spoolAttempted: false,
        spoolerJobId: null,
      });
    } catch (error) {
      if (entry) engine.enqueue(job); // the row is unchanged: back in its own line
      throw error;
    }
    if (!next.held) engine.enqueue(next);
    moved.push(toJobView(next));
  }
  engine.schedulePump();
  return moved;
}
