import type { LabelLayout } from '../../../shared/domain';
import { PRINT_ERROR_CODES, PrintError } from '../errors';
import type { PrinterTarget, Readiness, SpoolerJobState, SpoolRequest, SpoolResult } from '../target';

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

  /**
   * The spec's print request has no copies field: each copy is its own request, and a
   * request is never repeated here (a repeat prints twice). A failure that may have
   * printed, or one after some copies printed, comes out as a non-retryable PrintError
   * saying so; a failure on the first copy that certainly printed nothing (4xx, 429, 503
   * with Retry-After) is passed through unchanged so the pipeline can retry or fail it.
   */
  async spool(request: SpoolRequest): Promise<SpoolResult> {
    const copies = Math.max(1, request.copies);
    let outputUrl: string | null = null;
    for (let copy = 0; copy < copies; copy++) {
      try {
        const response = await this.service.printToPrinter({
          shipment_ids: [request.shipmentId],
          document_type: request.documentType,
          label_layout: request.layout,
          printer_id: this.printerId,
        });
        outputUrl = response.output_url;
      } catch (error) {
        const unsent = refusedUpFront(error);
        if (copy === 0 && unsent) throw error;
        throw this.brokenOff(error, copy, copies, unsent);
      }
    }
    return { spoolerJobId: outputUrl, completed: true };
  }

  private brokenOff(error: unknown, printed: number, copies: number, unsent: boolean): PrintError {
    const detail = error instanceof Error ? error.message : String(error);
    const requestId = (error as { requestId?: unknown } | null)?.requestId;
    const options = { cause: error, target: this.uri, requestId: typeof requestId === 'string' ? requestId : null };
    if (copies > 1 && (printed > 0 || !unsent)) {
      const maybe = unsent ? '' : ` (copy ${printed + 1} may have printed too)`;
      return new PrintError(
        PRINT_ERROR_CODES.PARTIAL,
        `${printed} of ${copies} copies printed${maybe}, then: ${detail}. Check the printer, then print the missing copies by hand.`,
        options,
      );
    }
    return new PrintError(
      PRINT_ERROR_CODES.MAY_HAVE_PRINTED,
      `${detail}; it may have printed: check the printer, then retry by hand`,
      options,
    );
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

/**
 * True when the service certainly did not print: it answered 4xx (a 429 included: the
 * request was throttled before any work), or 503 with Retry-After (the service refusing up
 * front, as for a label that is not ready yet). A timeout, a network error, a malformed
 * answer or any other 5xx (a gateway's 502/504 after the service printed) may have printed.
 */
export function refusedUpFront(error: unknown): boolean {
  const e = (typeof error === 'object' && error !== null ? error : {}) as { status?: unknown; retryAfterMs?: unknown };
  if (typeof e.status !== 'number') return false;
  if (e.status >= 400 && e.status < 500) return true;
  return e.status === 503 && typeof e.retryAfterMs === 'number';
}
