/**
 * The names a site uses on its NATS server, in one place: the bookings stream and its
 * subjects, the KV buckets, and how a station name or a scanned text becomes a subject
 * token or a key (NATS allows neither spaces nor dots there, so both are base64url).
 */

/** The stream every relay publishes decided bookings to. */
export const BOOKINGS_STREAM = 'SITE_BOOKINGS';
/** `site.booking.<station token>`: one subject per station, read by its durable consumer. */
export const BOOKING_SUBJECT_PREFIX = 'site.booking';
/** Who prints which booking (one entry per shipment, created once: the site's decision). */
export const DECISIONS_BUCKET = 'site-decisions';
/** Scan claims: scanned text → the station that scanned it, for the claim's minutes. */
export const CLAIMS_BUCKET = 'site-claims';
/** Each station's heartbeat: printers, queue, last print, failures. */
export const STATIONS_BUCKET = 'site-stations';
/** Each station's routing rules and fallback station, editable from any station. */
export const RULES_BUCKET = 'site-rules';

/** base64url without padding: only [A-Za-z0-9_-], valid in subjects, consumer names and KV keys. */
export function token(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

export function fromToken(value: string): string {
  return Buffer.from(value, 'base64url').toString('utf8');
}

export function stationSubject(station: string): string {
  return `${BOOKING_SUBJECT_PREFIX}.${token(station)}`;
}

/** The durable consumer a station reads its bookings with; survives the station's restarts. */
export function stationConsumer(station: string): string {
  return `station-${token(station)}`;
}
