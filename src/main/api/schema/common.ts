/**
 * Building blocks shared by the request and response schemas.
 *
 * Responses follow the spec's Versioning rule 2: unknown fields pass (loose objects) and
 * enum-like fields are plain strings whose known values are listed beside them, so a value
 * the service adds tomorrow does not break today's agent. Types stay strict: a number
 * where a string belongs fails, and the failure names the field.
 */
import { z } from 'zod';

/**
 * ISO 8601 / RFC 3339 date-time with a zone (`Z` or `±HH:MM`), any fraction length:
 * the service sends nanoseconds (`2026-10-01T09:17:29.754885247Z`).
 */
export const timestamp = z.iso.datetime({ offset: true });

/** Time of day as the spec writes it (`HH:MM:SS`); `HH:MM` and fractions are tolerated. */
export const timeOfDay = z.iso.time();

/**
 * An optional response field. Absent and `null` both mean "no value": services commonly
 * serialise unset optional fields as null, and rejecting that would reject a whole
 * shipment over a field the agent does not need.
 */
export const opt = <T extends z.ZodType>(schema: T) => schema.nullish();

/** A list that is empty when the service omits it. */
export const list = <T extends z.ZodType>(item: T) =>
  z
    .array(item)
    .nullish()
    .transform((value): z.output<T>[] => value ?? []);

/** zod issue path → the spec's field-path notation (`packages[0].weight_kg`). */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? String(segment) : `.${String(segment)}`;
  }
  return out === '' ? '(body)' : out;
}

/** zod issues → `{ "packages[0].weight_kg": ["Invalid input: expected number, received string"] }`. */
export function issuesToFieldErrors(issues: readonly z.core.$ZodIssue[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of issues) {
    const key = formatPath(issue.path);
    (out[key] ??= []).push(issue.message);
  }
  return out;
}
