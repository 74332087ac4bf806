import { agentMessage } from '../../shared/agent-messages';
import { messageOf } from '../errors';
import type { StationRules } from '../../shared/domain';
import type { BookingNotice } from '../ledger/booking-notice';
import type { BookingSinkPort, IntakeLogger, ShipmentIndexPort, ShipmentSourcePort, StationRulesSource } from './ports';
import { silentLogger } from './ports';
import { BookingDeferredError } from './errors';
import { handOffLedgerFailure } from './ledger-outage';
import { matchesStationRules, rulesNeedShipmentDetails, stationRulesProblem, type RuleDecision } from './station-rules';

/**
 * The one path from "a booking was seen" (webhook or poll) to the pipeline: station rules
 * decide, then `submitBooking`. A SHIPMENT_BOOKED webhook carries no sender_reference or
 * system, so when the rules look at them the shipment is fetched first.
 */

export interface BookingDispatchOptions {
  readonly stationRules: StationRulesSource;
  readonly sink: BookingSinkPort;
  /** Used to fetch sender_reference/system when rules need them. @default none (those rules then do not match webhook bookings) */
  readonly shipments?: Pick<ShipmentSourcePort, 'getShipment'>;
  /** Every booking seen is indexed here, printed or not, so a scan finds it. @default none */
  readonly index?: ShipmentIndexPort;
  /** Called with every decision, for logs and the UI. @default none */
  readonly onDecision?: (notice: BookingNotice, decision: RuleDecision) => void;
  /**
   * The index could not be written because the ledger cannot take writes: the agent says so
   * once (ledger-outage.ts), so no line per booking here. @default none (a line each)
   */
  readonly onLedgerFailure?: (error: unknown) => void;
  /** @default silent */
  readonly logger?: IntakeLogger;
}

export interface DispatchResult extends RuleDecision {
  readonly notice: BookingNotice;
}

/**
 * `data`: what the booking arrived with (webhook data or the listed shipment), kept in the index.
 * Rejects with BookingDeferredError when a webhook booking cannot be decided yet.
 */
export type BookingDispatcher = (notice: BookingNotice, data?: unknown) => Promise<DispatchResult>;

/**
 * The same decision made synchronously, so that several can share one ledger transaction;
 * null, having done nothing, when it cannot be made without fetching the shipment first
 * (then the dispatcher above decides it). Throws what submitBooking throws.
 */
export type ImmediateDispatcher = (notice: BookingNotice, data?: unknown) => DispatchResult | null;

export function createBookingDispatcher(options: BookingDispatchOptions): BookingDispatcher {
  return createDispatchers(options).dispatch;
}

/** Both forms of the dispatcher, sharing the options' rules, index and sink. */
export function createDispatchers(options: BookingDispatchOptions): { dispatch: BookingDispatcher; now: ImmediateDispatcher } {
  const logger = options.logger ?? silentLogger;
  const currentRules = (): StationRules => (typeof options.stationRules === 'function' ? options.stationRules() : options.stationRules);
  const problem = stationRulesProblem(currentRules());
  if (problem) logger.error(`intake: ${problem} Until then that rule matches nothing.`);
  const index = (incoming: BookingNotice, data: unknown): void => {
    if (!options.index) return;
    try {
      const { shipmentId, referenceId, trackingId, carrier, source, bookedAt } = incoming;
      options.index.upsertShipment({ shipmentId, referenceId, trackingId, carrier, source, bookedAt, data: data ?? null });
    } catch (error) {
      if (handOffLedgerFailure(error, options.onLedgerFailure)) return;
      logger.warn(`intake: could not index shipment ${incoming.shipmentId}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const needsFetch = (rules: StationRules, notice: BookingNotice): boolean =>
    rulesNeedShipmentDetails(rules) && notice.senderReference === null && notice.system === null && !!options.shipments?.getShipment;

  const now: ImmediateDispatcher = (notice, data) => {
    const rules = currentRules();
    if (needsFetch(rules, notice)) return null;
    index(notice, data);
    const decision = matchesStationRules(rules, notice);
    options.onDecision?.(notice, decision);
    if (decision.print) options.sink.submitBooking(notice);
    return { ...decision, notice };
  };

  const dispatch: BookingDispatcher = async (incoming, data) => {
    index(incoming, data);
    const rules = currentRules();
    let notice = incoming;
    if (needsFetch(rules, notice)) {
      try {
        const shipment = await options.shipments!.getShipment!(notice.shipmentId);
        notice = {
          ...notice,
          senderReference: shipment.sender_reference ?? null,
          system: shipment.system ?? null,
          referenceId: notice.referenceId ?? shipment.reference_id ?? null,
        };
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        // A webhook lacks these fields: deciding without them would drop the booking for good
        // (the service got its 2xx and will not resend). The caller keeps it and asks again.
        if (notice.trigger === 'webhook') {
          const message = agentMessage('intake.needsShipment', { shipmentId: notice.shipmentId, cause: messageOf(error) });
          throw new BookingDeferredError(message, { cause: error });
        }
        // A polled booking's listing already carried its fields: decide on them.
        logger.warn(`intake: could not fetch shipment ${notice.shipmentId} for station rules: ${why}`);
      }
    }
    const decision = matchesStationRules(rules, notice);
    options.onDecision?.(notice, decision);
    if (decision.print) await options.sink.submitBooking(notice);
    return { ...decision, notice };
  };
  return { dispatch, now };
}
