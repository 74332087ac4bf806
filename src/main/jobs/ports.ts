import type { LabelLayout } from '../../shared/domain';
import type { PrinterTarget } from '../printing/target';

/**
 * Structural ports the pipeline depends on, so it does not import the service client:
 * `ServiceClient` (src/main/api/client.ts) satisfies `PdfFetcher`.
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

/**
 * Where a document type prints, and how, and the media that follows from a layout: the
 * routing module's own (one definition of each, src/main/printing/routing.ts).
 */
export { mediaForLayout, type Route as RouteDecision } from '../printing/routing';

/** A printer target; `reconcilable: false` ones cannot be looked up after a crash. */
export type PipelineTarget = PrinterTarget;
