import type { JetStreamClient } from '@nats-io/jetstream';
import type { IntakeLogger } from '../../intake/ports';
import { parseDecision, type DecisionRecord, type DecisionsBucket } from '../bus/decisions';
import type { OnlineStations } from '../bus/presence';
import type { SiteRules } from '../bus/site-rules';
import type { TakenMarks } from '../bus/taken-marks';
import { publishDecision } from './publisher';

/**
 * A station that is down gets its bookings when it returns (its durable consumer). After
 * `afterMs`, a booking still not taken by its offline station goes to that station's
 * fallback (its entry in the rules bucket), else to the first online default station. The
 * move rewrites the decision at the revision read and only then looks for the first
 * station's taken mark: a station marks before it reads the decision again, so when the
 * mark is there the station may print, and the decision goes back to it (its ledger keeps a
 * second delivery to one label). Only decisions that fit the site's format are moved, and
 * only what a relay decided: stations cannot write decisions on a protected site. Runs in
 * every relay; one wins each move. Keeps a few bytes per waiting booking, not the records,
 * and reads only the newest decisions at start (`startWindow`), however many days are kept.
 */

export interface FallbackMoverOptions {
  readonly js: JetStreamClient;
  readonly decisions: DecisionsBucket;
  readonly taken: TakenMarks;
  readonly rules: SiteRules;
  readonly online: OnlineStations;
  readonly defaults: readonly string[];
  /** How long a booking waits for its offline station. @default 120000 */
  readonly afterMs?: number;
  /** How often waiting bookings are looked at. @default 2000 */
  readonly intervalMs?: number;
  /** The most waiting bookings remembered (the oldest are forgotten beyond it; their stations still get them). @default 100000 */
  readonly maxWaiting?: number;
  /**
   * How many of the newest decisions a starting relay reads for bookings still waiting. An
   * older one still untaken reaches its station when that station returns, but is not moved
   * to a fallback by a relay started after it. @default 10000
   */
  readonly startWindow?: number;
  readonly logger: IntakeLogger;
  readonly onMoved?: (record: DecisionRecord) => void;
}

interface Waiting {
  readonly station: string;
  readonly decidedAt: number;
}

export class FallbackMover {
  /** Decisions not yet taken, by shipment id (from the bucket's watch). */
  private readonly waiting = new Map<string, Waiting>();
  private timer: NodeJS.Timeout | null = null;
  private stopWatch: (() => void) | null = null;
  private busy = false;
  /** Set by stop(): a sweep cut off by the connection closing says nothing. */
  private stopped = false;
  /** When each waiting booking was last published again (see sweep). */
  private readonly republished = new Map<string, number>();

  constructor(private readonly options: FallbackMoverOptions) {}

  async start(): Promise<void> {
    await this.watch();
    this.timer = setInterval(() => void this.sweep(), this.options.intervalMs ?? 2_000);
    this.timer.unref();
  }

  /**
   * (Again, after the bucket was recreated.) Starts at the newest `startWindow` revisions of the
   * bucket, not at its first: a relay's start-up time and memory stay the same with days of
   * decisions kept (the bucket holds one revision a shipment, so these are the latest decisions).
   */
  async watch(): Promise<void> {
    this.stopWatch?.();
    const kv = this.options.decisions.kv;
    const lastRevision = (await kv.status()).streamInfo.state.last_seq;
    const from = Math.max(1, lastRevision - (this.options.startWindow ?? 10_000) + 1);
    const watch = await kv.watch(from > 1 ? { resumeFromRevision: from } : {});
    this.stopWatch = () => watch.stop();
    const max = this.options.maxWaiting ?? 100_000;
    void (async () => {
      for await (const entry of watch) {
        if (entry.operation !== 'PUT' || entry.length === 0) continue;
        const record = parseDecision(entry.string());
        if (!record) continue;
        if (record.takenBy === null) {
          this.waiting.delete(record.shipmentId);
          this.waiting.set(record.shipmentId, { station: record.station, decidedAt: Date.parse(record.decidedAt) });
          if (this.waiting.size > max) this.waiting.delete(this.waiting.keys().next().value!);
        } else {
          this.waiting.delete(record.shipmentId);
          this.republished.delete(record.shipmentId);
        }
      }
    })().catch(() => undefined);
  }

  /** How many untaken bookings this relay keeps an eye on (memory, tests). */
  get waitingCount(): number {
    return this.waiting.size;
  }

  /** Moves what has waited too long for an offline station; exposed for tests. */
  async sweep(): Promise<number> {
    if (this.busy) return 0;
    this.busy = true;
    let moved = 0;
    try {
      const afterMs = this.options.afterMs ?? 120_000;
      const now = Date.now();
      const due = [...this.waiting].filter(([, w]) => !(now - w.decidedAt < afterMs));
      if (due.length === 0) return 0;
      const online = await this.options.online.online();
      const rules = await this.options.rules.all();
      for (const [shipmentId, waiting] of due) {
        const stored = await this.options.decisions.get(shipmentId);
        if (!stored || stored.record.takenBy !== null) {
          this.waiting.delete(shipmentId);
          continue;
        }
        const record = stored.record;
        if (online.has(record.station)) {
          // Its station is up yet has not taken it: the publish may have been lost (a move
          // whose publish failed, a server lost mid-publish). Published again, at most every
          // 30 s; the message id makes a repeat that did arrive a no-op, and the taken mark a
          // later one harmless.
          const last = this.republished.get(shipmentId) ?? 0;
          if (now - last >= 30_000) {
            this.republished.set(shipmentId, now);
            if (record.movedFrom && (await this.options.taken.has(shipmentId, record.movedFrom)))
              await this.giveBack(record, stored.revision);
            else await publishDecision(this.options.js, record);
          }
          continue;
        }
        const own = rules.get(record.station)?.fallback ?? null;
        const to = own && online.has(own) ? own : this.options.defaults.find((s) => s !== record.station && online.has(s));
        if (!to || waiting.station !== record.station) continue;
        const next: DecisionRecord = {
          ...record,
          station: to,
          reason: 'fallback',
          why: `${record.station} was offline for ${Math.round(afterMs / 1000)} s; its fallback station prints it`,
          movedFrom: record.station,
        };
        if (!(await this.options.decisions.replace(next, stored.revision))) continue;
        // The decision names `to` now; a mark the first station wrote before it is seen here.
        if (await this.options.taken.has(shipmentId, record.station)) {
          const after = await this.options.decisions.get(shipmentId);
          if (after) await this.giveBack(after.record, after.revision);
          continue;
        }
        await publishDecision(this.options.js, next);
        this.options.logger.warn(`site: booking ${shipmentId} moved from offline ${record.station} to ${to}`);
        this.options.onMoved?.(next);
        moved++;
      }
    } catch (error) {
      if (!this.stopped) this.options.logger.warn(`site: fallback check failed (${String(error)}); trying again`);
    } finally {
      this.busy = false;
    }
    return moved;
  }

  /** The first station had marked it taken: it stays (and is delivered) there. */
  private async giveBack(record: DecisionRecord, revision: number): Promise<void> {
    const from = record.movedFrom;
    if (!from) return;
    const back: DecisionRecord = { ...record, station: from, takenBy: from, takenAt: new Date().toISOString() };
    if (await this.options.decisions.replace(back, revision)) {
      this.waiting.delete(record.shipmentId);
      await publishDecision(this.options.js, back);
    }
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.stopWatch?.();
  }
}
