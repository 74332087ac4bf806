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

/**
 * One delivery of a type the agent acts on: `type` picks its handler (handlers/), `kind`
 * is its short name, `data` its parsed data and `envelope` the whole body.
 */
function eventSchema<const T extends string, const K extends string, D extends z.ZodType>(type: T, kind: K, data: D) {
  return envelopeSchema
    .extend({ type: z.literal(type), data })
    .transform((envelope) => ({ kind, type, envelope, data: envelope.data as z.output<D> }));
}

/**
 * The event types the agent acts on, discriminated on `type`. A new one is a schema here, a
 * handler in handlers/ and its row in that table (which the compiler then demands).
 */
export const knownWebhookSchema = z.discriminatedUnion('type', [
  eventSchema('SHIPMENT_BOOKED', 'booked', shipmentBookedDataSchema),
  eventSchema('TRACKING_EVENT', 'tracking', trackingEventDataSchema),
]);
export type KnownWebhook = z.output<typeof knownWebhookSchema>;
export type WebhookEventType = KnownWebhook['type'];
export type WebhookOf<T extends WebhookEventType> = Extract<KnownWebhook, { readonly type: T }>;

/** A delivery of any other type: acknowledged and counted, not acted on (spec, Versioning). */
export interface OtherWebhook {
  readonly kind: 'other';
  readonly type: string;
  readonly envelope: Envelope;
}

export type ParsedWebhook = KnownWebhook | OtherWebhook;

/** Every event type of the union, read from the schema. */
export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = knownWebhookSchema.options.map((option) => option.in.shape.type.value);
const KNOWN_TYPES: ReadonlySet<string> = new Set(WEBHOOK_EVENT_TYPES);

export const isKnownWebhook = (webhook: ParsedWebhook): webhook is KnownWebhook => webhook.kind !== 'other';

export type ParseWebhookResult = { readonly ok: true; readonly webhook: ParsedWebhook } | { readonly ok: false; readonly error: string };

/**
 * Parses an already JSON-decoded body; the error names the offending field. The envelope is
 * checked first, so a delivery with a broken envelope is refused for that, whatever its type.
 */
export function parseWebhook(body: unknown): ParseWebhookResult {
  const envelope = envelopeSchema.safeParse(body);
  if (!envelope.success) return { ok: false, error: describe(envelope.error) };
  const env = envelope.data;
  if (!KNOWN_TYPES.has(env.type)) return { ok: true, webhook: { kind: 'other', type: env.type, envelope: env } };
  const known = knownWebhookSchema.safeParse(body);
  return known.success ? { ok: true, webhook: known.data } : { ok: false, error: describe(known.error) };
}

function describe(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.map(String).join('.');
      return `${path || '(body)'}: ${issue.message}`;
    })
    .join('; ');
}
