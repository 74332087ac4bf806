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
/** Each station's routing rules and fallback station (a protected site: each writes only its own). */
export const RULES_BUCKET = 'site-rules';
/** A station's mark that it prints a booking: key `<shipment>.<station>`, written by that station only. */
export const TAKEN_BUCKET = 'site-taken';
/** Every bucket, by its stream's name on the server (`KV_<bucket>`). */
export const ALL_BUCKETS = ['site-decisions', 'site-claims', 'site-stations', 'site-rules', 'site-taken'] as const;

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

/** A claim's key: `<code>.<station>`, so a permission can allow a station its own claims only. */
export function claimKey(code: string, station: string): string {
  return `${token(code)}.${token(station)}`;
}

/** A taken mark's key: `<shipment>.<station>`. */
export function takenKey(shipmentId: string, station: string): string {
  return `${token(shipmentId)}.${token(station)}`;
}

/** The two names of a two-part key, or null when it is not one. */
export function splitKey(key: string): { first: string; station: string } | null {
  const parts = key.split('.');
  if (parts.length !== 2 || parts.some((p) => !/^[A-Za-z0-9_-]+$/.test(p))) return null;
  return { first: fromToken(parts[0]!), station: fromToken(parts[1]!) };
}
