import type { LabelLayout } from '../../shared/domain';
import type { PrinterTarget, Readiness, SpoolerJobState, SpoolRequest, SpoolResult } from './target';

/**
 * The one ServiceClient call the service target needs (src/main/api/client.ts has it):
 * POST /shipments/print with `output_format: printer`.
 */
export interface ServicePrintPort {
  printToPrinter(req: {
    shipment_ids: string[];
    document_type: string;
    label_layout: LabelLayout;
    printer_id: string;
  }): Promise<{ output_url: string }>;
}

export interface ServiceTargetOptions {
  readonly uri: string;
  readonly printerId: string;
  readonly service: ServicePrintPort;
}

/**
 * Prints on the service's connected printer: the service renders and sends the PDF, so
 * no PDF is fetched here. Errors are the service client's ApiErrors, passed through
 * unchanged so they keep their X-Service-Request-ID and retryable flag.
 */
export class ServiceTarget implements PrinterTarget {
  readonly kind = 'service' as const;
  readonly needsPdf = false;
  /** The service offers no way to list what it printed. */
  readonly reconcilable = false;
  readonly uri: string;
  readonly printerId: string;
  private readonly service: ServicePrintPort;

  constructor(options: ServiceTargetOptions) {
    this.uri = options.uri;
    this.printerId = options.printerId;
    this.service = options.service;
  }

  /** The spec's print request has no copies field: each copy is its own request. */
  async spool(request: SpoolRequest): Promise<SpoolResult> {
    let outputUrl: string | null = null;
    for (let copy = 0; copy < Math.max(1, request.copies); copy++) {
      const response = await this.service.printToPrinter({
        shipment_ids: [request.shipmentId],
        document_type: request.documentType,
        label_layout: request.layout,
        printer_id: this.printerId,
      });
      outputUrl = response.output_url;
    }
    return { spoolerJobId: outputUrl, completed: true };
  }

  async jobState(_spoolerJobId: string): Promise<SpoolerJobState> {
    return 'completed';
  }

  async findSpooled(_jobId: string): Promise<null> {
    return null;
  }

  /** Unknown: the service reports no printer state. Discovery shows `ready: null`. */
  async readiness(): Promise<Readiness> {
    return { ready: true, detail: null };
  }
}
