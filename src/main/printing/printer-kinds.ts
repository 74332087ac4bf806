/**
 * The printer kinds' registry, the main process's half: the one list of kinds, each entry
 * exported by its kind's folder (ipp/, cups/, zpl/, windows/, folder/, service/) and carrying
 * everything about the kind (printer-kind-entry.ts). The kind names and the words the UI shows
 * are the shared half (src/shared/printer-kinds.ts); this list is typed against its
 * PRINTER_KINDS, so a kind there and not here (or here and not there) fails the typecheck.
 * uri.ts, create-target.ts, startup-check.ts, discovery.ts, the job engine's batching and the
 * printer watch only look kinds up here.
 */
import { PRINTER_KINDS, printerKindOfScheme, splitPrinterUri, type PrinterKind } from '../../shared/printer-kinds';
import { cupsKind } from './cups/cups-kind';
import { folderKind } from './folder/folder-kind';
import { ippKind } from './ipp/ipp-kind';
import type { PrinterKindEntry } from './printer-kind-entry';
import { serviceKind } from './service/service-kind';
import { windowsKind } from './windows/windows-kind';
import { zplCupsKind } from './zpl/zpl-cups-kind';
import { zplKind } from './zpl/zpl-kind';
import { zplWindowsKind } from './zpl/zpl-windows-kind';

export type { CreateContext, ParseContext, PrinterKindEntry } from './printer-kind-entry';

export const PRINTER_KIND_REGISTRY = {
  zpl: zplKind,
  cups: cupsKind,
  ipp: ippKind,
  'zpl-cups': zplCupsKind,
  windows: windowsKind,
  'zpl-windows': zplWindowsKind,
  folder: folderKind,
  service: serviceKind,
} satisfies Readonly<Record<PrinterKind, object>>;

/** What a URI of kind K says after `kind:`, taken apart by the kind's parser. */
export type AddressFields<K extends PrinterKind> = ReturnType<(typeof PRINTER_KIND_REGISTRY)[K]['parse']>;

/**
 * One kind's entry, typed by its own address. (Looked up with a union of kinds, the table
 * gives a union of entries, which TypeScript cannot call with a union of addresses.)
 */
export function printerKindEntry<K extends PrinterKind>(kind: K): PrinterKindEntry<AddressFields<K>> {
  return PRINTER_KIND_REGISTRY[kind] as unknown as PrinterKindEntry<AddressFields<K>>;
}

/**
 * Kinds added beside the list at run time: a kind under test, registered by its test only.
 * The list above is the product's; nothing in src/ registers here.
 */
const added = new Map<string, PrinterKindEntry<object>>();

/** Adds a kind beside the list (a test's own kind); returns its removal. */
export function registerPrinterKind(kind: string, entry: PrinterKindEntry<object>): () => void {
  if (Object.hasOwn(PRINTER_KIND_REGISTRY, kind) || added.has(kind)) throw new Error(`printer kind "${kind}" is registered already`);
  added.set(kind, entry);
  return () => void added.delete(kind);
}

/** The entry of a kind by its name (a target's `kind`), or null for a name no entry has. */
export function printerKindFacts(kind: string): PrinterKindEntry<object> | null {
  if (Object.hasOwn(PRINTER_KIND_REGISTRY, kind)) return PRINTER_KIND_REGISTRY[kind as PrinterKind] as PrinterKindEntry<object>;
  return added.get(kind) ?? null;
}

/** Every kind's name: the list's, in its order, then any added beside it. */
export function printerKindNames(): readonly string[] {
  return [...PRINTER_KINDS, ...added.keys()];
}

/** Whether a target of this kind batches its waiting jobs (PrinterKindEntry.batches); unknown kinds do not. */
export function kindBatches(kind: string): boolean {
  return printerKindFacts(kind)?.batches ?? false;
}

/**
 * The least time between two readiness questions to the printer at `uri`
 * (PrinterKindEntry.readinessMinIntervalMs), by its scheme; 0 for a URI no kind reads.
 */
export function readinessMinIntervalOf(uri: string): number {
  const scheme = splitPrinterUri(uri)?.scheme;
  if (scheme === undefined) return 0;
  return printerKindFacts(printerKindOfScheme(scheme) ?? scheme)?.readinessMinIntervalMs ?? 0;
}
