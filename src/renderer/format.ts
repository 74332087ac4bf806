/** Formatting in the UI's language (its locale, src/renderer/i18n) and the station's time zone. */
import {
  PRINTER_KINDS,
  PRINTER_KIND_WORDS_TABLE,
  isPrinterKind,
  printerKindOf,
  splitPrinterUri,
  type PrinterKind,
} from '../shared/printer-kinds';
import { language, locale, t, tMaybe, type MessageKey } from './i18n';

/** Intl formatters are costly to build: one per locale and style, kept. */
const formatters = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();

function dateFormat(style: 'dateTime' | 'time'): Intl.DateTimeFormat {
  const tag = locale();
  const key = `${style}|${tag}`;
  let format = formatters.get(key) as Intl.DateTimeFormat | undefined;
  if (!format) {
    format =
      style === 'dateTime'
        ? new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeStyle: 'short', ...clock() })
        : new Intl.DateTimeFormat(tag, { hour: '2-digit', minute: '2-digit', second: '2-digit', ...clock() });
    formatters.set(key, format);
  }
  return format;
}

/**
 * The Nordic languages write a 24-hour clock whatever region the computer names (an `en-US`
 * Windows with the UI in Swedish must not say "3:49 PM"); English follows its locale.
 */
function clock(): { hourCycle?: 'h23' } {
  return language() === 'en' ? {} : { hourCycle: 'h23' };
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

/** Several things in one phrase, as the language joins them: `A, B and C`, `A, B och C`. */
export function listWords(items: readonly string[], type: 'conjunction' | 'disjunction' = 'conjunction'): string {
  return new Intl.ListFormat(locale(), { style: 'long', type }).format(items);
}

/**
 * A price as the locale writes money (`1 234,50 kr`, `€12.50`). The service sends the amount as
 * text (`123.45`, sometimes with its currency): what does not read as a number is shown as sent.
 */
export function localPrice(amount: string, currency: string | null): string {
  const plain = amount.replace(currency ?? '\u0000', '').trim();
  const value = /^-?\d+(\.\d+)?$/.test(plain) ? Number(plain) : Number.NaN;
  if (!Number.isFinite(value) || !currency || !/^[A-Z]{3}$/.test(currency)) {
    return currency && !amount.includes(currency) ? `${amount} ${currency}` : amount;
  }
  try {
    return new Intl.NumberFormat(locale(), { style: 'currency', currency }).format(value);
  } catch {
    return `${amount} ${currency}`;
  }
}

/** The service's `YYYY-MM-DD HH:MM` (the pickup's local time) in the locale's date and clock. */
export function localCutoff(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})/.exec(value);
  if (!match) return value;
  const [, y, mo, d, hh, mm] = match.map(Number) as [number, number, number, number, number, number];
  return dateFormat('dateTime').format(new Date(y, mo - 1, d, hh, mm));
}

/**
 * A printer's name for people: discovery names a folder printer by its URI, which then reads as
 * its kind and place (`Folder ./prints`) like everywhere else.
 */
export function printerName(name: string, uri: string): string {
  return name === uri || name === '' ? describeTarget(uri) : name;
}

/** Every printer kind's URI forms in one line, in the UI's words (`cups:KÖ, … eller service:ID`). */
export function printerUriHint(): string {
  const forms = PRINTER_KINDS.flatMap((kind) => PRINTER_KIND_WORDS_TABLE[kind].uriHint.split(', '));
  const localizedForms = forms.map((form) => form.replace(/\b[A-Z]{2,}\b/g, (part) => tMaybe(`uriPart.${part}`) ?? part));
  return listWords(localizedForms, 'disjunction');
}

/**
 * Carrier and product in one title without saying a word twice: `DHL Express` and
 * `Express Worldwide` read `DHL Express Worldwide`, `Bring` and `Bring Parcel` read `Bring Parcel`.
 */
export function rateTitle(carrier: string, product: string): string {
  // `DB Schenker` and `DB SCHENKERsystem`: the product already names its carrier.
  if (product.trim().toLowerCase().startsWith(carrier.trim().toLowerCase())) return product.trim();
  const c = carrier.trim().split(/\s+/).filter(Boolean);
  const p = product.trim().split(/\s+/).filter(Boolean);
  for (let overlap = Math.min(c.length, p.length); overlap > 0; overlap -= 1) {
    const tail = c
      .slice(c.length - overlap)
      .join(' ')
      .toLowerCase();
    if (tail === p.slice(0, overlap).join(' ').toLowerCase()) return [...c, ...p.slice(overlap)].join(' ');
  }
  return [...c, ...p].join(' ');
}
