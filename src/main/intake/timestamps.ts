/**
 * RFC 3339 timestamps compared exactly. The service may send up to nanosecond fractions,
 * which `Date` would truncate to milliseconds and so tie events that are in fact ordered.
 */

const FRACTION = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|z|[+-]\d{2}:\d{2})$/;

/** Nanoseconds since the Unix epoch, or null when the text is not an RFC 3339 timestamp. */
export function toEpochNanos(timestamp: string): bigint | null {
  const m = FRACTION.exec(timestamp.trim());
  if (!m) return null;
  const seconds = Date.parse(`${m[1]}${m[3] === 'z' ? 'Z' : m[3]}`);
  if (Number.isNaN(seconds)) return null;
  const fraction = (m[2] ?? '').slice(0, 9).padEnd(9, '0');
  return BigInt(seconds) * 1_000_000n + BigInt(fraction);
}

/** Orders two timestamps; an unparseable one sorts before any valid one. */
export function compareTimestamps(a: string | null, b: string | null): number {
  const x = a === null ? null : toEpochNanos(a);
  const y = b === null ? null : toEpochNanos(b);
  if (x === null || y === null) return x === y ? 0 : x === null ? -1 : 1;
  return x < y ? -1 : x > y ? 1 : 0;
}

export const NANOS_PER_MS = 1_000_000n;

/** An instant as an RFC 3339 UTC timestamp with nanosecond precision. */
export function fromEpochNanos(nanos: bigint): string {
  const ms = nanos / NANOS_PER_MS;
  const iso = new Date(Number(ms)).toISOString(); // 2024-01-01T00:00:00.123Z
  const subMs = (nanos % NANOS_PER_MS).toString().padStart(6, '0');
  return `${iso.slice(0, -1)}${subMs}Z`;
}
