/**
 * The printer kinds, the half of their registry both sides load: each kind's name (which is
 * also its URI scheme: `cups:QUEUE` is a `cups` printer; `ipps://` is the `ipp` kind over
 * TLS), the words the UI shows for it and its Settings fields (PRINTER_KIND_FIELDS). The main process's registry
 * (src/main/printing/printer-kinds.ts) lists one entry per kind, each in its kind's folder and
 * carrying its fields from here; it is typed against PRINTER_KINDS like the tables below, so a
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

/** A kind's Settings fields: what the printer fields under a printer URI ask for this kind. */
export interface PrinterKindFields {
  /** Offered under "Connected by" among the raw ZPL printer's fields (the renderer's zpl-address.ts). */
  readonly rawZpl: boolean;
  /** What the address field holds: the text after `kind:` (after `//` for a network printer) up to `?`. */
  readonly address: 'host' | 'host-path' | 'queue' | 'printer-name' | 'folder' | 'printer-id';
  /** Whether a resolution is chosen (`?dpi=203|300|600`; none = asked from the printer, else 203). */
  readonly dpi: boolean;
}

/** Each kind's Settings fields; the main process's registry entries carry the same objects. */
export const PRINTER_KIND_FIELDS = {
  zpl: { rawZpl: true, address: 'host', dpi: true },
  cups: { rawZpl: false, address: 'queue', dpi: false },
  'zpl-cups': { rawZpl: true, address: 'queue', dpi: true },
  ipp: { rawZpl: false, address: 'host-path', dpi: false },
  windows: { rawZpl: false, address: 'printer-name', dpi: false },
  'zpl-windows': { rawZpl: true, address: 'printer-name', dpi: true },
  folder: { rawZpl: false, address: 'folder', dpi: false },
  service: { rawZpl: false, address: 'printer-id', dpi: false },
} as const satisfies Readonly<Record<PrinterKind, PrinterKindFields>>;

/**
 * The printer URI a kind's Settings fields make (docs/INTERFACES.md, Printer URIs); null while
 * the address is empty. A network kind's address may be typed with its `kind://` in front.
 */
export function printerUriOf(kind: PrinterKind, address: string, dpi: string): string | null {
  const where = address.trim();
  if (where === '') return null;
  const fields: PrinterKindFields = PRINTER_KIND_FIELDS[kind];
  const query = fields.dpi && dpi ? `?dpi=${dpi}` : '';
  const network = fields.address === 'host' || fields.address === 'host-path';
  return network ? `${kind}://${where.replace(new RegExp(`^${kind}://`), '')}${query}` : `${kind}:${where}${query}`;
}

/** The English words of each kind for the UI's catalog (`printerKind.cups`, `printerKind.cups.completed`): written once, here. */
export const PRINTER_KIND_MESSAGES_EN = Object.fromEntries(
  PRINTER_KINDS.flatMap((kind) => [
    [`printerKind.${kind}`, PRINTER_KIND_WORDS_TABLE[kind].label],
    [`printerKind.${kind}.completed`, PRINTER_KIND_WORDS_TABLE[kind].completed],
  ]),
) as { readonly [K in PrinterKind as `printerKind.${K}` | `printerKind.${K}.completed`]: string };

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
