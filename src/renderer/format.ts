/** Formatting in the UI's language (its locale, src/renderer/i18n) and the station's time zone. */
import { isPrinterKind, printerKindOf, splitPrinterUri, type PrinterKind } from '../shared/printer-kinds';
import { locale, t, type MessageKey } from './i18n';

/** Intl formatters are costly to build: one per locale and style, kept. */
const formatters = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();

function dateFormat(style: 'dateTime' | 'time'): Intl.DateTimeFormat {
  const tag = locale();
  const key = `${style}|${tag}`;
  let format = formatters.get(key) as Intl.DateTimeFormat | undefined;
  if (!format) {
    format =
      style === 'dateTime'
        ? new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeStyle: 'short' })
        : new Intl.DateTimeFormat(tag, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
    formatters.set(key, format);
  }
  return format;
}

function numberFormat(style: 'number' | 'kg'): Intl.NumberFormat {
  const tag = locale();
  const key = `${style}|${tag}`;
  let format = formatters.get(key) as Intl.NumberFormat | undefined;
  if (!format) {
    format =
      style === 'kg'
        ? new Intl.NumberFormat(tag, { style: 'unit', unit: 'kilogram', maximumFractionDigits: 3 })
        : new Intl.NumberFormat(tag, { maximumFractionDigits: 3 });
    formatters.set(key, format);
  }
  return format;
}

export function localDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateFormat('dateTime').format(date);
}

export function localTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateFormat('time').format(date);
}

/** A count or measure in the locale's digits (`1 234,5` in Swedish). */
export function localNumber(value: number): string {
  return numberFormat('number').format(value);
}

/** A weight in kilograms (`1.5 kg`, `1,5 kg`); `—` when unknown. */
export function localWeight(kg: number | null | undefined): string {
  return typeof kg === 'number' && Number.isFinite(kg) ? numberFormat('kg').format(kg) : '—';
}

/** `folder:/home/x/prints` → `Folder /home/x/prints`; URIs read better with their kind. */
export function describeTarget(uri: string): string {
  const parts = splitPrinterUri(uri);
  if (!parts) return uri;
  const { scheme, rest } = parts;
  // ipp:// and ipps:// are network addresses: shown whole (the scheme says TLS or not).
  if (printerKindOf(uri) === 'ipp' && rest.startsWith('//')) return `${t('printerKind.ipp')} ${uri}`;
  // `zpl://10.0.0.7` reads as `ZPL printer 10.0.0.7`.
  return `${isPrinterKind(scheme) ? t(`printerKind.${scheme}` as MessageKey) : scheme} ${rest.replace(/^\/\//, '')}`;
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
  return date.toDateString() === now.toDateString() ? dateFormat('time').format(date) : dateFormat('dateTime').format(date);
}

// A 24-hour clock whatever the locale: "printed 09:14" reads the same at every bench.
const clockOnly = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** `09:14`: when a label printed, as a packer says it. */
export function localClock(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : clockOnly.format(date);
}
