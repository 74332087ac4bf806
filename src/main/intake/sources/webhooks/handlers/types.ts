import type { KnownWebhook, WebhookEventType, WebhookOf } from '../envelope';
import type { IntakeLogger } from '../../../ports';

/**
 * What a webhook handler is: the receiver (webhook-receiver.ts) verifies, parses and
 * acknowledges a delivery knowing nothing of its type; the handler of that type, found in
 * the table (index.ts), says how it is recorded before the 2xx and what is done after.
 * Members are function properties, not methods, so their parameters are checked strictly
 * (strictFunctionTypes): a handler only fits the row of a type it can take.
 */
export interface WebhookHandler<W extends KnownWebhook> {
  /**
   * Before the 2xx: records the delivery durably with its message_id; false when that id was
   * already seen (a redelivery). Throwing answers 500, and the service delivers it again.
   * @default the ledger's `rememberMessage(message_id)`
   */
  readonly remember?: (webhook: W) => boolean;
  /** After the 2xx, off the request: acts on the delivery. Counts and logs its own failures; never throws. */
  readonly process: (webhook: W) => void;
  /** Once the receiver listens: picks up what an earlier run left. @default nothing */
  readonly start?: () => void;
  /** After the receiver closed: finishes what is in hand. @default nothing */
  readonly close?: () => Promise<void>;
}

/** One handler per event type of the envelope union: the compiler refuses a table that misses one. */
export type WebhookHandlerTable = { readonly [T in WebhookEventType]: WebhookHandler<WebhookOf<T>> };

/** What handlers count, beside the receiver's own counters. */
export interface HandlerCounters {
  /** Deliveries of a type the agent does not act on. */
  ignored: number;
  bookingsSubmitted: number;
  bookingsSkipped: number;
  /** Decisions put off (each a failed shipment fetch, retried later). */
  bookingsDeferred: number;
  trackingStored: number;
  alerts: number;
  processingErrors: number;
}

export const newHandlerCounters = (): HandlerCounters => ({
  ignored: 0,
  bookingsSubmitted: 0,
  bookingsSkipped: 0,
  bookingsDeferred: 0,
  trackingStored: 0,
  alerts: 0,
  processingErrors: 0,
});

/** What every handler is built with, beside its own options. */
export interface HandlerContext {
  readonly counters: HandlerCounters;
  readonly logger: IntakeLogger;
  /** Clock in ms. */
  readonly now: () => number;
}
