/** Formatting in the station's own locale and time zone. */
import { PRINTER_KIND_WORDS_TABLE, isPrinterKind, printerKindOf, splitPrinterUri, type PrinterKind } from '../shared/printer-kinds';

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
  const parts = splitPrinterUri(uri);
  if (!parts) return uri;
  const { scheme, rest } = parts;
  return `${isPrinterKind(scheme) ? PRINTER_KIND_WORDS_TABLE[scheme].label : scheme} ${rest}`;
}

/** The printer kind of a URI (`cups:Labels` → `cups`), or null for anything else. */
export function targetKind(uri: string): PrinterKind | null {
  return printerKindOf(uri);
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
