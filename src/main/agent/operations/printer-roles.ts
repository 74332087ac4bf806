import { isSheetMedia, type ConfiguredPrinter, type PrinterMedia, type Routing } from '../../../shared/domain';

export type PrinterRole = ConfiguredPrinter['roles'][number];

/**
 * What a configured printer is for, the one rule listPrinters and listConfiguredPrinters
 * both give. The label and document printer settings say it for the printers they name,
 * whatever media those hold: that is where labels and documents go when no rule says
 * otherwise (routing.ts), so a document printer loaded with label stock is a document
 * printer. Only a printer neither setting names (listed for rules and defaults) is
 * judged by its media: label stock takes labels, sheets take documents.
 */
export function printerRoles(routing: Pick<Routing, 'labelPrinter' | 'documentPrinter'>, uri: string, media: PrinterMedia): PrinterRole[] {
  const { labelPrinter, documentPrinter } = routing;
  if (uri !== labelPrinter && uri !== documentPrinter) return isSheetMedia(media) ? ['document'] : ['label'];
  // One printer may be both (the demo's folder): it gets labels and documents.
  return [...(uri === labelPrinter ? (['label'] as const) : []), ...(uri === documentPrinter ? (['document'] as const) : [])];
}
