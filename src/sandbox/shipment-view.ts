/** The Shipment response record (spec, "Shipment (response of update and fetch)"). */
import { isBooked, type StoredShipment } from './store';

/** Document types printable for a shipment; empty until it is booked. */
export function availableDocuments(s: StoredShipment): string[] {
  if (!s.booking || !isBooked(s)) return [];
  const docs = ['label', 'waybill'];
  if (s.booking.nonEu) docs.push('customsinvoice');
  if (s.booking.manifest) docs.push('manifest');
  for (const uploaded of ['abd', 'salesinvoice']) if (s.uploads.has(uploaded)) docs.push(uploaded);
  return docs;
}

export function shipmentView(s: StoredShipment): Record<string, unknown> {
  const b = s.body;
  const booking = s.booking;
  const view: Record<string, unknown> = {
    id: s.id,
    reference_id: b.reference_id ?? null,
    status: s.status,
    from: b.from ?? null,
    to: b.to ?? null,
    alternative_from: b.alternative_from ?? null,
    alternative_to: b.alternative_to ?? null,
    // Extra response field once booked (Versioning 2): each package's parcel numbers, one per unit.
    packages: booking ? (b.packages ?? []).map((p, i) => ({ ...p, tracking_ids: booking.parcelTrackingIds[i] ?? [] })) : (b.packages ?? []),
    enable_bookable_validation: b.enable_bookable_validation ?? false,
    invoice_reference: b.invoice_reference ?? null,
    sender_reference: b.sender_reference ?? null,
    receiver_reference: b.receiver_reference ?? null,
    system: b.system ?? null,
    system_version: b.system_version ?? null,
    customs_information: b.customs_information ?? null,
    third_party_customs_payer: b.third_party_customs_payer ?? null,
    tracking_status: s.tracking.at(-1) ?? null,
    carrier: booking?.carrier ?? null,
    carrier_product_code: booking?.product ?? null,
    carrier_name: booking?.carrierName ?? null,
    product_name: booking?.productName ?? null,
    tracking_id: booking?.trackingId ?? null,
    available_documents_types: availableDocuments(s),
    created_at: s.createdAt,
    updated_at: s.updatedAt,
    booked_at: s.bookedAt,
  };
  // Spec: price fields are omitted for receiver-pays shipments (and before any booking).
  if (booking && !booking.receiverPays) {
    view['expected_price'] = `${booking.price.toFixed(2)} ${booking.currency}`;
    view['resale_price'] = `${booking.price.toFixed(2)} ${booking.currency}`;
  }
  return view;
}
