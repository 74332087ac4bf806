import type { BookingNotice } from '../../../../ledger/booking-notice';
import { createDispatchers, type DispatchResult } from '../../../booking-dispatch';
import type { WebhookOf } from '../envelope';
import { errorText } from '../../../error-text';
import { handOffLedgerFailure } from '../../../ledger-outage';
import { BookingDeferredError } from '../../../errors';
import { PendingDecisions, type DecisionRetryOptions, type PendingBookingPort } from '../pending-decisions';
import type { BookingSinkPort, MessageLedgerPort, ShipmentIndexPort, ShipmentSourcePort, StationRulesSource } from '../../../ports';
import type { HandlerContext, WebhookHandler } from './types';

/**
 * SHIPMENT_BOOKED: stored with its message_id before the 2xx (a crash after the answer loses
 * nothing: pending-decisions.ts decides it at the next start), then decided by the station
 * rules and submitted one after another. Deliveries are not held to be put in booked_at
 * order: the engine keeps each printer's line in booked_at order, the one place that orders.
 */

export type ShipmentBookedWebhook = WebhookOf<'SHIPMENT_BOOKED'>;

export interface ShipmentBookedOptions {
  /**
   * Dedup store (the ledger); its `upsertShipment`, when present, indexes bookings for scans,
   * and its pending-booking methods keep each booking from before the 2xx until decided.
   */
  readonly ledger: MessageLedgerPort & Partial<ShipmentIndexPort> & Partial<PendingBookingPort>;
  readonly sink: BookingSinkPort;
  readonly stationRules: StationRulesSource;
  /** Fetches sender_reference/system when station rules need them. @default none */
  readonly shipments?: Pick<ShipmentSourcePort, 'getShipment'>;
  /** Backoff of a booking whose decision is put off (its shipment could not be fetched). @default { baseMs: 2000, maxMs: 300000 } */
  readonly decisionRetry?: DecisionRetryOptions;
  /** A booking went through the station rules. @default none */
  readonly onBooking?: (result: DispatchResult) => void;
  /**
   * A booking recorded but not submitted because the ledger cannot take writes (disk full):
   * the agent says so once (ledger-outage.ts); it is kept and tried again, with no line per
   * booking and try. @default none (a line each)
   */
  readonly onLedgerFailure?: (error: unknown) => void;
}

export function shipmentBookedHandler(options: ShipmentBookedOptions, context: HandlerContext): WebhookHandler<ShipmentBookedWebhook> {
  const { ledger } = options;
  const { counters, logger, now } = context;
  const index: ShipmentIndexPort | undefined = ledger.upsertShipment ? { upsertShipment: (s) => ledger.upsertShipment!(s) } : undefined;
  const { dispatch, now: dispatchNow } = createDispatchers({
    stationRules: options.stationRules,
    sink: options.sink,
    shipments: options.shipments,
    index,
    onLedgerFailure: options.onLedgerFailure,
    logger,
  });
  // Bookings are dispatched one after another: a dispatch may first fetch the shipment
  // (station rules on sender_reference/system), and concurrent fetches would undo the
  // order in which they were delivered and decided.
  let chain: Promise<void> = Promise.resolve();
  const decided = (result: DispatchResult): void => {
    const { notice } = result;
    if (result.print) counters.bookingsSubmitted++;
    else counters.bookingsSkipped++;
    logger.info(`intake: booking ${notice.shipmentId} ${result.print ? 'submitted' : 'not printed'}: ${result.why}`);
    options.onBooking?.(result);
  };
  const decideOne = (notice: BookingNotice, data: unknown): Promise<void> =>
    dispatch(notice, data).then(
      (result) => {
        pending.decided(notice.shipmentId);
        decided(result);
      },
      (error: unknown) => {
        // Put off or not submitted (the ledger could not be written): kept, tried again.
        const told = handOffLedgerFailure(error, options.onLedgerFailure);
        if (error instanceof BookingDeferredError) counters.bookingsDeferred++;
        else {
          counters.processingErrors++;
          if (!told) logger.error(`intake: booking ${notice.shipmentId} could not be submitted: ${errorText(error)}`);
        }
        pending.putOff(notice, data, error, told);
      },
    );
  /**
   * Bookings released together are decided together when the sink can: indexed, submitted
   * and taken off the pending list in one ledger transaction (one commit instead of three a
   * booking). Any that needs its shipment fetched first, or a transaction that fails, and
   * the rest go one by one as before, each kept and tried again on its own.
   */
  const decideGroup = async (items: ReadonlyArray<{ notice: BookingNotice; data: unknown }>): Promise<void> => {
    const sink = options.sink;
    let rest = items;
    if (items.length > 1 && sink.together) {
      const results: DispatchResult[] = [];
      try {
        sink.together(() => {
          for (const { notice, data } of items) {
            const result = dispatchNow(notice, data);
            if (!result) break;
            ledger.removePendingBooking?.(notice.shipmentId);
            results.push(result);
          }
        });
      } catch {
        results.length = 0; // nothing of it was written
      }
      for (const result of results) {
        pending.forget(result.notice.shipmentId);
        decided(result);
      }
      rest = items.slice(results.length);
    }
    for (const { notice, data } of rest) await decideOne(notice, data);
  };
  let releasing: Array<{ notice: BookingNotice; data: unknown }> = [];
  const dispatchInOrder = (notice: BookingNotice, data: unknown): void => {
    releasing.push({ notice, data });
    // What is released in one go (the deliveries of one commit) is decided as one group.
    if (releasing.length === 1) queueMicrotask(decideReleased);
  };
  const decideReleased = (): void => {
    if (releasing.length === 0) return;
    const items = releasing;
    releasing = [];
    chain = chain.then(() => decideGroup(items));
  };
  const pending = new PendingDecisions({ ...options.decisionRetry, store: ledger, redispatch: dispatchInOrder, logger, now });

  return {
    remember: (webhook) =>
      ledger.rememberBooking
        ? ledger.rememberBooking(webhook.envelope.message_id, bookingNotice(webhook), webhook.data)
        : ledger.rememberMessage(webhook.envelope.message_id),
    process: (webhook) => {
      const notice = bookingNotice(webhook);
      dispatchInOrder(notice, webhook.data);
    },
    start: () => pending.resume(),
    close: async () => {
      decideReleased();
      pending.close();
      await chain;
    },
  };
}

function bookingNotice({ envelope, data }: ShipmentBookedWebhook): BookingNotice {
  return {
    shipmentId: envelope.shipment_id,
    referenceId: data.reference_id ?? null,
    trackingId: data.tracking_id ?? null,
    carrier: data.carrier ?? null,
    source: data.source ?? null,
    senderReference: null,
    system: null,
    bookedAt: data.booked_at ?? envelope.created_at,
    trigger: 'webhook',
  };
}
