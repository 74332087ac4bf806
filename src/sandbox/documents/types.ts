/**
 * The spec's print `label_layout` values, as the sandbox reads them (its own copy: the
 * sandbox shares no types with the agent, so a contract test sees the two drift apart).
 */
export const LABEL_LAYOUTS = ['printer', 'a4', '1x2', '3x1', '2x2'] as const;
export type LabelLayout = (typeof LABEL_LAYOUTS)[number];

/** What the document renderer needs of a stored, booked shipment. */
export interface DocumentParty {
  readonly name: string | null;
  readonly contactName: string | null;
  readonly addressLines: readonly string[];
  readonly postalCode: string | null;
  readonly city: string | null;
  readonly countryCode: string | null;
}

export interface DocumentPackage {
  readonly description: string | null;
  readonly weightKg: number | null;
  /** One label per unit: a package with quantity 3 gets 3 labels. */
  readonly quantity: number;
  /** Each unit's own tracking number, in unit order; a unit without one carries the shipment's. */
  readonly trackingIds?: readonly string[];
}

/** One line of a customs invoice (spec: CustomsItem); unset fields are null. */
export interface DocumentCustomsItem {
  readonly description: string | null;
  readonly material: string | null;
  readonly quantity: number | null;
  /** e.g. `pcs`, `pieces`: free text (spec: allowed values not shown). */
  readonly unitType: string | null;
  readonly unitWeightKg: number | null;
  /** Value of one unit, in the invoice currency. */
  readonly unitValue: number | null;
  readonly hsCode: string | null;
  readonly countryOfOrigin: string | null;
}

/** A shipment's structured customs data (spec: CustomsInformation); unset fields are null. */
export interface DocumentCustoms {
  readonly invoiceType: string | null;
  readonly invoiceNumber: string | null;
  readonly reasonForExport: string | null;
  readonly currency: string | null;
  readonly termsOfSale: string | null;
  readonly senderEoriNumber: string | null;
  readonly senderVatNumber: string | null;
  readonly senderVoecNumber: string | null;
  readonly receiverEoriNumber: string | null;
  readonly receiverVatNumber: string | null;
  readonly items: readonly DocumentCustomsItem[];
  readonly additionalInformation: string | null;
  readonly insuranceCosts: number | null;
  readonly shippingCosts: number | null;
  readonly otherCosts: number | null;
  readonly discount: number | null;
  readonly signature: string | null;
}

export interface DocumentShipment {
  readonly id: string;
  readonly carrierName: string;
  readonly productName: string;
  /** The shipment's main tracking id (the first parcel's). */
  readonly trackingId: string;
  readonly referenceId: string | null;
  readonly senderReference: string | null;
  readonly receiverReference: string | null;
  readonly sender: DocumentParty;
  /**
   * The receiver (`to`): the buyer on a customs invoice. Labels are addressed to
   * `deliveryAddress` when it is set, else to this party.
   */
  readonly receiver: DocumentParty;
  /** `alternative_to`, when set: where the goods are delivered if not to the receiver. */
  readonly deliveryAddress?: DocumentParty;
  /** The stored customs_information: with it a customs invoice is generated from this data. */
  readonly customs?: DocumentCustoms;
  readonly packages: readonly DocumentPackage[];
  readonly bookedAt: string;
}

export interface RenderRequest {
  /** Several shipments give one PDF, in this order. */
  readonly shipments: readonly DocumentShipment[];
  readonly documentType: string;
  /** Only labels are laid out; other document types are always A4 pages. */
  readonly layout: LabelLayout;
}
