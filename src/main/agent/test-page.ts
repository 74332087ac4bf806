/**
 * "Print test label": a page made here, not fetched, so a team lead can check a printer's
 * media and alignment before any shipment is booked (the service only prints documents
 * of booked shipments). Same geometry as the real thing: 4x6 in for label layouts, A4
 * otherwise.
 */
import type { PDFFont, PDFPage } from 'pdf-lib';
import type { LabelLayout, Routing } from '../../shared/domain';
import type { PdfFetcher, RouteDecision } from '../jobs/ports';
import { findPrinter, layoutOn, routeFor } from '../printing/routing';
import { loadPdfLib } from '../printing/pdf-lib';

/** Document type of test pages in the ledger; never sent to the service. */
export const TEST_PAGE_TYPE = 'testpage';
/** Shipment id recorded for test pages. */
export const TEST_PAGE_SHIPMENT = 'test-page';

const LABEL: [number, number] = [288, 432];
const A4: [number, number] = [595.28, 841.89];

/**
 * The test page's layout on a printer: what a label looks like there (4x6 on label stock, the
 * sheet layout on sheets), except on a printer given by URI alone that prints only documents
 * (the document printer, not the label printer): that prints A4 pages, so its test page is A4.
 */
export function testPageLayout(routing: Routing, printer: string): LabelLayout {
  const entry = findPrinter(routing, printer);
  const uri = entry?.uri ?? printer;
  const documentsOnly = routeFor(routing, 'waybill').target === uri && routeFor(routing, 'label').target !== uri;
  if (documentsOnly && !entry) return 'a4';
  return layoutOn(entry, 'label');
}

/**
 * The jobs' fetcher with test pages made here: a test page is rendered, never fetched (it
 * names the printer labels route to), and has no shipment to ask the service about.
 */
export function withTestPages(fetcher: PdfFetcher, routing: () => Routing): PdfFetcher {
  const { availableDocuments, canceledAmong } = fetcher;
  return {
    async printFile(request) {
      if (request.document_type !== TEST_PAGE_TYPE) return fetcher.printFile(request);
      return { pdf: await renderTestPage(request.label_layout, routeFor(routing(), 'label').target, new Date()), requestId: null };
    },
    ...(availableDocuments ? { availableDocuments: (shipmentId: string) => availableDocuments.call(fetcher, shipmentId) } : {}),
    ...(canceledAmong
      ? {
          async canceledAmong(shipmentIds: readonly string[], since: Date) {
            const ids = shipmentIds.filter((id) => id !== TEST_PAGE_SHIPMENT);
            return ids.length === 0 ? { canceled: [], requestId: null } : canceledAmong.call(fetcher, ids, since);
          },
        }
      : {}),
  };
}

/** The jobs' route with a test page routed as a label: it shows how labels come out. */
export function routeTestPagesAsLabels(
  route: (documentType: string, carrier?: string | null) => RouteDecision,
): (documentType: string, carrier?: string | null) => RouteDecision {
  return (documentType, carrier) => route(documentType === TEST_PAGE_TYPE ? 'label' : documentType, carrier);
}

export async function renderTestPage(layout: LabelLayout, printer: string, at: Date): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts, rgb } = await loadPdfLib();
  const doc = await PDFDocument.create();
  doc.setTitle('Print Station test page');
  const [width, height] = layout === 'printer' ? LABEL : A4;
  const page = doc.addPage([width, height]);
  const font = await doc.embedFont(StandardFonts.HelveticaBold);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const margin = 14;
  // A border at the margin shows at a glance whether the printer scales or clips.
  page.drawRectangle({
    x: margin,
    y: margin,
    width: width - 2 * margin,
    height: height - 2 * margin,
    borderColor: rgb(0, 0, 0),
    borderWidth: 2,
  });
  page.drawText('Print Station', { x: margin + 10, y: height - margin - 34, size: 22, font });
  page.drawText('Test page', { x: margin + 10, y: height - margin - 58, size: 16, font: regular });
  const lines = [
    `Printer: ${printer}`,
    `Media: ${layout === 'printer' ? '4x6 in label (101.6 x 152.4 mm)' : 'A4 sheet (210 x 297 mm)'}`,
    `Layout: ${layout}`,
    `Page: ${Math.round(width)} x ${Math.round(height)} pt`,
    `Printed: ${at.toISOString()}`,
    'Ruler: every tick 1 mm, numbered every 10 mm. The 50 mm mark must measure 50 mm.',
  ];
  lines.forEach((line, i) =>
    page.drawText(line, { x: margin + 10, y: height - margin - 90 - i * 16, size: 10, font: regular, maxWidth: width - 2 * margin - 20 }),
  );
  drawRuler(page, regular, width, margin);
  return doc.save();
}

const MM = 72 / 25.4;

/**
 * A millimetre ruler along the bottom edge, inside the border: a page printed on the wrong
 * media, or scaled by the driver, shows it at once with a real ruler held against it.
 */
function drawRuler(page: PDFPage, font: PDFFont, width: number, margin: number): void {
  const y = margin + 8;
  const length = Math.floor((width - 2 * margin - 16) / MM);
  const x0 = margin + 8;
  page.drawLine({ start: { x: x0, y }, end: { x: x0 + length * MM, y }, thickness: 0.6 });
  for (let mm = 0; mm <= length; mm++) {
    const tall = mm % 10 === 0 ? 10 : mm % 5 === 0 ? 6 : 3;
    page.drawLine({ start: { x: x0 + mm * MM, y }, end: { x: x0 + mm * MM, y: y + tall }, thickness: 0.5 });
    if (mm % 10 === 0) page.drawText(String(mm), { x: x0 + mm * MM + 1.5, y: y + 11, size: 6, font });
  }
  page.drawText('mm', { x: x0 + length * MM - 12, y: y + 19, size: 6, font });
}
