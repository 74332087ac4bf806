import type { LabelLayout } from '../../shared/domain';
import type { PdfFetcher } from './ports';

/*
 * The byte cap on batches. A batch's PDF size is not known before its print
 * call, so a batch is bounded by what the agent has seen: per document type and layout, an
 * estimate of the bytes per shipment, from every PDF fetched (a batch's PDF counts as its
 * size over its members). A batch then takes at most `batchMaxBytes / estimate` shipments,
 * and a type and layout whose shipments are each that big goes one shipment at a time.
 *
 * The estimate is a running average that rises at once to a larger sample (one heavy
 * shipment makes the next batches smaller: the cap bounds memory, so it errs small) and
 * falls back a quarter of the way with each smaller one, so a line is back at full batches
 * after a few ordinary PDFs. It is kept per type and layout, not per printer: the bytes come
 * from the service whichever printer they go to. Before the first PDF of a type and layout
 * nothing is known, and only batchMax bounds its batches.
 */

/** How far a smaller sample pulls the estimate down. */
const FALL = 0.25;

export class BatchBytes {
  private readonly perShipment = new Map<string, number>();

  constructor(private readonly maxBytes: number) {}

  /** Most shipments the next batch of this type and layout may hold: at least 1, Infinity while nothing is known. */
  limit(documentType: string, layout: LabelLayout): number {
    const estimate = this.perShipment.get(key(documentType, layout));
    if (estimate === undefined || estimate <= 0) return Infinity;
    return Math.max(1, Math.floor(this.maxBytes / estimate));
  }

  /** The bytes per shipment expected for this type and layout, if any PDF of it was seen. */
  estimate(documentType: string, layout: LabelLayout): number | undefined {
    return this.perShipment.get(key(documentType, layout));
  }

  /** A PDF of `bytes` was fetched for `shipments` shipments. */
  observe(documentType: string, layout: LabelLayout, bytes: number, shipments: number): void {
    if (shipments < 1 || !Number.isFinite(bytes)) return;
    const sample = bytes / shipments;
    const k = key(documentType, layout);
    const before = this.perShipment.get(k);
    this.perShipment.set(k, before === undefined || sample >= before ? sample : before + (sample - before) * FALL);
  }

  /** The fetcher, with every PDF it returns counted here. */
  watch(fetcher: PdfFetcher): PdfFetcher {
    const available = fetcher.availableDocuments;
    const canceled = fetcher.canceledAmong;
    return {
      printFile: async (request) => {
        const result = await fetcher.printFile(request);
        this.observe(request.document_type, request.label_layout, result.pdf.byteLength, request.shipment_ids.length);
        return result;
      },
      ...(available ? { availableDocuments: (shipmentId: string) => available.call(fetcher, shipmentId) } : {}),
      ...(canceled ? { canceledAmong: (ids: readonly string[], since: Date) => canceled.call(fetcher, ids, since) } : {}),
    };
  }
}

function key(documentType: string, layout: LabelLayout): string {
  return `${documentType}\u0000${layout}`;
}
