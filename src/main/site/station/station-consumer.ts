import { AckPolicy, DeliverPolicy, jetstreamManager, type JetStreamClient, type JsMsg } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { BookingNotice } from '../../ledger/booking-notice';
import type { JobSiteDecision } from '../../../shared/domain';
import type { IntakeLogger } from '../../intake/ports';
import type { DecisionRecord, DecisionsBucket } from '../bus/decisions';
import { BOOKINGS_STREAM, stationConsumer, stationSubject } from '../bus/names';

/**
 * A station's intake from the site: its durable consumer on its own subject, so bookings
 * decided for it while it was down arrive when it returns. Each booking is taken before it
 * is printed: `takenBy` is written at the revision read, so a fallback move racing it makes
 * one of the two lose, and a booking moved away (or taken elsewhere) is acknowledged and
 * left. The pipeline's ledger makes a redelivery (a crash between submit and ack) one label.
 */

export interface StationConsumerOptions {
  readonly nc: NatsConnection;
  readonly js: JetStreamClient;
  readonly decisions: DecisionsBucket;
  readonly station: string;
  /** The print pipeline (idempotent per shipment and document type). */
  readonly sink: { submitBooking(notice: BookingNotice): unknown };
  readonly logger: IntakeLogger;
  /** This station took a booking (before it was submitted). @default none */
  readonly onTaken?: (record: DecisionRecord) => void;
  /** A booking arrived for this station; `lagMs` from its decision to now. @default none */
  readonly onDelivered?: (lagMs: number) => void;
  /** Redelivery when not acknowledged in time (the station died mid-booking). @default 30000 */
  readonly ackWaitMs?: number;
}

export class StationConsumer {
  private stopping = false;
  private running: Promise<void> | null = null;
  private stopCurrent: (() => void) | null = null;

  constructor(private readonly options: StationConsumerOptions) {}

  async start(): Promise<void> {
    const { nc, station } = this.options;
    const jsm = await jetstreamManager(nc);
    const durable = stationConsumer(station);
    const config = {
      durable_name: durable,
      filter_subject: stationSubject(station),
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: (this.options.ackWaitMs ?? 30_000) * 1_000_000,
      max_deliver: -1,
    };
    const existing = await jsm.consumers.info(BOOKINGS_STREAM, durable).catch(() => null);
    if (!existing) await jsm.consumers.add(BOOKINGS_STREAM, config);
    this.running = this.loop(durable);
  }

  /**
   * Pull requests of at most 5 s each, one after another, rather than one long-lived
   * subscription: a cluster that loses the server holding the consumer's leader, or a
   * reconnect to another server, costs at most one request, never a silent stall.
   */
  private async loop(durable: string): Promise<void> {
    while (!this.stopping) {
      try {
        const consumer = await this.options.js.consumers.get(BOOKINGS_STREAM, durable);
        while (!this.stopping) {
          const batch = await consumer.fetch({ max_messages: 64, expires: 5_000 });
          this.stopCurrent = () => void batch.stop();
          for await (const message of batch) {
            await this.handle(message);
            if (this.stopping) break;
          }
        }
      } catch (error) {
        if (!this.stopping) this.options.logger.warn(`site: reading bookings stopped (${String(error)}); trying again`);
      }
      if (!this.stopping) await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }

  private async handle(message: JsMsg): Promise<void> {
    const { decisions, station, logger } = this.options;
    let shipmentId: string;
    try {
      shipmentId = message.json<{ shipmentId: string }>().shipmentId;
    } catch {
      message.term();
      return;
    }
    try {
      for (let attempt = 0; attempt < 10; attempt++) {
        const stored = await decisions.get(shipmentId);
        if (!stored) {
          logger.warn(`site: booking ${shipmentId} has no decision in the site (expired?); not printed here`);
          message.ack();
          return;
        }
        const { record, revision } = stored;
        if (record.station !== station || (record.takenBy !== null && record.takenBy !== station)) {
          // Moved to a fallback station, or taken there: not ours any more.
          message.ack();
          return;
        }
        let taken = record;
        if (record.takenBy === null) {
          taken = { ...record, takenBy: station, takenAt: new Date().toISOString() };
          if (!(await decisions.replace(taken, revision))) continue; // someone wrote first: read again
        }
        if (record.takenBy === null) logger.info(`site: booking ${shipmentId} prints here: ${record.why}`);
        this.options.onDelivered?.(Math.max(0, Date.now() - Date.parse(record.decidedAt)));
        this.options.onTaken?.(taken);
        this.options.sink.submitBooking({ ...taken.notice, siteDecision: jobSiteDecision(taken) });
        message.ack();
        return;
      }
      message.nak(1_000);
    } catch (error) {
      // The site or the ledger could not be written: the booking comes again.
      logger.warn(`site: booking ${shipmentId} not taken yet (${String(error)}); trying again`);
      message.nak(2_000);
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.stopCurrent?.();
    await this.running?.catch(() => undefined);
  }
}

/** What this station's jobs keep of the site's decision, for its history. */
export function jobSiteDecision(record: DecisionRecord): JobSiteDecision {
  return {
    station: record.station,
    reason: record.reason,
    at: record.reason === 'claim' && record.claim ? record.claim.at : record.decidedAt,
    code: record.claim?.code ?? null,
    movedFrom: record.movedFrom ?? null,
    why: record.why,
  };
}
