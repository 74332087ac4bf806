import type { LabelLayout, PrinterMedia, Routing } from '../../shared/domain';

export interface Route {
  /** Printer URI. */
  readonly target: string;
  /** `label_layout` to request from the service. */
  readonly layout: LabelLayout;
  /** Media given to the printer; always agrees with `layout` (see mediaForLayout). */
  readonly media: PrinterMedia;
}

/** `printer` is one 4x6 label a page; every other layout is an A4 sheet. */
export function mediaForLayout(layout: LabelLayout): PrinterMedia {
  return layout === 'printer' ? 'label' : 'a4';
}

/**
 * Where a document type prints and in which layout. Labels go to the label printer as
 * 4x6 (`printer`), or in the sheet layout when that printer holds A4. Every other document
 * type goes to the document printer as A4 (the service ignores label_layout for them).
 */
export function routeFor(routing: Routing, documentType: string): Route {
  if (documentType === 'label') {
    const layout: LabelLayout = routing.labelPrinterMedia === 'a4' ? routing.sheetLayout : 'printer';
    return { target: routing.labelPrinter, layout, media: mediaForLayout(layout) };
  }
  return { target: routing.documentPrinter, layout: 'a4', media: 'a4' };
}

/** Document types printed automatically after a booking, label first, no repeats. */
export function autoPrintTypes(routing: Routing): string[] {
  const types = [...new Set(routing.autoPrint)];
  return types.sort((a, b) => (a === 'label' ? -1 : b === 'label' ? 1 : 0));
}
