/**
 * Maps the service's shipment and tracking records to the views the UI shows. The input
 * types are structural (the fields this mapping reads, all tolerant of absence and null)
 * so the zod-inferred `Shipment` / `TrackingEvent` of src/main/api/schemas.ts fit them
 * without this module depending on the client's schema file.
 */
import type { PartyView, ShipmentView, TrackingEventView } from '../../shared/domain';

type Text = string | null | undefined;

export interface ServiceTrackingEvent {
  readonly id?: Text;
  /** One service example spells it `ID`. */
  readonly ID?: Text;
  readonly status?: Text;
  readonly created_at?: Text;
  readonly description?: Text;
  readonly location_name?: Text;
  readonly url?: Text;
}

export interface ServiceParty {
  readonly name?: Text;
  readonly address?: {
    readonly address_line_1?: Text;
    readonly address_line_2?: Text;
    readonly postal_code?: Text;
    readonly city?: Text;
    readonly country_code?: Text;
  } | null;
  readonly contact?: { readonly name?: Text } | null;
}

export interface ServiceShipment {
  readonly id: string;
  readonly reference_id?: Text;
  readonly status?: Text;
  readonly tracking_id?: Text;
  readonly carrier_name?: Text;
  readonly product_name?: Text;
  readonly from?: ServiceParty | null;
  readonly to?: ServiceParty | null;
  readonly sender_reference?: Text;
  readonly receiver_reference?: Text;
  readonly available_documents_types?: readonly string[] | null;
  readonly tracking_status?: ServiceTrackingEvent | null;
}

const text = (value: Text): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

export function toPartyView(party: ServiceParty | null | undefined): PartyView {
  const address = party?.address ?? null;
  const lines = [text(address?.address_line_1), text(address?.address_line_2)].filter((l): l is string => l !== null);
  return {
    name: text(party?.name),
    contactName: text(party?.contact?.name),
    addressLine: lines.length > 0 ? lines.join(', ') : null,
    postalCode: text(address?.postal_code),
    city: text(address?.city),
    countryCode: text(address?.country_code),
  };
}

/** null when the event has no time: an undated event cannot be placed in a timeline. */
export function toTrackingEventView(event: ServiceTrackingEvent): TrackingEventView | null {
  const occurredAt = text(event.created_at);
  if (!occurredAt || Number.isNaN(Date.parse(occurredAt))) return null;
  return {
    id: text(event.id) ?? text(event.ID),
    status: text(event.status) ?? 'UNKNOWN',
    description: text(event.description),
    location: text(event.location_name),
    occurredAt,
    url: text(event.url),
  };
}

/**
 * Service and webhook events describe the same happenings through two channels: an
 * event is the same when the ids match or, without ids, when status and instant match.
 * Newest first; the first copy seen wins (callers pass the service's events first).
 */
export function mergeTracking(...sources: ReadonlyArray<readonly TrackingEventView[]>): TrackingEventView[] {
  const seen = new Set<string>();
  const merged: TrackingEventView[] = [];
  for (const events of sources) {
    for (const event of events) {
      const instant = Date.parse(event.occurredAt);
      const keys = [`at:${event.status.toUpperCase()}@${instant}`];
      if (event.id) keys.push(`id:${event.id}`);
      if (keys.some((k) => seen.has(k))) continue;
      for (const k of keys) seen.add(k);
      merged.push(event);
    }
  }
  return merged.sort((a, b) => Date.parse(b.occurredAt) - Date.parse(a.occurredAt));
}

export function toShipmentView(shipment: ServiceShipment, tracking: readonly TrackingEventView[]): ShipmentView {
  return {
    id: shipment.id,
    referenceId: text(shipment.reference_id),
    status: text(shipment.status),
    trackingId: text(shipment.tracking_id),
    carrierName: text(shipment.carrier_name),
    productName: text(shipment.product_name),
    sender: toPartyView(shipment.from),
    receiver: toPartyView(shipment.to),
    senderReference: text(shipment.sender_reference),
    receiverReference: text(shipment.receiver_reference),
    availableDocuments: [...(shipment.available_documents_types ?? [])],
    tracking,
  };
}
