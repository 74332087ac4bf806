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

/** Options of the WebhookDispatcher; every field is optional. */
export interface WebhookDispatcherOptions {
  /**
   * Where events go, at most 5 (spec, Events, Configuration 1).
   * @default []
   */
  readonly endpoints?: readonly WebhookEndpoint[];
  /**
   * How long a receiver has to answer with 2xx before the attempt counts as failed
   * (spec: acknowledge within 3 seconds).
   * @default 3000
   */
  readonly ackTimeoutMs?: number;
  /**
   * Base delay of the first retry; later retries double it, each with jitter that only
   * shortens it, so the first retry comes at most this long after the failure.
   * @default 1000
   */
  readonly firstRetryMs?: number;
  /**
   * Cap on the delay between two attempts.
   * @default 60000
   */
  readonly maxRetryMs?: number;
  /**
   * Attempts per delivery, the first included; then the delivery is dropped.
   * @default 8
   */
  readonly maxAttempts?: number;
  /**
   * Entries kept by `attempts()`, oldest dropped first.
   * @default 10000
   */
  readonly maxLoggedAttempts?: number;
  /**
   * The clock: `created_at` and the signature time of every attempt.
   * @default () => new Date()
   */
  readonly now?: () => Date;
  /**
   * Called after every attempt (for logs and the admin route).
   * @default undefined
   */
  readonly onAttempt?: (attempt: DeliveryAttempt) => void;
}
