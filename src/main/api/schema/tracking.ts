/** Tracking events (GET /shipments/{id}/tracking and a shipment's tracking_status). */
import { z } from 'zod';
import { opt, timestamp } from './common';

/** Tracking statuses the spec names (GET tracking and webhooks); the service may add more. */
export const KNOWN_TRACKING_STATUSES = [
  'ORDERED',
  'AWAITING_ACTION',
  'CANCELED',
  'DELAYED',
  'DELIVERED',
  'DELIVERY_FAILURE',
  'IN_TRANSIT',
  'ON_HOLD',
  'OUT_FOR_DELIVERY',
  'OUT_FOR_PICKUP',
  'PICKUP',
  'PICKUP_FAILURE',
  'RETURNED',
] as const;

/** The spec shows the id once as `ID`: accept either spelling and keep `id`. */
function normaliseId(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  if (!('ID' in value)) return value;
  const { ID, ...rest } = value as Record<string, unknown>;
  return 'id' in rest ? rest : { ...rest, id: ID };
}

export const trackingEvent = z.preprocess(
  normaliseId,
  z.looseObject({
    id: opt(z.string()),
    url: opt(z.string()),
    /** See KNOWN_TRACKING_STATUSES. */
    status: z.string(),
    created_at: timestamp,
    description: opt(z.string()),
    location_name: opt(z.string()),
  }),
);

export const trackingEvents = z.array(trackingEvent);

export type TrackingEvent = z.output<typeof trackingEvent>;
