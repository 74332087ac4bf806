import { type PDFDocument, type PDFFont, type PDFPage, PageSizes } from 'pdf-lib';
import { customsTotals, formatCents } from './customs-totals';
import type { DocumentFonts } from './fonts';
import { partyLines, referenceLines } from './party';
import type { DocumentCustoms, DocumentParty, DocumentShipment } from './types';

const MARGIN = 40;
const [PAGE_WIDTH, PAGE_HEIGHT] = PageSizes.A4;
const INNER = PAGE_WIDTH - 2 * MARGIN;
/** Room kept free at the foot of every page for the page footer. */
const BOTTOM = MARGIN + 20;
const ROW = 13;
const TABLE_SIZE = 8.5;
/** Line height of the second and later lines of a wrapped table cell. */
const WRAPPED_ROW = 10;
const MAX_CELL_LINES = 3;

interface Column {
  readonly title: string;
  readonly width: number;
  readonly align: 'left' | 'right';
}

/** The item table; the widths add up to the A4 text width. */
const COLUMNS: readonly Column[] = [
  { title: '#', width: 16, align: 'left' },
  { title: 'Description', width: 120, align: 'left' },
  { title: 'Material', width: 62, align: 'left' },
  { title: 'HS code', width: 58, align: 'left' },
  { title: 'Origin', width: 36, align: 'left' },
  { title: 'Quantity', width: 58, align: 'right' },
  { title: 'Unit weight', width: 52, align: 'right' },
  { title: 'Unit value', width: 55, align: 'right' },
  { title: 'Line value', width: 58, align: 'right' },
];
/** Space between a right-aligned cell and the next column. */
const CELL_GAP = 4;

const number = (value: number | null): string => (value == null ? '-' : String(Number(value.toFixed(3))));
const amount = (value: number | null): string => (value == null ? '-' : formatCents(Math.round(value * 100)));

/**
 * The customs invoice generated from the structured customs data (spec: CustomsInformation
 * rule 1): header fields, seller and buyer with their customs numbers, the delivery address
 * when `alternative_to` is set, the item table, totals, additional information and the
 * signature. The item table continues on further A4 pages, its header repeated.
 */
export function drawCustomsInvoice(
  document: PDFDocument,
  fonts: DocumentFonts,
  shipment: DocumentShipment,
  customs: DocumentCustoms,
): void {
  const { regular, bold } = fonts;
  const currency = customs.currency ?? '';
  const invoiceLabel = customs.invoiceNumber ? `Customs invoice ${customs.invoiceNumber}` : 'Customs invoice';
  const pages: PDFPage[] = [];
  let page: PDFPage = addPage();
  let y = PAGE_HEIGHT - MARGIN;
  let repeatTableHeader = false;

  function addPage(): PDFPage {
    const added = document.addPage(PageSizes.A4);
    pages.push(added);
    return added;
  }
  const text = (value: string, x: number, size: number, font: PDFFont = regular, maxWidth = INNER): void => {
    page.drawText(fonts.fit(value, font, size, maxWidth), { x, y, size, font });
  };
  const rightText = (value: string, right: number, size: number, font: PDFFont = regular, maxWidth = INNER): void => {
    const fitted = fonts.fit(value, font, size, maxWidth);
    page.drawText(fitted, { x: right - font.widthOfTextAtSize(fitted, size), y, size, font });
  };
  const rule = (thickness = 0.5): void => {
    page.drawLine({ start: { x: MARGIN, y }, end: { x: MARGIN + INNER, y }, thickness });
  };
  const tableHeader = (): void => {
    let x = MARGIN;
    for (const column of COLUMNS) {
      if (column.align === 'right') rightText(column.title, x + column.width - CELL_GAP, 8, bold, column.width - CELL_GAP);
      else text(column.title, x, 8, bold, column.width - CELL_GAP);
      x += column.width;
    }
    y -= 5;
    rule();
    y -= ROW;
  };
  /** Starts a new page when fewer than `height` points are left above the footer. */
  const ensure = (height: number): void => {
    if (y - height >= BOTTOM) return;
    page = addPage();
    y = PAGE_HEIGHT - MARGIN - 10;
    text(`${invoiceLabel} (continued)`, MARGIN, 10, bold);
    y -= 2 * ROW;
    if (repeatTableHeader) tableHeader();
  };

  // Title and header fields.
  y -= 20;
  text('Customs invoice', MARGIN, 20, bold, INNER / 2);
  if (customs.invoiceNumber) rightText(`No. ${customs.invoiceNumber}`, MARGIN + INNER, 12, bold, INNER / 2 - 10);
  y -= 2 * ROW;
  const left: Array<[string, string | null]> = [
    ['Invoice number', customs.invoiceNumber],
    ['Invoice type', customs.invoiceType],
    ['Reason for export', customs.reasonForExport],
    ['Currency', customs.currency],
    ['Terms of sale', customs.termsOfSale],
  ];
  const right: Array<[string, string | null]> = [
    ['Invoice date', shipment.bookedAt.slice(0, 10)],
    ['Shipment id', shipment.id],
    ['Tracking id', shipment.trackingId || null],
    ['Carrier', shipment.carrierName],
    ['Product', shipment.productName],
  ];
  const factsTop = y;
  for (const [column, facts, labelWidth] of [
    [0, left, 95],
    [250, right, 70],
  ] as const) {
    y = factsTop;
    for (const [name, value] of facts) {
      text(name, MARGIN + column, 9, bold, labelWidth - 5);
      text(value ?? '-', MARGIN + column + labelWidth, 9, regular, (column === 0 ? 250 : INNER - column) - labelWidth - 5);
      y -= ROW;
    }
  }
  for (const line of referenceLines(shipment)) {
    text(line, MARGIN, 9);
    y -= ROW;
  }

  // Parties: seller and buyer with their customs numbers, then the delivery address if any.
  y -= ROW;
  const numbers = (pairs: Array<[string, string | null]>): string[] => pairs.filter(([, v]) => v).map(([k, v]) => `${k}: ${v}`);
  const blocks: Array<[string, DocumentParty, string[]]> = [
    [
      'Seller / exporter',
      shipment.sender,
      numbers([
        ['EORI', customs.senderEoriNumber],
        ['VAT', customs.senderVatNumber],
        ['VOEC', customs.senderVoecNumber],
      ]),
    ],
    [
      'Buyer / receiver',
      shipment.receiver,
      numbers([
        ['EORI', customs.receiverEoriNumber],
        ['VAT', customs.receiverVatNumber],
      ]),
    ],
  ];
  if (shipment.deliveryAddress) blocks.push(['Delivery address', shipment.deliveryAddress, []]);
  const blockWidth = INNER / blocks.length;
  const partiesTop = y;
  let partiesBottom = y;
  blocks.forEach(([title, party, extra], index) => {
    const x = MARGIN + index * blockWidth;
    y = partiesTop;
    text(title, x, 10, bold, blockWidth - 10);
    for (const line of [...partyLines(party), ...extra]) {
      y -= ROW;
      text(line, x, 9, regular, blockWidth - 10);
    }
    partiesBottom = Math.min(partiesBottom, y);
  });
  y = partiesBottom - 2 * ROW;

  // Item table.
  /** A text cell's lines, at most MAX_CELL_LINES (the last one cut with "..." when more would follow). */
  const cellLines = (value: string, column: number): string[] => {
    const width = (COLUMNS[column]?.width ?? 0) - CELL_GAP;
    const lines = fonts.wrap(value, regular, TABLE_SIZE, width);
    if (lines.length <= MAX_CELL_LINES) return lines;
    const kept = lines.slice(0, MAX_CELL_LINES);
    kept[MAX_CELL_LINES - 1] = fonts.fit(`${lines.slice(MAX_CELL_LINES - 1).join(' ')}`, regular, TABLE_SIZE, width);
    return kept;
  };
  const totals = customsTotals(customs);
  text(`Goods${currency ? ` (values in ${currency}, weights in kg)` : ' (weights in kg)'}`, MARGIN, 10, bold);
  y -= ROW + 4;
  ensure(3 * ROW);
  tableHeader();
  repeatTableHeader = true;
  customs.items.forEach((item, index) => {
    // Descriptions are what customs reads: wrapped within their cell rather than cut short.
    const description = cellLines(item.description ?? '-', 1);
    const material = cellLines(item.material ?? '-', 2);
    const extraLines = Math.max(description.length, material.length) - 1;
    ensure(ROW + extraLines * WRAPPED_ROW);
    const line = totals.lineCents[index];
    const cells = [
      String(index + 1),
      description[0] ?? '',
      material[0] ?? '',
      item.hsCode ?? '-',
      item.countryOfOrigin ?? '-',
      [number(item.quantity), item.unitType].filter(Boolean).join(' '),
      number(item.unitWeightKg),
      amount(item.unitValue),
      line == null ? '-' : formatCents(line),
    ];
    let x = MARGIN;
    COLUMNS.forEach((column, i) => {
      const cell = cells[i] ?? '';
      if (column.align === 'right') rightText(cell, x + column.width - CELL_GAP, TABLE_SIZE, regular, column.width - CELL_GAP);
      else text(cell, x, TABLE_SIZE, regular, column.width - CELL_GAP);
      x += column.width;
    });
    for (let extra = 1; extra <= extraLines; extra += 1) {
      y -= WRAPPED_ROW;
      text(description[extra] ?? '', MARGIN + COLUMNS[0]!.width, TABLE_SIZE, regular, COLUMNS[1]!.width - CELL_GAP);
      text(material[extra] ?? '', MARGIN + COLUMNS[0]!.width + COLUMNS[1]!.width, TABLE_SIZE, regular, COLUMNS[2]!.width - CELL_GAP);
    }
    y -= ROW;
  });
  repeatTableHeader = false;
  y += ROW - 5;
  rule();
  y -= ROW + 4;

  // Totals: what was declared on the left, the money on the right.
  const money: Array<[string, string, PDFFont]> = [
    ['Goods value', formatCents(totals.goodsCents), regular],
    ['Insurance costs', amount(customs.insuranceCosts), regular],
    ['Shipping costs', amount(customs.shippingCosts), regular],
    ['Other costs', amount(customs.otherCosts), regular],
    ['Discount', customs.discount == null ? '-' : `-${amount(customs.discount)}`, regular],
    [`Total${currency ? ` ${currency}` : ''}`, formatCents(totals.totalCents), bold],
  ];
  const summary = [
    `Items: ${customs.items.length}`,
    `Net weight: ${number(totals.netWeightKg)} kg`,
    `Packages: ${shipment.packages.reduce((sum, p) => sum + p.quantity, 0)}`,
  ];
  ensure(money.length * ROW);
  const totalsTop = y;
  for (const line of summary) {
    text(line, MARGIN, 9, regular, 250);
    y -= ROW;
  }
  y = totalsTop;
  for (const [name, value, font] of money) {
    text(name, MARGIN + 300, 9, font, 110);
    rightText(value, MARGIN + INNER, 9, font, INNER - 300 - 115);
    y -= ROW;
  }

  if (customs.additionalInformation) {
    y -= ROW;
    ensure(2 * ROW);
    text('Additional information', MARGIN, 10, bold);
    for (const line of fonts.wrap(customs.additionalInformation, regular, 9, INNER)) {
      y -= ROW;
      ensure(ROW);
      text(line, MARGIN, 9);
    }
    y -= ROW;
  }

  y -= ROW;
  ensure(4 * ROW);
  text('I declare that the information on this invoice is true and correct.', MARGIN, 9);
  y -= 2 * ROW;
  text('Signature', MARGIN, 9, bold, 80);
  text(customs.signature ?? '-', MARGIN + 80, 11, regular, INNER / 2 - 80);
  text('Date', MARGIN + INNER / 2, 9, bold, 60);
  text(shipment.bookedAt.slice(0, 10), MARGIN + INNER / 2 + 60, 9, regular, INNER / 2 - 60);

  pages.forEach((p, index) => {
    const footer = fonts.fit(`${invoiceLabel} - shipment ${shipment.id} - page ${index + 1} of ${pages.length}`, regular, 7, INNER);
    p.drawText(footer, { x: MARGIN, y: MARGIN, size: 7, font: regular });
  });
}
