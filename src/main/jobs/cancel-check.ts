import type { Entry } from './lane';
import type { PipelineContext } from './pipeline-context';
import type { StepOutcome } from './outcomes';
import type { CancelStore } from './ports';

/*
 * The last look before a hand-over: is the shipment still booked? A label fetched and then
 * kept waiting (a paused or stopped printer, a busy one ahead of it) must not come out of the
 * printer once its shipment was canceled, wherever the cancel was made. Two sources:
 *
 * - the ledger's canceled shipments (shipment-cancels.ts), free, asked before every spool:
 *   this station's own "Cancel shipment", CANCELED tracking events and polls are there, so a
 *   cancel that raced a spool in progress still stops the next one;
 * - the service, asked only when the job waited longer than `recheckAfterMs` since its
 *   shipment was last known booked (its PDF fetched: the service renders none for a canceled
 *   shipment): one request for a job, one list call for a batch. A check the service does not
 *   answer does not hold the label: it prints, as it would have without the check.
 */
export class CancelCheck {
  /** Requests made to the service so far (the bench reports them per minute). */
  requests = 0;
  /** Checks the service did not answer (the label then printed). */
  failures = 0;

  constructor(
    private readonly context: PipelineContext,
    private readonly store: CancelStore,
  ) {}

  /**
   * The service refused to render the job's PDF (422: a canceled shipment is no longer
   * booked): when its shipment is canceled (the ledger knows, or one request to the service
   * says so), the job ends `canceled` like any other, not failed nor "no such document".
   * Null for any other refusal, which the caller handles as before.
   */
  async refused(entry: Entry, error: unknown): Promise<StepOutcome | null> {
    if ((error as { status?: unknown } | null)?.status !== 422) return null;
    const known = this.store.cancelOf?.(entry.shipmentId);
    let by: 'station' | 'service' | null = known?.source ?? null;
    let requestId: string | null = null;
    const fetcher = this.context.fetcher;
    if (!by && fetcher.canceledAmong) {
      try {
        this.requests += 1;
        const answer = await fetcher.canceledAmong([entry.shipmentId], new Date(entry.checkedAt));
        if (answer.canceled.some((id) => id.toLowerCase() === entry.shipmentId.toLowerCase())) by = 'service';
        requestId = answer.requestId;
      } catch {
        this.failures += 1;
      }
    }
    return by ? { kind: 'canceled', reason: null, requestId, by } : null;
  }

  /**
   * The entries whose shipment is canceled, each with the outcome that ends it `canceled`
   * (the runner settles it); empty when every one may be spooled.
   */
  async sweep(entries: readonly Entry[]): Promise<{ entry: Entry; outcome: StepOutcome }[]> {
    const canceled = (e: Entry, by: 'station' | 'service', requestId: string | null) => ({
      entry: e,
      outcome: { kind: 'canceled', reason: null, requestId, by } as const,
    });
    const known = (e: Entry) => canceled(e, this.store.cancelOf!(e.shipmentId)!.source, null);
    const local = entries.filter((e) => this.store.cancelOf?.(e.shipmentId)).map(known);
    const rest = entries.filter((e) => !local.some((l) => l.entry === e));
    const now = this.context.queue.nowMs();
    const fetcher = this.context.fetcher;
    const waited = rest.some((e) => now - e.checkedAt > this.context.settings.recheckAfterMs);
    if (rest.length === 0 || !waited || !fetcher.canceledAmong) return local;
    const ids = [...new Set(rest.map((e) => e.shipmentId))];
    let answer: { canceled: readonly string[]; requestId: string | null };
    try {
      this.requests += 1;
      answer = await fetcher.canceledAmong(ids, new Date(Math.min(...rest.map((e) => e.checkedAt))));
    } catch {
      this.failures += 1;
      return local;
    }
    for (const e of rest) e.checkedAt = now;
    const byService = new Set(answer.canceled.map((id) => id.toLowerCase()));
    const remote = rest.filter((e) => byService.has(e.shipmentId.toLowerCase()));
    // A cancel recorded while the service was asked (this station's own, a tracking event).
    const late = rest.filter((e) => !remote.includes(e) && this.store.cancelOf?.(e.shipmentId));
    return [...local, ...remote.map((e) => canceled(e, 'service', answer.requestId)), ...late.map(known)];
  }
}
