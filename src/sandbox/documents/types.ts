import type { LabelLayout } from '../../shared/domain';

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
}

export interface DocumentShipment {
  readonly id: string;
  readonly carrierName: string;
  readonly productName: string;
  readonly trackingId: string;
  readonly referenceId: string | null;
  readonly senderReference: string | null;
  readonly receiverReference: string | null;
  readonly sender: DocumentParty;
  readonly receiver: DocumentParty;
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
