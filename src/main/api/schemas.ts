/**
 * zod schemas for every request and response of the Shipment Booking Service, and the
 * types inferred from them. Split by resource under ./schema; import from here.
 * Webhook envelopes are intake's (src/main/intake), not here.
 */
export * from './schema/common';
export * from './schema/party';
export * from './schema/shipment';
export * from './schema/tracking';
export * from './schema/rates';
export * from './schema/booking';
export * from './schema/reference';
