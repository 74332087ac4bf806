import type { JetStreamClient } from '@nats-io/jetstream';
import type { IntakeLogger } from '../../intake/ports';
import type { DecisionRecord, DecisionsBucket } from '../bus/decisions';
import { publishDecision } from './publisher';
import type { OnlineStations } from '../bus/presence';
import type { SiteRules } from '../bus/site-rules';

/**
 * A station that is down gets its bookings when it returns (its durable consumer). After
 * `afterMs`, a booking still not taken by its offline station goes to that station's
 * fallback (its entry in the rules bucket), else to the first online default station: the
 * decision is rewritten at the revision read, so the station coming back at that moment and
 * this move cannot both win. Runs in the relay; with two relays both try and one wins.
 */

export interface FallbackMoverOptions {
  readonly js: JetStreamClient;
  readonly decisions: DecisionsBucket;
  readonly rules: SiteRules;
  readonly online: OnlineStations;
  readonly defaults: readonly string[];
  /** How long a booking waits for its offline station. @default 120000 */
  readonly afterMs?: number;
  /** How often waiting bookings are looked at. @default 2000 */
  readonly intervalMs?: number;
  readonly logger: IntakeLogger;
  readonly onMoved?: (record: DecisionRecord) => void;
}

export class FallbackMover {
  /** Decisions not yet taken, by shipment id (from the bucket's watch). */
  private readonly waiting = new Map<string, DecisionRecord>();
  private timer: NodeJS.Timeout | null = null;
  private stopWatch: (() => void) | null = null;
  private busy = false;
  /** When each waiting booking was last published again (see sweep). */
  private readonly republished = new Map<string, number>();

  constructor(private readonly options: FallbackMoverOptions) {}

  async start(): Promise<void> {
    const watch = await this.options.decisions.kv.watch();
    this.stopWatch = () => watch.stop();
    void (async () => {
      for await (const entry of watch) {
        if (entry.operation !== 'PUT' || entry.length === 0) continue;
        const record = entry.json<DecisionRecord>();
        if (record.takenBy === null) this.waiting.set(record.shipmentId, record);
        else {
          this.waiting.delete(record.shipmentId);
          this.republished.delete(record.shipmentId);
        }
      }
    })().catch(() => undefined);
    this.timer = setInterval(() => void this.sweep(), this.options.intervalMs ?? 2_000);
    this.timer.unref();
  }

  /** Moves what has waited too long for an offline station; exposed for tests. */
  async sweep(): Promise<number> {
    if (this.busy) return 0;
    this.busy = true;
    let moved = 0;
    try {
      const afterMs = this.options.afterMs ?? 120_000;
      const now = Date.now();
      const due = [...this.waiting.values()].filter((r) => now - Date.parse(r.decidedAt) >= afterMs);
      if (due.length === 0) return 0;
      const online = await this.options.online.online();
      const rules = await this.options.rules.all();
      for (const record of due) {
        if (online.has(record.station)) {
          // Its station is up yet has not taken it: the publish may have been lost (a move
          // whose publish failed, a server lost mid-publish). Published again, at most every
          // 30 s; the message id makes a repeat that did arrive a no-op, and the decision's
          // takenBy makes a later one harmless.
          const last = this.republished.get(record.shipmentId) ?? 0;
          if (now - last >= 30_000) {
            this.republished.set(record.shipmentId, now);
            await publishDecision(this.options.js, record);
          }
          continue;
        }
        const own = rules.get(record.station)?.fallback ?? null;
        const to = own && online.has(own) ? own : this.options.defaults.find((s) => s !== record.station && online.has(s));
        if (!to) continue;
        const stored = await this.options.decisions.get(record.shipmentId);
        if (!stored || stored.record.takenBy !== null || stored.record.station !== record.station) continue;
        const next: DecisionRecord = {
          ...stored.record,
          station: to,
          reason: 'fallback',
          why: `${record.station} was offline for ${Math.round(afterMs / 1000)} s; its fallback station prints it`,
          movedFrom: record.station,
        };
        if (!(await this.options.decisions.replace(next, stored.revision))) continue;
        await publishDecision(this.options.js, next);
        this.options.logger.warn(`site: booking ${record.shipmentId} moved from offline ${record.station} to ${to}`);
        this.options.onMoved?.(next);
        moved++;
      }
    } catch (error) {
      this.options.logger.warn(`site: fallback check failed (${String(error)}); trying again`);
    } finally {
      this.busy = false;
    }
    return moved;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.stopWatch?.();
  }
}
