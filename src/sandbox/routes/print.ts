import type { LabelLayout } from '../documents/types';
import { PRINTERS } from '../catalog';
import { renderDocument } from '../documents/render';
import type { DocumentCustoms, DocumentParty, DocumentShipment } from '../documents/types';
import { HttpError, json, parseBody, type Reply } from '../http';
import { route, type Route } from '../router';
import { availableDocuments } from '../shipment-view';
import type { SandboxState } from '../state';
import { isBooked, type StoredShipment } from '../store';
import type { Party } from '../validation';
import { printRequestSchema } from '../validation';

/** Spec, Limits: print output URL lifetime. */
export const OUTPUT_URL_TTL_MS = 2 * 60 * 1000;

function party(p: Party | null | undefined): DocumentParty {
  const a = p?.address;
  return {
    name: p?.name ?? null,
    contactName: p?.contact?.name ?? null,
    addressLines: [a?.address_line_1, a?.address_line_2, a?.address_line_3].filter((l): l is string => !!l),
    postalCode: a?.postal_code ?? null,
    city: a?.city ?? null,
    countryCode: a?.country_code ?? null,
  };
}

function documentShipment(s: StoredShipment): DocumentShipment {
  const b = s.body;
  const c = b.customs_information;
  // Spec, CustomsInformation rule 1: the invoice is generated from the structured data; without
  // any item there is nothing to declare, and the type keeps the generic sheet.
  const customs: DocumentCustoms | undefined =
    c && (c.items ?? []).length > 0
      ? {
          invoiceType: c.invoice_type ?? null,
          invoiceNumber: c.invoice_number ?? null,
          reasonForExport: c.reason_for_export ?? null,
          currency: c.currency ?? null,
          termsOfSale: c.terms_of_sale ?? null,
          // The sandbox stores the team's (or address book entry's) numbers on `from` (README 13).
          senderEoriNumber: c.sender_eori_number ?? b.from?.eori_number ?? null,
          senderVatNumber: c.sender_vat_number ?? b.from?.vat_number ?? null,
          senderVoecNumber: c.sender_voec_number ?? b.from?.voec_number ?? null,
          receiverEoriNumber: c.receiver_eori_number ?? null,
          receiverVatNumber: c.receiver_vat_number ?? null,
          items: (c.items ?? []).map((i) => ({
            description: i.description ?? null,
            material: i.material ?? null,
            quantity: i.quantity ?? null,
            unitType: i.unit_type ?? null,
            unitWeightKg: i.unit_weight ?? null,
            unitValue: i.unit_value ?? null,
            hsCode: i.hs_code ?? null,
            countryOfOrigin: i.country_of_origin ?? null,
          })),
          additionalInformation: c.additional_information ?? null,
          insuranceCosts: c.insurance_costs ?? null,
          shippingCosts: c.shipping_costs ?? null,
          otherCosts: c.other_costs ?? null,
          discount: c.discount ?? null,
          signature: c.signature ?? null,
        }
      : undefined;
  return {
    id: s.id,
    carrierName: s.booking!.carrierName,
    productName: s.booking!.productName,
    trackingId: s.booking!.trackingId,
    referenceId: b.reference_id ?? null,
    senderReference: b.sender_reference ?? null,
    receiverReference: b.receiver_reference ?? null,
    sender: party(b.alternative_from ?? b.from),
    // The receiver stays the buyer (`to`); labels go to deliveryAddress when alternative_to is set.
    receiver: party(b.to),
    ...(b.alternative_to ? { deliveryAddress: party(b.alternative_to) } : {}),
    ...(customs ? { customs } : {}),
    packages: (b.packages ?? []).map((p, i) => ({
      description: p.description ?? null,
      weightKg: p.weight_kg ?? null,
      quantity: p.quantity ?? 1,
      trackingIds: s.booking!.parcelTrackingIds[i] ?? [],
    })),
    bookedAt: s.bookedAt!,
  };
}

/** Stores the PDF under an unguessable name, served without a key until it expires. */
function publish(state: SandboxState, bytes: Uint8Array): string {
  state.sweep();
  const name = state.token();
  state.files.set(name, { bytes, expiresAtMs: state.nowMs() + OUTPUT_URL_TTL_MS });
  return `${state.origin}/files/${name}.pdf`;
}

export const printRoutes: readonly Route[] = [
  route('POST', '/shipments/print', async ({ state, json: body }): Promise<Reply> => {
    const req = parseBody(printRequestSchema, await body());
    const layout: LabelLayout = req.label_layout ?? 'a4';
    const format = req.output_format ?? 'url';
    const shipments = req.shipment_ids.map((id) => state.shipment(id));
    for (const s of shipments) {
      if (!isBooked(s)) {
        throw new HttpError(
          422,
          'shipment_not_booked',
          `Shipment ${s.id} is ${s.status}: documents can only be printed for booked shipments.`,
        );
      }
      if (!availableDocuments(s).includes(req.document_type)) {
        throw new HttpError(
          422,
          'document_type_unavailable',
          `Shipment ${s.id} has no ${req.document_type} document; available: ${availableDocuments(s).join(', ')}.`,
        );
      }
    }
    const delay = state.faults.labelDelayMs;
    if (delay > 0 && shipments.some((s) => state.nowMs() - (s.bookedAtMs ?? 0) < delay)) {
      throw new HttpError(
        503,
        'label_not_ready',
        'The label is not ready yet: the carrier is still confirming the booking. Retry in a moment.',
        undefined,
        { 'Retry-After': '1' },
      );
    }
    const printer = format === 'printer' ? PRINTERS.find((p) => p.id === req.printer_id) : undefined;
    if (format === 'printer' && !printer) {
      throw new HttpError(422, 'unknown_printer', `Unknown printer_id "${req.printer_id ?? ''}". Use an id from GET /printers.`);
    }
    const bytes = await renderDocument({ shipments: shipments.map(documentShipment), documentType: req.document_type, layout });
    if (format === 'file') return { status: 200, bytes, contentType: 'application/pdf' };
    const outputUrl = publish(state, bytes);
    if (printer) {
      state.printerJobs.push({
        printerId: printer.id,
        shipmentIds: shipments.map((s) => s.id),
        documentType: req.document_type,
        layout,
        at: state.nowIso(),
      });
    }
    return json(200, { output_url: outputUrl });
  }),
];

/** GET /files/<name>.pdf: no key (the URL is the secret), 410 once the 2 minutes are over. */
export function serveFile(state: SandboxState, name: string): Reply {
  const file = state.files.get(name);
  if (!file) throw new HttpError(404, 'file_not_found', 'No such document. Print it again.');
  if (state.nowMs() >= file.expiresAtMs || !file.bytes) {
    file.bytes = null; // keep the tombstone so the URL keeps answering 410
    throw new HttpError(410, 'output_url_expired', 'This output URL has expired (valid 2 minutes). Print again for a new URL.');
  }
  return { status: 200, bytes: file.bytes, contentType: 'application/pdf' };
}
