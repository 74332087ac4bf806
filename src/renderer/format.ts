/** Formatting in the station's own locale and time zone. */
import { PRINTER_KIND_WORDS, isPrinterKind } from './words';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const timeOnly = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });

export function localDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}

export function localTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : timeOnly.format(date);
}

/** `folder:/home/x/prints` → `Folder /home/x/prints`; URIs read better with their kind. */
export function describeTarget(uri: string): string {
  const colon = uri.indexOf(':');
  if (colon < 0) return uri;
  const kind = uri.slice(0, colon);
  const rest = uri.slice(colon + 1);
  return `${isPrinterKind(kind) ? PRINTER_KIND_WORDS[kind] : kind} ${rest}`;
}

/** The printer kind of a URI (`cups:Labels` → `cups`), or null for anything else. */
export function targetKind(uri: string): keyof typeof PRINTER_KIND_WORDS | null {
  const kind = uri.slice(0, Math.max(0, uri.indexOf(':')));
  return isPrinterKind(kind) ? kind : null;
}

export function words(value: string): string {
  return value.replaceAll('_', ' ').toLowerCase();
}

/** Today's times without the date (the queue is mostly today); older ones with it. */
export function localWhen(iso: string | null | undefined, now: Date = new Date()): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toDateString() === now.toDateString() ? timeOnly.format(date) : dateTime.format(date);
}

// A 24-hour clock whatever the locale: "printed 09:14" reads the same at every bench.
const clockOnly = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** `09:14`: when a label printed, as a packer says it. */
export function localClock(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : clockOnly.format(date);
}
