import type { TrackingEventView } from '../../../../../shared/domain';
import { ALERT_EVENTS, alertMessage, type TrackingAlert } from '../alerts';
import type { WebhookOf } from '../envelope';
import { errorText } from '../../../error-text';
import type { TrackingStorePort } from '../../../ports';
import type { HandlerContext, WebhookHandler } from './types';

/**
 * TRACKING_EVENT: stored per shipment (once; ordered by its own event_time, not by arrival),
 * pushed to the UI, and raised as an alert when someone must act on it.
 */

export type TrackingEventWebhook = WebhookOf<'TRACKING_EVENT'>;

export interface TrackingEventOptions {
  /** The tracking store (the ledger). */
  readonly ledger: TrackingStorePort;
  /** A new tracking event was stored (push it to the UI). @default none */
  readonly onTracking?: (shipmentId: string, event: TrackingEventView) => void;
  /** A tracking event someone must act on. @default none */
  readonly onAlert?: (alert: TrackingAlert) => void;
}

export function trackingEventHandler(options: TrackingEventOptions, context: HandlerContext): WebhookHandler<TrackingEventWebhook> {
  const { counters, logger } = context;
  return {
    process: ({ envelope, data }) => {
      const event: TrackingEventView = {
        id: null,
        status: data.event,
        description: data.description ?? null,
        location: data.location ? data.location : null,
        occurredAt: data.event_time ?? envelope.created_at,
        url: null,
      };
      try {
        if (!options.ledger.recordTracking(envelope.shipment_id, event)) return;
        counters.trackingStored++;
        options.onTracking?.(envelope.shipment_id, event);
        if (ALERT_EVENTS.has(data.event)) {
          const base = {
            shipmentId: envelope.shipment_id,
            trackingId: data.tracking_id ?? null,
            event: data.event,
            reason: data.reason ?? null,
            occurredAt: event.occurredAt,
          };
          counters.alerts++;
          options.onAlert?.({ ...base, message: alertMessage(base) });
        }
      } catch (error) {
        counters.processingErrors++;
        logger.error(`intake: tracking event for ${envelope.shipment_id} could not be stored: ${errorText(error)}`);
      }
    },
  };
}
