import { PDFDocument, type PDFImage } from 'pdf-lib';
import { code128Png } from './barcode';
import { drawCustomsInvoice } from './customs-invoice';
import { DocumentRenderError } from './errors';
import { embedFonts } from './fonts';
import { drawLabel, type LabelContent } from './label';
import { sheetGeometry } from './layout';
import { drawSheet } from './sheet';
import type { DocumentShipment, RenderRequest } from './types';

/**
 * Renders the PDF that POST /shipments/print returns: labels laid out per `label_layout`
 * (one label per package unit, flowing across pages in shipment order), any other
 * document type as A4 pages, one or more per shipment.
 */
export async function renderDocument(request: RenderRequest): Promise<Uint8Array> {
  if (request.shipments.length === 0) {
    throw new DocumentRenderError('SANDBOX_DOCUMENT_EMPTY', 'Nothing to render: pass at least one shipment.');
  }
  const document = await PDFDocument.create();
  document.setTitle(`${request.documentType} ${request.shipments.map((s) => s.id).join(', ')}`);
  document.setProducer('Print Station sandbox');
  const fonts = embedFonts(document);

  if (request.documentType === 'label') {
    const labels = labelContents(request.shipments);
    const barcodes = await embedBarcodes(
      document,
      labels.map((label) => label.trackingId),
    );
    const { pageSize, slots } = sheetGeometry(request.layout);
    labels.forEach((label, index) => {
      const slotIndex = index % slots.length;
      const page = slotIndex === 0 ? document.addPage([...pageSize]) : document.getPage(document.getPageCount() - 1);
      const slot = slots[slotIndex];
      if (slot) drawLabel(page, slot, fonts, { ...label, barcode: barcodes.get(label.trackingId) ?? null });
    });
  } else {
    for (const shipment of request.shipments) {
      // Without structured customs data there is nothing to generate the invoice from (spec: CustomsInformation rule 1).
      if (request.documentType === 'customsinvoice' && shipment.customs) drawCustomsInvoice(document, fonts, shipment, shipment.customs);
      else drawSheet(document, fonts, request.documentType, shipment);
    }
  }
  // Object streams shrink the file but cost time on every save; labels are fetched in bulk.
  return document.save({ useObjectStreams: false });
}

/**
 * Renders a tracking id's barcode ahead of its first print (call it at booking): bwip-js is
 * the costliest step of a label, and the print path then only embeds the cached PNG.
 */
export async function prerenderBarcode(trackingId: string): Promise<void> {
  if (trackingId) await code128Png(trackingId);
}

/**
 * One label per package unit, each with its parcel's own tracking number (the shipment's
 * main one when the unit has none). A shipment whose packages count no unit still gets
 * one label, since a booked shipment always has at least one parcel to mark.
 */
export function labelContents(shipments: readonly DocumentShipment[]): Array<Omit<LabelContent, 'barcode'>> {
  const labels: Array<Omit<LabelContent, 'barcode'>> = [];
  for (const shipment of shipments) {
    const units = shipment.packages.flatMap((pkg) =>
      Array.from({ length: unitCount(pkg.quantity) }, (_, i) => ({ pkg, trackingId: pkg.trackingIds?.[i] || shipment.trackingId })),
    );
    const fallback = { description: null, weightKg: null, quantity: 1 };
    const list = units.length > 0 ? units : [{ pkg: shipment.packages[0] ?? fallback, trackingId: shipment.trackingId }];
    list.forEach(({ pkg, trackingId }, index) => labels.push({ shipment, package: pkg, trackingId, unit: index + 1, units: list.length }));
  }
  return labels;
}

function unitCount(quantity: number): number {
  return Number.isFinite(quantity) && quantity > 0 ? Math.floor(quantity) : 0;
}

/** Each distinct tracking number is rendered and embedded once per document, whatever its label count. */
async function embedBarcodes(document: PDFDocument, trackingIds: readonly string[]): Promise<Map<string, PDFImage>> {
  const ids = [...new Set(trackingIds.filter((id) => id.length > 0))];
  const pngs = await Promise.all(ids.map((id) => code128Png(id)));
  const images = new Map<string, PDFImage>();
  for (const [index, id] of ids.entries()) {
    const png = pngs[index];
    if (png) images.set(id, await document.embedPng(png));
  }
  return images;
}
