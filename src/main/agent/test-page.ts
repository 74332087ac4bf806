/**
 * "Print test label": a page made here, not fetched, so a team lead can check a printer's
 * media and alignment before any shipment is booked (the service only prints documents
 * of booked shipments). Same geometry as the real thing: 4x6 in for label layouts, A4
 * otherwise.
 */
import type { LabelLayout } from '../../shared/domain';

/** Document type of test pages in the ledger; never sent to the service. */
export const TEST_PAGE_TYPE = 'testpage';
/** Shipment id recorded for test pages. */
export const TEST_PAGE_SHIPMENT = 'test-page';

const LABEL: [number, number] = [288, 432];
const A4: [number, number] = [595.28, 841.89];

export async function renderTestPage(layout: LabelLayout, printer: string, at: Date): Promise<Uint8Array> {
  // Loaded on first use: an agent that never prints a test page never holds pdf-lib.
  const { PDFDocument, StandardFonts, rgb } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  doc.setTitle('Print Station test page');
  const [width, height] = layout === 'printer' ? LABEL : A4;
  const page = doc.addPage([width, height]);
  const font = await doc.embedFont(StandardFonts.HelveticaBold);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const margin = 14;
  // A border at the margin shows at a glance whether the printer scales or clips.
  page.drawRectangle({ x: margin, y: margin, width: width - 2 * margin, height: height - 2 * margin, borderColor: rgb(0, 0, 0), borderWidth: 2 });
  page.drawText('Print Station', { x: margin + 10, y: height - margin - 34, size: 22, font });
  page.drawText('Test page', { x: margin + 10, y: height - margin - 58, size: 16, font: regular });
  const lines = [`Printer: ${printer}`, `Layout: ${layout}`, `Page: ${Math.round(width)} x ${Math.round(height)} pt`, `Printed: ${at.toISOString()}`];
  lines.forEach((line, i) => page.drawText(line, { x: margin + 10, y: height - margin - 90 - i * 16, size: 10, font: regular, maxWidth: width - 2 * margin - 20 }));
  return doc.save();
}
