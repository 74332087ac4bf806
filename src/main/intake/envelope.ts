import { z } from 'zod';

/**
 * Webhook bodies (spec, Events: Envelope, SHIPMENT_BOOKED, TRACKING_EVENT). Tolerant as the
 * spec's Versioning asks: unknown fields pass, unknown event types and enum values pass as
 * plain strings; strict on the types of the fields it knows.
 */

/** RFC 3339 with an offset or Z, any fraction up to nanoseconds. */
const rfc3339 = z.iso.datetime({ offset: true });
const isRfc3339 = (value: string): boolean => rfc3339.safeParse(value).success;

/**
 * A timestamp in a delivery that already passed the signature check. A string the agent
 * cannot read becomes null: answering 400 would only make the service retry the same
 * bytes until it gives up, and the booking would be lost to webhooks. A wrong type (not a
 * string) is still refused.
 */
const timestamp = z
  .string()
  .nullish()
  .transform((value) => (value != null && isRfc3339(value) ? value : null));

/** The envelope's send time; unreadable → the time it was received (it only orders events). */
const sentAt = z
  .string()
  .min(1)
  .transform((value) => (isRfc3339(value) ? value : new Date().toISOString()));

export const envelopeSchema = z.looseObject({
  message_id: z.string().min(1),
  type: z.string().min(1),
  created_at: sentAt,
  shipment_id: z.string().min(1),
  data: z.looseObject({}),
});
export type Envelope = z.infer<typeof envelopeSchema>;

export const shipmentBookedDataSchema = z.looseObject({
  carrier: z.string().nullish(),
  product: z.string().nullish(),
  /** `API` or `APP`; other values pass (new sources). */
  source: z.string().nullish(),
  agreement: z.string().nullish(),
  tracking_id: z.string().nullish(),
  reference_id: z.string().nullish(),
  invoice_reference: z.string().nullish(),
  customer_reference: z.string().nullish(),
  booked_at: timestamp,
});
export type ShipmentBookedData = z.infer<typeof shipmentBookedDataSchema>;

export const trackingEventDataSchema = z.looseObject({
  /** `IN_TRANSIT`, `DELIVERED`, ... ; new event names pass. */
  event: z.string().min(1),
  carrier: z.string().nullish(),
  tracking_id: z.string().nullish(),
  reason: z.string().nullish(),
  description: z.string().nullish(),
  location: z.string().nullish(),
  event_time: timestamp,
});
export type TrackingEventData = z.infer<typeof trackingEventDataSchema>;

export type ParsedWebhook =
  | { readonly kind: 'booked'; readonly envelope: Envelope; readonly data: ShipmentBookedData }
  | { readonly kind: 'tracking'; readonly envelope: Envelope; readonly data: TrackingEventData }
  | { readonly kind: 'other'; readonly envelope: Envelope };

export type ParseWebhookResult = { readonly ok: true; readonly webhook: ParsedWebhook } | { readonly ok: false; readonly error: string };

/** Parses an already JSON-decoded body; the error names the offending field. */
export function parseWebhook(body: unknown): ParseWebhookResult {
  const envelope = envelopeSchema.safeParse(body);
  if (!envelope.success) return { ok: false, error: describe(envelope.error) };
  const env = envelope.data;
  if (env.type === 'SHIPMENT_BOOKED') {
    const data = shipmentBookedDataSchema.safeParse(env.data);
    return data.success ? { ok: true, webhook: { kind: 'booked', envelope: env, data: data.data } } : { ok: false, error: describe(data.error, 'data') };
  }
  if (env.type === 'TRACKING_EVENT') {
    const data = trackingEventDataSchema.safeParse(env.data);
    return data.success ? { ok: true, webhook: { kind: 'tracking', envelope: env, data: data.data } } : { ok: false, error: describe(data.error, 'data') };
  }
  return { ok: true, webhook: { kind: 'other', envelope: env } };
}

function describe(error: z.ZodError, prefix?: string): string {
  return error.issues
    .map((issue) => {
      const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
      return `${path || '(body)'}: ${issue.message}`;
    })
    .join('; ');
}
