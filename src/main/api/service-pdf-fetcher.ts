import { canceledAmong } from './cancel-lookup';
import type { ServiceClient } from './client';
import { ApiError, ResponseTooLargeError } from './errors';

export interface ServicePdfFetcherOptions {
  /**
   * The client PDFs are fetched with: one without retries of its own, so the job waits and
   * retries itself, saying why (ServiceConnection.printing). Asked at every call, since
   * Settings can point the agent at another address or key while it runs.
   */
  readonly printing: () => Pick<ServiceClient, 'printFile'>;
  /** The client the questions around a print are asked with (ServiceConnection.current). Asked at every call. */
  readonly client: () => Pick<ServiceClient, 'getShipment' | 'listShipmentsPage'>;
  /** A print call was answered: the service is reachable. @default nothing */
  readonly onReached?: () => void;
  /** A print call failed with an ApiError (refused, or not reached). @default nothing */
  readonly onFailed?: (error: ApiError) => void;
}

/**
 * The job engine's PdfFetcher port (src/main/jobs/ports.ts) on the service: POST /shipments/print
 * for the PDF, GET /shipments/{id} for the documents a shipment has, and the cancel check.
 */
export function servicePdfFetcher(options: ServicePdfFetcherOptions) {
  return {
    async printFile(request: Parameters<ServiceClient['printFile']>[0]) {
      try {
        const result = await options.printing().printFile(request);
        options.onReached?.();
        return result;
      } catch (error) {
        // A PDF too large to read is the document's fault: the service answered (the caller refuses the PDF).
        if (error instanceof ResponseTooLargeError) options.onReached?.();
        else if (error instanceof ApiError) options.onFailed?.(error);
        throw error;
      }
    },
    // Tells "this shipment has no waybill" (not a failure) from a real refusal.
    async availableDocuments(shipmentId: string): Promise<readonly string[]> {
      return (await options.client().getShipment(shipmentId)).available_documents_types ?? [];
    },
    async canceledAmong(shipmentIds: readonly string[], since: Date) {
      return canceledAmong(options.client(), shipmentIds, since);
    },
  };
}
