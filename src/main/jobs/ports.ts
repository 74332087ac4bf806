import type { LabelLayout, PrinterMedia } from '../../shared/domain';
import type { PrinterTarget } from '../printing/target';

/**
 * Structural ports the pipeline depends on, so it does not import the service client or
 * the routing module: `ServiceClient` (src/main/api/client.ts) satisfies `PdfFetcher`.
 */
// A type alias, not an interface, so it stays assignable to the client's zod-inferred
// request type (which has an index signature).
export type PrintFileRequest = {
  readonly shipment_ids: string[];
  readonly document_type: string;
  readonly label_layout: LabelLayout;
};

export interface PdfFetcher {
  /** POST /shipments/print with `output_format: file`. Throws ApiError. */
  printFile(request: PrintFileRequest): Promise<{ pdf: Uint8Array; requestId: string | null }>;
  /**
   * The shipment's `available_documents_types` (GET /shipments/{id}). Optional: when
   * given, a 422 on an automatic job is checked against it to tell "this shipment has no
   * such document" from other refusals; without it the service's message is read.
   */
  availableDocuments?(shipmentId: string): Promise<readonly string[]>;
}

/** Where a document type prints, and how (from the routing profile). */
export interface RouteDecision {
  /** Printer URI. */
  readonly target: string;
  readonly layout: LabelLayout;
  readonly media: PrinterMedia;
}

/** The media that matches a layout: the layout asked of the service and the printer's paper always agree. */
export function mediaForLayout(layout: LabelLayout): PrinterMedia {
  return layout === 'printer' ? 'label' : 'a4';
}

/** Targets may say they cannot be reconciled (no way to list what they printed). */
export type PipelineTarget = PrinterTarget & { readonly reconcilable?: boolean };
