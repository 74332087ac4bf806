import { type PDFDocument, type PDFPage, PageSizes } from 'pdf-lib';
import type { DocumentFonts } from './fonts';
import { partyLines, referenceLines } from './party';
import type { DocumentShipment } from './types';

const TITLES: Readonly<Record<string, string>> = {
  label: 'Shipping label',
  waybill: 'Waybill',
  customsinvoice: 'Customs invoice',
  manifest: 'Manifest',
  proofofdelivery: 'Proof of delivery',
  abd: 'Export declaration (ABD)',
  salesinvoice: 'Sales invoice',
};

/** The heading of a document type; a type the sandbox does not know keeps its own name. */
export function documentTitle(documentType: string): string {
  return TITLES[documentType] ?? documentType.toUpperCase();
}

const MARGIN = 50;
const [PAGE_WIDTH, PAGE_HEIGHT] = PageSizes.A4;
const INNER = PAGE_WIDTH - 2 * MARGIN;
const ROW = 14;

/** One A4 page per shipment, more when its package list does not fit. */
export function drawSheet(document: PDFDocument, fonts: DocumentFonts, documentType: string, shipment: DocumentShipment): void {
  const { regular, bold } = fonts;
  const title = documentTitle(documentType);
  let page: PDFPage = document.addPage(PageSizes.A4);
  let y = PAGE_HEIGHT - MARGIN;
  const text = (value: string, x: number, size: number, font = regular, maxWidth = INNER): void => {
    page.drawText(fonts.fit(value, font, size, maxWidth), { x, y, size, font });
  };
  const newPage = (): void => {
    page = document.addPage(PageSizes.A4);
    y = PAGE_HEIGHT - MARGIN;
    text(`${title} (continued) - shipment ${shipment.id}`, MARGIN, 10, bold);
    y -= 2 * ROW;
  };

  y -= 20;
  text(title, MARGIN, 22, bold);
  y -= 2 * ROW;
  const facts: Array<[string, string]> = [
    ['Document type', documentType],
    ['Shipment id', shipment.id],
    ['Tracking id', shipment.trackingId || '-'],
    ['Carrier', shipment.carrierName],
    ['Product', shipment.productName],
    ['Booked at', shipment.bookedAt],
  ];
  for (const [name, value] of facts) {
    text(name, MARGIN, 10, bold, 110);
    text(value, MARGIN + 120, 10, regular, INNER - 120);
    y -= ROW;
  }
  for (const line of referenceLines(shipment)) {
    text(line, MARGIN, 10);
    y -= ROW;
  }

  y -= ROW;
  const top = y;
  const columnWidth = INNER / 2 - 10;
  text('Sender', MARGIN, 11, bold, columnWidth);
  for (const line of partyLines(shipment.sender)) {
    y -= ROW;
    text(line, MARGIN, 10, regular, columnWidth);
  }
  const senderBottom = y;
  y = top;
  text('Receiver', MARGIN + INNER / 2, 11, bold, columnWidth);
  for (const line of partyLines(shipment.receiver)) {
    y -= ROW;
    text(line, MARGIN + INNER / 2, 10, regular, columnWidth);
  }
  if (shipment.deliveryAddress) {
    y -= 2 * ROW;
    text('Delivery address', MARGIN + INNER / 2, 11, bold, columnWidth);
    for (const line of partyLines(shipment.deliveryAddress)) {
      y -= ROW;
      text(line, MARGIN + INNER / 2, 10, regular, columnWidth);
    }
  }
  y = Math.min(y, senderBottom) - 2 * ROW;

  text('Packages', MARGIN, 11, bold);
  y -= ROW;
  shipment.packages.forEach((pkg, index) => {
    if (y < MARGIN) newPage();
    const weight = pkg.weightKg != null ? `${pkg.weightKg} kg` : '-';
    text(`${index + 1}. ${pkg.quantity} x ${pkg.description ?? 'package'}, ${weight} each`, MARGIN, 10);
    y -= ROW;
  });
}
