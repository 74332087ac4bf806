/** A configured webhook endpoint (the spec allows at most 5 per team). */
export interface WebhookEndpoint {
  readonly url: string;
  readonly secret: string;
  /**
   * Subscriptions (spec, Events: `SHIPMENT_BOOKED_APP`, `SHIPMENT_BOOKED_API`, or a tracking
   * event name such as `DELAYED`). Undefined = every event.
   */
  readonly subscriptions?: readonly string[];
}

export type WebhookType = 'SHIPMENT_BOOKED' | 'TRACKING_EVENT';

/** One event to deliver; the dispatcher wraps it in the envelope per endpoint. */
export interface WebhookEvent {
  readonly type: WebhookType;
  /** The subscription name it falls under (`SHIPMENT_BOOKED_API`, `DELAYED`, ...). */
  readonly subscription: string;
  readonly shipmentId: string;
  readonly data: Readonly<Record<string, unknown>>;
}

/** Record of one delivery attempt, for tests and the admin route. */
export interface DeliveryAttempt {
  readonly url: string;
  readonly messageId: string;
  readonly attempt: number;
  readonly status: number | null;
  readonly error: string | null;
  readonly at: string;
}
