import type { JetStreamClient, JetStreamManager, PubAck } from '@nats-io/jetstream';
import { KvWatchInclude } from '@nats-io/kv';
import type { IntakeLogger } from '../../intake/ports';
import type { DecisionRecord, DecisionsBucket } from '../bus/decisions';
import { BOOKINGS_STREAM } from '../bus/names';
import type { TakenMarks } from '../bus/taken-marks';
import { publishDecision } from './publisher';

/**
 * What this relay published and no station has confirmed yet (its taken mark), kept in
 * memory with where the stream stored it. When that message can no longer arrive (the
 * stream was recreated after the server lost its store, or its first message is past it),
 * the decision is written again and the booking published again under a new message id.
 * Each taken mark is also copied into the decision's `takenBy` (stations do not write
 * decisions). Bounded: the oldest are forgotten beyond `max`.
 */

export interface ConfirmationsOptions {
  readonly js: JetStreamClient;
  readonly jsm: () => Promise<JetStreamManager>;
  readonly decisions: () => DecisionsBucket;
  readonly taken: () => TakenMarks;
  readonly logger: IntakeLogger;
  /** @default 20000 */
  readonly max?: number;
  /** How often the stream is looked at. @default 5000 */
  readonly intervalMs?: number;
}

interface Published {
  record: DecisionRecord;
  seq: number;
  streamCreated: string | null;
}

export class Confirmations {
  private readonly pending = new Map<string, Published>();
  private streamCreated: string | null = null;
  private stopWatch: (() => void) | null = null;
  private timer: NodeJS.Timeout | null = null;
  private busy = false;
  /** Set by stop(): a sweep cut off by the connection closing says nothing. */
  private stopped = false;

  constructor(private readonly options: ConfirmationsOptions) {}

  async start(): Promise<void> {
    await this.watch();
    await this.sweep();
    this.timer = setInterval(() => void this.sweep(), this.options.intervalMs ?? 5_000);
    this.timer.unref();
  }

  get unconfirmed(): number {
    return this.pending.size;
  }

  published(record: DecisionRecord, ack: PubAck): void {
    if (record.takenBy !== null) return;
    this.pending.delete(record.shipmentId);
    this.pending.set(record.shipmentId, { record, seq: ack.seq, streamCreated: this.streamCreated });
    if (this.pending.size > (this.options.max ?? 20_000)) this.pending.delete(this.pending.keys().next().value!);
  }

  /** Follows the taken marks (again, after the bucket was recreated). */
  async watch(): Promise<void> {
    this.stopWatch?.();
    const taken = this.options.taken();
    const watch = await taken.kv.watch({ include: KvWatchInclude.UpdatesOnly });
    this.stopWatch = () => watch.stop();
    void (async () => {
      for await (const entry of watch) {
        const mark = taken.parse(entry);
        if (!mark) continue;
        this.pending.delete(mark.shipmentId);
        await this.copyMark(mark.shipmentId, mark.station, mark.at).catch(() => undefined);
      }
    })().catch(() => undefined);
  }

  private async copyMark(shipmentId: string, station: string, at: string): Promise<void> {
    const decisions = this.options.decisions();
    for (let attempt = 0; attempt < 3; attempt++) {
      const stored = await decisions.get(shipmentId);
      if (!stored || stored.record.station !== station || stored.record.takenBy !== null) return;
      if (await decisions.replace({ ...stored.record, takenBy: station, takenAt: at }, stored.revision)) return;
    }
  }

  /** Publishes again what can no longer arrive; exposed for tests. */
  async sweep(): Promise<number> {
    if (this.busy) return 0;
    this.busy = true;
    let again = 0;
    try {
      const info = await (await this.options.jsm()).streams.info(BOOKINGS_STREAM);
      const created = info.created;
      if (this.streamCreated === null) this.streamCreated = created;
      for (const [shipmentId, published] of [...this.pending]) {
        const gone = (published.streamCreated ?? created) !== created || info.state.first_seq > published.seq;
        if (!gone) continue;
        const stored = await this.options.decisions().decideOnce({ ...published.record, takenBy: null, takenAt: null });
        if (stored.record.station !== published.record.station || stored.record.takenBy !== null) {
          this.pending.delete(shipmentId);
          continue;
        }
        const ack = await publishDecision(this.options.js, stored.record, String(Date.now()));
        this.pending.set(shipmentId, { record: stored.record, seq: ack.seq, streamCreated: created });
        again++;
      }
      this.streamCreated = created;
      if (again > 0) this.options.logger.warn(`site: published ${again} booking(s) again: the site's stream no longer held them`);
    } catch (error) {
      if (!this.stopped) this.options.logger.warn(`site: checking unconfirmed bookings failed (${String(error)}); trying again`);
    } finally {
      this.busy = false;
    }
    return again;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.stopWatch?.();
  }
}
