import { isSheetMedia, type LabelLayout, type PrinterEntry, type PrinterMedia, type Routing } from '../../shared/domain';
import { printerKindOf } from '../../shared/printer-kinds';

export interface Route {
  /** Printer URI. */
  readonly target: string;
  /** `label_layout` to request from the service. */
  readonly layout: LabelLayout;
  /** Media given to the printer; always agrees with `layout` (see mediaOn). */
  readonly media: PrinterMedia;
}

/** Maps a carrier code or name to one key, so a webhook's code and a poll's name match the same rule. */
export type CarrierKey = (codeOrName: string) => string;

const lowerCase: CarrierKey = (value) => value.trim().toLowerCase();

/** `printer` is one 4x6 label a page; every other layout is an A4 sheet. */
export function mediaForLayout(layout: LabelLayout): PrinterMedia {
  return layout === 'printer' ? 'label' : 'a4';
}

/**
 * The station's printers: the configured list, plus the two historical settings
 * (`labelPrinter` with `labelPrinterMedia`/`sheetLayout`, `documentPrinter` on A4) as entries
 * when the list does not name their URI, so a settings file from before the list keeps routing.
 */
export function printersOf(routing: Routing): PrinterEntry[] {
  const list = [...(routing.printers ?? [])];
  const has = (uri: string): boolean => list.some((p) => p.uri === uri);
  if (!has(routing.labelPrinter)) {
    const sheet = routing.labelPrinterMedia === 'a4';
    list.push({
      name: 'Label printer',
      uri: routing.labelPrinter,
      media: sheet ? 'a4' : 'label',
      ...(sheet ? { layout: routing.sheetLayout } : {}),
    });
  }
  if (!has(routing.documentPrinter)) list.push({ name: 'Document printer', uri: routing.documentPrinter, media: 'a4' });
  return list;
}

/**
 * Every printer URI this routing can print to, each once: the label and document printers
 * first, then the listed printers, then URIs a rule, a default or a fallback names without
 * listing them. What the start-up check asks about.
 */
export function routedPrinterUris(routing: Routing): string[] {
  const uris = [routing.labelPrinter, routing.documentPrinter, ...printersOf(routing).map((p) => p.uri)];
  const named = [
    ...(routing.rules ?? []).map((r) => r.printer),
    ...Object.values(routing.defaults ?? {}),
    ...(routing.printers ?? []).flatMap((p) => (p.fallback ? [p.fallback.printer] : [])),
  ];
  for (const ref of named) {
    // A name of a listed printer is already in; anything else that reads as a URI is a printer too.
    if (findPrinter(routing, ref) === null && printerKindOf(ref) !== null) uris.push(ref);
  }
  return [...new Set(uris)];
}

/** The media a printer URI is configured for: its entry's, else 4x6 labels for the label printer; null when not known. */
export function printerMediaOf(routing: Routing, uri: string): PrinterMedia | null {
  return findPrinter(routing, uri)?.media ?? (uri === routing.labelPrinter ? 'label' : null);
}

/** A printer by name or URI; null when neither matches (a bare URI is still printable). */
export function findPrinter(routing: Routing, nameOrUri: string): PrinterEntry | null {
  const printers = printersOf(routing);
  return printers.find((p) => p.uri === nameOrUri) ?? printers.find((p) => p.name === nameOrUri) ?? null;
}

/**
 * The layout a document type is fetched in for a printer: a label on label stock is
 * `printer`; on sheets it is the printer's layout (default `a4`). Other documents are A4
 * pages whatever the printer (the service ignores label_layout for them).
 */
export function layoutOn(printer: PrinterEntry | null, documentType: string): LabelLayout {
  if (documentType !== 'label') return 'a4';
  if (!printer) return 'printer';
  return isSheetMedia(printer.media) ? (printer.layout ?? 'a4') : 'printer';
}

/**
 * The media a job is printed on: the printer's own when it agrees with the layout (label
 * stock for `printer`, A4/Letter for sheets), else what the layout implies (an unlisted URI,
 * or a reprint asked for in another layout).
 */
export function mediaOn(printer: PrinterEntry | null, layout: LabelLayout): PrinterMedia {
  if (!printer) return mediaForLayout(layout);
  const sheet = isSheetMedia(printer.media);
  if (layout === 'printer') return sheet ? 'label' : printer.media;
  return sheet ? printer.media : 'a4';
}

function resolveRoute(routing: Routing, nameOrUri: string, documentType: string): Route {
  const printer = findPrinter(routing, nameOrUri);
  const layout = layoutOn(printer, documentType);
  return { target: printer?.uri ?? nameOrUri, layout, media: mediaOn(printer, layout) };
}

/**
 * Where a document of a carrier prints and in which layout. The first rule whose document
 * types and carriers both match wins; a rule that would send a non-label document to label
 * stock is passed over (a waybill does not fit on a 4x6 label). Then the default for the
 * document type, then `labelPrinter` for labels and `documentPrinter` for the rest.
 * @param carrier a carrier code or name (null: only rules without carriers match)
 * @param carrierKey maps codes and names to one key (the agent's GET /carriers cache). @default lower case
 */
export function routeFor(routing: Routing, documentType: string, carrier: string | null = null, carrierKey: CarrierKey = lowerCase): Route {
  const key = carrier ? carrierKey(carrier) : null;
  for (const rule of routing.rules ?? []) {
    if (rule.documentTypes.length > 0 && !rule.documentTypes.includes(documentType)) continue;
    if (rule.carriers.length > 0 && (key === null || !rule.carriers.some((c) => carrierKey(c) === key))) continue;
    const printer = findPrinter(routing, rule.printer);
    if (documentType !== 'label' && printer && !isSheetMedia(printer.media)) continue;
    return resolveRoute(routing, rule.printer, documentType);
  }
  const fallback = routing.defaults?.[documentType] ?? (documentType === 'label' ? routing.labelPrinter : routing.documentPrinter);
  return resolveRoute(routing, fallback, documentType);
}

/** Document types printed automatically after a booking, label first, no repeats. */
export function autoPrintTypes(routing: Routing): string[] {
  const types = [...new Set(routing.autoPrint)];
  return types.sort((a, b) => (a === 'label' ? -1 : b === 'label' ? 1 : 0));
}

/**
 * The routing as the job engine asks for it (its `route`, `mediaFor`, `autoPrintTypes` and
 * `copies` options), read from `routing()` at every call, so a settings change applies to
 * the next job.
 * @param carrierKey see routeFor. @default lower case
 */
export function liveRouting(routing: () => Routing, carrierKey?: CarrierKey) {
  return {
    route: (documentType: string, carrier?: string | null): Route => routeFor(routing(), documentType, carrier, carrierKey),
    mediaFor: (target: string, layout: LabelLayout): PrinterMedia => mediaOn(findPrinter(routing(), target), layout),
    autoPrintTypes: (): string[] => autoPrintTypes(routing()),
    copies: (): number => routing().copies,
  };
}
