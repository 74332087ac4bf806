import type { HandlerContext, WebhookHandlerTable } from './types';
import { shipmentBookedHandler, type ShipmentBookedOptions } from './shipment-booked';
import { trackingEventHandler, type TrackingEventOptions } from './tracking-event';

/**
 * The webhook handler table: one row per event type of the envelope union (envelope.ts),
 * which the compiler demands. A new event type adds its schema there, its handler file here,
 * its row below and its options to `WebhookHandlersOptions` (the webhook server's options
 * take them from here).
 */

export type WebhookHandlersOptions = ShipmentBookedOptions & TrackingEventOptions;

export function createWebhookHandlers(options: WebhookHandlersOptions, context: HandlerContext): WebhookHandlerTable {
  return {
    SHIPMENT_BOOKED: shipmentBookedHandler(options, context),
    TRACKING_EVENT: trackingEventHandler(options, context),
  };
}

export { webhookRouter, type WebhookRouter } from './route';
export { newHandlerCounters, type HandlerContext, type HandlerCounters, type WebhookHandler, type WebhookHandlerTable } from './types';
