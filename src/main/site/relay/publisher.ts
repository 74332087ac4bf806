import type { JetStreamClient, PubAck } from '@nats-io/jetstream';
import type { StationRules } from '../../../shared/domain';
import type { BookingNotice } from '../../ledger/booking-notice';
import { BookingDeferredError } from '../../intake/errors';
import type { BookingSinkPort, IntakeLogger, ShipmentSourcePort } from '../../intake/ports';
import { rulesNeedShipmentDetails } from '../../intake/station-rules';
import type { ClaimsBucket } from '../bus/claims';
import { bookingCodes, decideStation } from '../bus/decision';
import type { DecisionRecord, DecisionsBucket } from '../bus/decisions';
import { stationSubject } from '../bus/names';
import type { OnlineStations } from '../bus/presence';
import type { SiteRules } from '../bus/site-rules';

/**
 * The relay's sink: what the webhook server and the poller would hand the print pipeline,
 * the relay decides for the site and publishes instead. Decided once (decisions bucket,
 * create-once), published with a message id (JetStream drops a second relay's copy within
 * the duplicate window; beyond it, the station's own ledger keeps it to one label). A
 * throw leaves the booking with intake, which tries again (webhook: kept pending; poll:
 * the mark stays).
 */

export interface SitePublisherOptions {
  readonly js: JetStreamClient;
  readonly decisions: DecisionsBucket;
  readonly claims: ClaimsBucket;
  readonly rules: SiteRules;
  readonly online: OnlineStations;
  /**
   * `--default-station`, in order. Empty: a booking that no scan claim and no station rule
   * decides is not published; it waits with intake (tried again at each poll / webhook
   * retry) until a scan claims it or a rule takes it. @default none
   */
  readonly defaults: readonly string[];
  /** Fetches sender_reference/system when a station's rules look at them. @default none */
  readonly shipments?: Pick<ShipmentSourcePort, 'getShipment'>;
  readonly logger: IntakeLogger;
  /** The bookings waiting for a station (no claim, no rule, no default) changed. @default none */
  readonly onWaiting?: (shipmentIds: readonly string[]) => void;
  /** A booking was published (after its decision); `ack`: where the stream stored it. @default none */
  readonly onPublished?: (record: DecisionRecord, fresh: boolean, ack: PubAck) => void;
  /** @default Date.now */
  readonly now?: () => number;
  /**
   * Until when deciding waits (a site set up again after its server lost its store: the
   * stations write their heartbeats and rules back first). @default never
   */
  readonly holdUntil?: () => number;
}

export class SitePublisher implements BookingSinkPort {
  /** Bookings nothing decides yet (no default station), by shipment id: warned once each. */
  private readonly waiting = new Map<string, BookingNotice>();

  constructor(private readonly options: SitePublisherOptions) {}

  /** Shipment ids of the bookings waiting for a scan claim or a station rule. */
  waitingBookings(): string[] {
    return [...this.waiting.keys()];
  }

  async submitBooking(incoming: BookingNotice): Promise<void> {
    if ((this.options.holdUntil?.() ?? 0) > (this.options.now ?? Date.now)()) {
      throw new BookingDeferredError(
        `the site was set up again moments ago: booking ${incoming.shipmentId} is decided once the stations have written their rules back`,
      );
    }
    // Decided, then created once: a booking decided before (another relay, a retry) keeps that
    // decision, and a fresh one costs no read first.
    const record = await this.decide(incoming);
    if (!record) {
      this.wait(incoming);
      throw new BookingDeferredError(
        `no scan claim, no station rule and no --default-station decide booking ${incoming.shipmentId}` +
          `${incoming.referenceId ? ` (${incoming.referenceId})` : ''}: it waits at the relay; ` +
          'scan its reference at the station that should print it, or start the relay with --default-station NAME',
      );
    }
    if (this.waiting.delete(incoming.shipmentId)) this.options.onWaiting?.(this.waitingBookings());
    const stored = await this.options.decisions.decideOnce(record);
    const fresh = stored.record === record;
    const ack = await publishDecision(this.options.js, stored.record);
    if (fresh) this.options.logger.info(`site: booking ${incoming.shipmentId} goes to ${stored.record.station}: ${stored.record.why}`);
    this.options.onPublished?.(stored.record, fresh, ack);
  }

  private wait(notice: BookingNotice): void {
    if (this.waiting.has(notice.shipmentId)) return;
    this.waiting.set(notice.shipmentId, notice);
    // A relay that runs for days without a default station must not grow without bound.
    if (this.waiting.size > 10_000) this.waiting.delete(this.waiting.keys().next().value!);
    this.options.logger.warn(
      `site: booking ${notice.shipmentId}${notice.referenceId ? ` (${notice.referenceId})` : ''} waits: no scan claim, ` +
        'no station rule and no --default-station decide it; scan its reference at the station that should print it',
    );
    this.options.onWaiting?.(this.waitingBookings());
  }

  /** null: nothing decides it (no claim, no rule, and the relay has no default station). */
  private async decide(incoming: BookingNotice): Promise<DecisionRecord | null> {
    const { claims, rules, online, defaults } = this.options;
    const all = await rules.all();
    const byStation = new Map<string, StationRules>([...all].map(([station, value]) => [station, value.rules]));
    const notice = await this.withDetails(incoming, [...byStation.values()]);
    const [onlineNow, found] = await Promise.all([online.online(), claims.find(bookingCodes(notice))]);
    const decision = decideStation(notice, { claims: found, rules: byStation, defaults, online: (s) => onlineNow.has(s) });
    if (!decision) return null;
    return {
      ...decision,
      shipmentId: notice.shipmentId,
      notice,
      decidedAt: new Date((this.options.now ?? Date.now)()).toISOString(),
      takenBy: null,
      takenAt: null,
    };
  }

  /** A webhook booking lacks sender_reference and system: fetched when some station's rules read them. */
  private async withDetails(notice: BookingNotice, rules: readonly StationRules[]): Promise<BookingNotice> {
    const getShipment = this.options.shipments?.getShipment;
    if (!getShipment || notice.senderReference !== null || notice.system !== null) return notice;
    if (!rules.some(rulesNeedShipmentDetails)) return notice;
    const shipment = await getShipment(notice.shipmentId);
    return {
      ...notice,
      senderReference: shipment.sender_reference ?? null,
      system: shipment.system ?? null,
      referenceId: notice.referenceId ?? shipment.reference_id ?? null,
    };
  }
}

/**
 * Publishes the booking to its station's subject; the id makes a repeat (a second relay, a
 * retry) a no-op. `again`: a new id, for a message the stream no longer holds.
 */
export async function publishDecision(js: JetStreamClient, record: DecisionRecord, again?: string): Promise<PubAck> {
  return js.publish(stationSubject(record.station), JSON.stringify({ shipmentId: record.shipmentId }), {
    msgID: `${record.shipmentId}@${record.station}${again ? `#${again}` : ''}`,
  });
}
