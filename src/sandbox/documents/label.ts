import { concatTransformationMatrix, rgb, type PDFImage, type PDFPage, popGraphicsState, pushGraphicsState } from 'pdf-lib';
import { BARCODE_PNG_SCALE_X } from './barcode';
import type { DocumentFonts } from './fonts';
import { LABEL_HEIGHT, LABEL_WIDTH, type LabelSlot } from './layout';
import { partyLines, referenceLines } from './party';
import type { DocumentPackage, DocumentShipment } from './types';

const MARGIN = 12;
const INNER = LABEL_WIDTH - 2 * MARGIN;
const BARCODE_HEIGHT = 72;
const BLACK = rgb(0, 0, 0);

export interface LabelContent {
  readonly shipment: DocumentShipment;
  readonly package: DocumentPackage;
  /** This parcel's tracking number: the barcode and the number printed under it. */
  readonly trackingId: string;
  /** 1-based unit number within the shipment and the shipment's unit count. */
  readonly unit: number;
  readonly units: number;
  /** Null when the parcel has no tracking number to encode. */
  readonly barcode: PDFImage | null;
}

/**
 * Draws one label in its own 288 x 432 coordinate space, mapped onto the slot with a
 * single transformation so every layout shares the same drawing code.
 */
export function drawLabel(page: PDFPage, slot: LabelSlot, fonts: DocumentFonts, content: LabelContent): void {
  const { shipment } = content;
  const { regular, bold } = fonts;
  page.pushOperators(pushGraphicsState(), concatTransformationMatrix(slot.scale, 0, 0, slot.scale, slot.x, slot.y));

  // A border color without a fill color keeps pdf-lib from filling the frame black.
  page.drawRectangle({ x: 0.5, y: 0.5, width: LABEL_WIDTH - 1, height: LABEL_HEIGHT - 1, borderWidth: 1, borderColor: BLACK });

  const text = (value: string, x: number, y: number, size: number, font = regular, maxWidth = INNER): void => {
    page.drawText(fonts.fit(value, font, size, maxWidth), { x, y, size, font });
  };
  const rule = (y: number): void => {
    page.drawLine({ start: { x: MARGIN, y }, end: { x: LABEL_WIDTH - MARGIN, y }, thickness: 0.75 });
  };

  let y = LABEL_HEIGHT - MARGIN - 14;
  const unitText = `Package ${content.unit} of ${content.units}`;
  const unitWidth = bold.widthOfTextAtSize(unitText, 10);
  text(shipment.carrierName, MARGIN, y, 15, bold, INNER - unitWidth - 8);
  page.drawText(unitText, { x: LABEL_WIDTH - MARGIN - unitWidth, y: y + 3, size: 10, font: bold });
  y -= 13;
  // The shipping date, as carriers print it (the booking's UTC date: README, labels).
  const dateText = `Date: ${shipment.bookedAt.slice(0, 10)}`;
  const dateWidth = regular.widthOfTextAtSize(dateText, 9);
  text(shipment.productName, MARGIN, y, 9, regular, INNER - dateWidth - 8);
  page.drawText(dateText, { x: LABEL_WIDTH - MARGIN - dateWidth, y, size: 9, font: regular });
  y -= 8;
  rule(y);

  y -= 11;
  text('FROM', MARGIN, y, 7, bold);
  for (const line of partyLines(shipment.sender).slice(0, 5)) {
    y -= 9;
    text(line, MARGIN, y, 8);
  }
  y -= 7;
  rule(y);

  y -= 12;
  text('TO', MARGIN, y, 7, bold);
  // A label goes where the goods go: alternative_to when set (spec: Shipment.alternative_to).
  partyLines(shipment.deliveryAddress ?? shipment.receiver)
    .slice(0, 6)
    .forEach((line, index) => {
      y -= index === 0 ? 14 : 12;
      text(line, MARGIN, y, index === 0 ? 12 : 10.5, index === 0 ? bold : regular);
    });
  y -= 8;
  rule(y);

  const details = referenceLines(shipment);
  const pkg = content.package;
  const packageLine = [pkg.weightKg != null ? `${pkg.weightKg} kg` : null, pkg.description].filter(Boolean).join(', ');
  if (packageLine) details.push(`Contents: ${packageLine}`);
  for (const line of details.slice(0, 4)) {
    y -= 10;
    text(line, MARGIN, y, 8);
  }

  const barcodeBottom = 44;
  if (content.barcode) {
    // About 0.7 mm a module when it fits; at most INNER - 24 to keep a quiet zone each side.
    const modules = content.barcode.width / BARCODE_PNG_SCALE_X;
    const width = Math.min(INNER - 24, modules * 2);
    page.drawImage(content.barcode, {
      x: (LABEL_WIDTH - width) / 2,
      y: barcodeBottom,
      width,
      height: BARCODE_HEIGHT,
    });
  }
  const tracking = content.trackingId ? content.trackingId : 'NO TRACKING ID';
  const trackingText = fonts.fit(tracking, bold, 11, INNER);
  page.drawText(trackingText, {
    x: (LABEL_WIDTH - bold.widthOfTextAtSize(trackingText, 11)) / 2,
    y: barcodeBottom - 14,
    size: 11,
    font: bold,
  });
  // A parcel with its own number still names the shipment's, which the booking announced.
  if (content.trackingId && shipment.trackingId && content.trackingId !== shipment.trackingId) {
    text(`Shipment tracking id: ${shipment.trackingId}`, MARGIN, MARGIN + 9, 7);
  }
  text(`Shipment: ${shipment.id}`, MARGIN, MARGIN, 7);

  page.pushOperators(popGraphicsState());
}
