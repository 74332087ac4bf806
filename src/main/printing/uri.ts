import { PRINTER_KINDS, printerKindOfScheme, printerUriPrefix, splitPrinterUri, type PrinterKind } from '../../shared/printer-kinds';
import { PRINT_ERROR_CODES, PrintError } from './errors';
import { PRINTER_KIND_REGISTRY, printerKindEntry, type AddressFields } from './printer-kinds';

/** A printer URI (docs/INTERFACES.md, Printer URIs) taken apart: its kind and what its kind's parser read. */
export type PrinterAddress = { readonly [K in PrinterKind]: { readonly kind: K } & AddressFields<K> }[PrinterKind];

/** Every form of every kind, in the kinds' order: `cups:QUEUE`, `cups:QUEUE@HOST:PORT`, `windows:PRINTER NAME`, … */
export const VALID_PRINTER_URI_FORMS: readonly string[] = PRINTER_KINDS.flatMap((kind) => PRINTER_KIND_REGISTRY[kind].forms);

function invalid(uri: string, why: string): PrintError {
  return new PrintError(
    PRINT_ERROR_CODES.INVALID_PRINTER_URI,
    `Printer "${uri}" is not a valid printer URI (${why}). Use one of: ${VALID_PRINTER_URI_FORMS.join(', ')}.`,
    { target: uri },
  );
}

/**
 * Parses a printer URI with its kind's parser (src/main/printing/printer-kinds.ts). `folder:`
 * paths are resolved against `cwd` so the target keeps working when the process changes
 * directory.
 * @throws PrintError INVALID_PRINTER_URI saying which forms are valid.
 */
export function parsePrinterUri(uri: string, cwd: string = process.cwd()): PrinterAddress {
  const parts = splitPrinterUri(uri);
  if (!parts || parts.scheme === '') throw invalid(uri, 'no scheme');
  const { scheme, rest } = parts;
  const kind = printerKindOfScheme(scheme);
  if (!kind) throw invalid(uri, `unknown scheme "${scheme}"`);
  const fail = (why: string): never => {
    throw invalid(uri, why);
  };
  return { kind, ...printerKindEntry(kind).parse(rest, { cwd, fail, scheme }) } as PrinterAddress;
}

/** The canonical URI for an address; `parsePrinterUri(formatPrinterUri(a))` gives `a` back. */
export function formatPrinterUri(address: PrinterAddress): string {
  const entry = printerKindEntry(address.kind);
  return `${entry.scheme ? `${entry.scheme(address)}:` : printerUriPrefix(address.kind)}${entry.format(address)}`;
}
