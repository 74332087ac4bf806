import type { WebhookEvent } from './types';

/** The spec's envelope (Events, Envelope), fields in the spec's order. */
export interface WebhookEnvelope {
  readonly message_id: string;
  readonly type: string;
  readonly created_at: string;
  readonly shipment_id: string;
  readonly data: Readonly<Record<string, unknown>>;
}

/** `created_at` is when this message is sent, so each attempt carries its own send time. */
export function buildEnvelope(messageId: string, event: WebhookEvent, sentAt: Date): WebhookEnvelope {
  return {
    message_id: messageId,
    type: event.type,
    created_at: sentAt.toISOString(),
    shipment_id: event.shipmentId,
    data: event.data,
  };
}
