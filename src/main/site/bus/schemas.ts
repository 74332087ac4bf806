import { z } from 'zod';
import { stationRulesSchema } from '../../../shared/domain';

/**
 * Everything read from the site (a message, a bucket entry) is checked here before it is
 * used: anyone who can write to the server could have written it. Every string has a
 * length limit, so a hostile entry cannot make a status answer or a job list large, and
 * every date is a date. A value that does not fit is set aside by the reader (terminated,
 * counted, logged once a minute: rejected-input.ts), never retried and never trusted.
 */

/** Station names: what `--station-name` takes, and what the server takes as a subject token (base64url of it). */
export const STATION_NAME_MAX = 100;
/** Ids and codes from the service (shipment ids, references, tracking numbers, scanned text). */
export const ID_MAX = 200;
/** Words for people (why a decision was made, a printer's readiness). */
export const WORDS_MAX = 500;

const printable = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    // eslint-disable-next-line no-control-regex
    .refine((text) => !/[\u0000-\u001f\u007f]/.test(text), 'has control characters');

export const stationNameSchema = printable(STATION_NAME_MAX);
export const idSchema = printable(ID_MAX);
const wordsSchema = z.string().max(WORDS_MAX);
export const isoDateSchema = z
  .string()
  .max(40)
  .refine((text) => Number.isFinite(Date.parse(text)), 'is not a date');
const optionalId = idSchema.nullable();

/** Why a station name cannot be used in a site, or null when it can. */
export function stationNameProblem(name: string): string | null {
  const result = stationNameSchema.safeParse(name);
  if (result.success) return null;
  if (name.trim() === '') return 'it is empty';
  if (name.length > STATION_NAME_MAX) return `it has ${name.length} characters; a site takes at most ${STATION_NAME_MAX}`;
  return 'it has control characters (a line break or a tab)';
}

export const bookingMessageSchema = z.object({ shipmentId: idSchema }).strict();
export type BookingMessage = z.infer<typeof bookingMessageSchema>;

export const bookingNoticeSchema = z.object({
  shipmentId: idSchema,
  referenceId: optionalId,
  trackingId: optionalId,
  carrier: optionalId,
  source: optionalId,
  senderReference: optionalId,
  system: optionalId,
  bookedAt: isoDateSchema.nullable(),
  trigger: z.enum(['webhook', 'poll', 'scan']),
});

export const siteClaimSchema = z.object({ code: idSchema, station: stationNameSchema, at: isoDateSchema });

export const decisionRecordSchema = z.object({
  station: stationNameSchema,
  reason: z.enum(['claim', 'rule', 'default', 'fallback']),
  why: wordsSchema,
  claim: siteClaimSchema.optional(),
  shipmentId: idSchema,
  notice: bookingNoticeSchema,
  decidedAt: isoDateSchema,
  takenBy: stationNameSchema.nullable(),
  takenAt: isoDateSchema.nullable(),
  movedFrom: stationNameSchema.optional(),
});

/** A scan claim as stored: the key names the code and the station, the value repeats the station. */
export const storedClaimSchema = z.object({
  station: stationNameSchema,
  at: isoDateSchema,
  minutes: z
    .number()
    .positive()
    .max(24 * 60),
});

/** A station's mark that it takes a booking (its key names the shipment and the station). */
export const takenMarkSchema = z.object({ station: stationNameSchema, at: isoDateSchema });

export const heartbeatSchema = z.object({
  role: z.enum(['station', 'relay']),
  printers: z.array(z.object({ uri: z.string().max(WORDS_MAX), ready: z.boolean(), words: wordsSchema })).max(50),
  queued: z.number().int().min(0).max(10_000_000),
  lastPrint: z.object({ shipmentId: idSchema, reference: optionalId.optional(), at: isoDateSchema }).nullable(),
  failures30m: z.number().int().min(0).max(10_000_000),
});

export const siteStationRulesSchema = z.object({
  rules: stationRulesSchema.refine(
    (rules) =>
      rules.sources.length + rules.carriers.length + rules.matches.length <= 100 &&
      [...rules.sources, ...rules.carriers, ...rules.matches.map((m) => m.pattern)].every((text) => text.length <= ID_MAX),
    'has too many or too long criteria',
  ),
  fallback: stationNameSchema.nullable().catch(null),
});

/** Parses `raw` (JSON text or bytes already decoded) against `schema`; null when it does not fit. */
export function parseJson<T>(schema: z.ZodType<T>, text: string): T | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  const result = schema.safeParse(raw);
  return result.success ? result.data : null;
}
