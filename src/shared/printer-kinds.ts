/**
 * The printer kinds, the half of their registry both sides load: each kind's name (which is
 * also its URI scheme: `cups:QUEUE` is a `cups` printer; `ipps://` is the `ipp` kind over
 * TLS) and the words the UI shows for it.
 * The main process's half (parser, factory, reconcilable, readiness) is
 * src/main/printing/printer-kinds.ts, typed against PRINTER_KINDS like the table below, so a
 * kind added here fails the typecheck until both halves know it.
 */

/** In the order printer URIs are listed to people (docs/INTERFACES.md, Printer URIs). */
export const PRINTER_KINDS = ['zpl', 'ipp', 'cups', 'zpl-cups', 'windows', 'zpl-windows', 'folder', 'service'] as const;
export type PrinterKind = (typeof PRINTER_KINDS)[number];

export interface PrinterKindWords {
  /** The kind in words: names a printer URI's kind (`Folder /srv/prints`) and a printer in the picker. */
  readonly label: string;
  /** What `completed` means on this kind: only a spooler can say a job printed. */
  readonly completed: string;
  /** Its URI forms, short, for the hint under a printer URI field. */
  readonly uriHint: string;
}

export const PRINTER_KIND_WORDS_TABLE = {
  zpl: { label: 'ZPL printer', completed: 'printed (the printer reports it done)', uriHint: 'zpl://HOST' },
  cups: { label: 'CUPS', completed: 'printed (the spooler reports it done)', uriHint: 'cups:QUEUE, cups:QUEUE@HOST' },
  'zpl-cups': { label: 'ZPL on CUPS', completed: 'printed (the spooler reports it done)', uriHint: 'zpl-cups:QUEUE' },
  ipp: { label: 'IPP printer', completed: 'printed (the printer reports it done)', uriHint: 'ipp://HOST/ipp/print, ipps://…' },
  windows: { label: 'Windows', completed: 'handed to the Windows spooler', uriHint: 'windows:NAME' },
  'zpl-windows': { label: 'ZPL on Windows', completed: 'handed to the Windows spooler', uriHint: 'zpl-windows:NAME' },
  folder: { label: 'Folder', completed: 'saved', uriHint: 'folder:DIR' },
  service: { label: 'Service printer', completed: 'accepted by the service printer', uriHint: 'service:ID' },
} as const satisfies Readonly<Record<PrinterKind, PrinterKindWords>>;

/** Every kind's URI forms in one line: `cups:QUEUE, …, folder:DIR or service:ID`. */
export const PRINTER_URI_HINT = PRINTER_KINDS.map((kind) => PRINTER_KIND_WORDS_TABLE[kind].uriHint)
  .join(', ')
  .replace(/, ([^,]*)$/, ' or $1');

/**
 * URI schemes that name a kind other than their own: `ipps://` is an IPP printer reached
 * over TLS.
 */
const SCHEME_KINDS: Readonly<Record<string, PrinterKind>> = { ipps: 'ipp' };

/** The kind a URI scheme names (`ipps` → `ipp`), or null. */
export function printerKindOfScheme(scheme: string): PrinterKind | null {
  if (isPrinterKind(scheme)) return scheme;
  return Object.hasOwn(SCHEME_KINDS, scheme) ? SCHEME_KINDS[scheme]! : null;
}

/** Own keys only: `toString` is not a printer kind. */
export function isPrinterKind(value: string): value is PrinterKind {
  return Object.hasOwn(PRINTER_KIND_WORDS_TABLE, value);
}

/** The URI prefix of a kind: `cups` → `cups:`. */
export function printerUriPrefix(kind: PrinterKind): `${PrinterKind}:` {
  return `${kind}:`;
}

/** A printer URI's scheme and the rest (`cups:Labels` → `cups`, `Labels`); null without a colon. */
export function splitPrinterUri(uri: string): { readonly scheme: string; readonly rest: string } | null {
  const colon = uri.indexOf(':');
  return colon < 0 ? null : { scheme: uri.slice(0, colon), rest: uri.slice(colon + 1) };
}

/** The printer kind a URI names (`cups:Labels` → `cups`), or null for anything else. */
export function printerKindOf(uri: string): PrinterKind | null {
  const scheme = splitPrinterUri(uri)?.scheme;
  return scheme !== undefined ? printerKindOfScheme(scheme) : null;
}
