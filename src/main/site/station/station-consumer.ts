import { AckPolicy, DeliverPolicy, jetstreamManager, type JetStreamClient, type JsMsg } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { BookingNotice } from '../../ledger/booking-notice';
import type { JobSiteDecision } from '../../../shared/domain';
import type { IntakeLogger } from '../../intake/ports';
import { backoffDelay } from '../../retry/backoff';
import { SITE_CONSUMER } from '../../retry/policies';
import type { DecisionRecord, DecisionsBucket } from '../bus/decisions';
import { BOOKINGS_STREAM, stationConsumer, stationSubject } from '../bus/names';
import type { RejectedInput } from '../bus/rejected-input';
import { bookingMessageSchema, parseJson } from '../bus/schemas';
import type { TakenMarks } from '../bus/taken-marks';

/**
 * A station's intake from the site: its durable consumer on its own subject, so bookings
 * decided for it while it was down arrive when it returns. Each booking is taken before it
 * is printed: the station writes its taken mark (in its own name) and then reads the
 * decision again; it prints only when the decision still names it. A relay's fallback move
 * writes the decision first and then looks for the mark, so one of the two always sees the
 * other (taken-marks.ts). A message or decision that does not fit the site's format is
 * terminated (never redelivered) and counted; nothing that can throw runs between the mark
 * and the hand-over to the pipeline, whose ledger makes a redelivery one label.
 */

export interface StationConsumerOptions {
  readonly nc: NatsConnection;
  readonly js: JetStreamClient;
  readonly decisions: DecisionsBucket;
  readonly taken: TakenMarks;
  readonly station: string;
  /** The print pipeline (idempotent per shipment and document type). */
  readonly sink: { submitBooking(notice: BookingNotice): unknown };
  readonly logger: IntakeLogger;
  readonly rejected: RejectedInput;
  /** This station took a booking (after it was submitted). @default none */
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
  private wake: (() => void) | null = null;

  constructor(private readonly options: StationConsumerOptions) {}

  async start(): Promise<void> {
    await this.ensureConsumer();
    this.running = this.loop(stationConsumer(this.options.station));
  }

  /** Creates this station's durable consumer when the server lacks it (first start, a wiped store, deleted by hand). */
  private async ensureConsumer(): Promise<boolean> {
    const { nc, station } = this.options;
    const jsm = await jetstreamManager(nc);
    const durable = stationConsumer(station);
    const existing = await jsm.consumers.info(BOOKINGS_STREAM, durable).catch(() => null);
    if (existing) return false;
    await jsm.consumers.add(BOOKINGS_STREAM, {
      durable_name: durable,
      filter_subject: stationSubject(station),
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: (this.options.ackWaitMs ?? 30_000) * 1_000_000,
      max_deliver: -1,
    });
    return true;
  }

  /**
   * Pull requests of at most 5 s each, one after another, rather than one long-lived
   * subscription: a cluster that loses the server holding the consumer's leader, or a
   * reconnect to another server, costs at most one request, never a silent stall. A consumer
   * (or stream) that is gone is created again here, within seconds.
   */
  private async loop(durable: string): Promise<void> {
    let failures = 0;
    let lastSaid = '';
    while (!this.stopping) {
      try {
        if (failures > 0 && (await this.ensureConsumer()))
          this.options.logger.warn('site: this station’s consumer was missing on the server; created again');
        const consumer = await this.options.js.consumers.get(BOOKINGS_STREAM, durable);
        while (!this.stopping) {
          const batch = await consumer.fetch({ max_messages: 64, expires: 5_000 });
          this.stopCurrent = () => void batch.stop();
          for await (const message of batch) {
            failures = 0;
            await this.handle(message);
            if (this.stopping) break;
          }
        }
      } catch (error) {
        failures++;
        const text = `site: reading bookings stopped (${String(error)}); trying again`;
        if (!this.stopping && text !== lastSaid) this.options.logger.warn(text);
        lastSaid = text;
      }
      if (!this.stopping) await this.pause(backoffDelay(SITE_CONSUMER, failures - 1));
    }
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private async handle(message: JsMsg): Promise<void> {
    const { decisions, station, logger, rejected } = this.options;
    const parsed = parseJson(bookingMessageSchema, message.string());
    if (!parsed) {
      rejected.reject('booking-message', message.subject);
      message.term();
      return;
    }
    const { shipmentId } = parsed;
    let record: DecisionRecord;
    try {
      const stored = await decisions.get(shipmentId);
      if (!stored) {
        // Malformed (counted by the bucket) or expired: no relay decided this, as far as the site can tell.
        logger.warn(`site: booking ${shipmentId} has no valid decision in the site; not printed here`);
        message.term();
        return;
      }
      if (stored.record.station !== station || (stored.record.takenBy !== null && stored.record.takenBy !== station)) {
        message.ack(); // moved to a fallback station, or taken there: not ours any more
        return;
      }
      await this.options.taken.mark(shipmentId, station);
      // Read again after the mark: a fallback move that wrote first is seen here.
      const again = await decisions.get(shipmentId);
      if (!again || again.record.station !== station) {
        message.ack();
        return;
      }
      record = again.record;
    } catch (error) {
      // The site could not be read or written: the booking comes again.
      logger.warn(`site: booking ${shipmentId} not taken yet (${String(error)}); trying again`);
      message.nak(2_000);
      return;
    }
    // From here to the ack nothing is parsed or computed that could throw on what the bus sent.
    const notice: BookingNotice = { ...record.notice, siteDecision: jobSiteDecision(record) };
    try {
      this.options.sink.submitBooking(notice);
    } catch (error) {
      logger.warn(`site: booking ${shipmentId} not handed to the printer yet (${String(error)}); trying again`);
      message.nak(2_000);
      return;
    }
    message.ack();
    if (record.takenBy === null) logger.info(`site: booking ${shipmentId} prints here: ${record.why}`);
    this.report(record);
  }

  /** Metrics and history; never stops the booking that was already handed over. */
  private report(record: DecisionRecord): void {
    try {
      this.options.onDelivered?.(Math.max(0, Date.now() - Date.parse(record.decidedAt)));
      this.options.onTaken?.({ ...record, takenBy: this.options.station, takenAt: record.takenAt ?? new Date().toISOString() });
    } catch (error) {
      this.options.logger.warn(`site: booking ${record.shipmentId} handed over; its report failed (${String(error)})`);
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.stopCurrent?.();
    this.wake?.();
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
