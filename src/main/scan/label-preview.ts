/**
 * The label that went out, in sight: a small PNG of a job's first page, rendered from the same
 * PDF the printer was sent (fetched again from the service, which keeps it) with the MuPDF the
 * ZPL rasterizer already uses, loaded on first use. Bounded in size and kept per job, so a
 * scan view that shows it again (or a second window) costs nothing.
 */
import type { LabelPreview } from '../../shared/domain';
import type { PrintFileRequest } from '../jobs/ports';
import type { JobRecord } from '../ledger/job-record';
import { loadMupdf } from '../printing/zpl/zpl-raster';

export interface LabelPreviewOptions {
  readonly job: (jobId: string) => JobRecord | null;
  readonly printFile: (request: PrintFileRequest) => Promise<{ pdf: Uint8Array }>;
  /** The picture fits in this box (CSS pixels). @default 240 × 360 */
  readonly maxWidth?: number;
  readonly maxHeight?: number;
  /** Previews kept, the last shown first. @default 32 */
  readonly cacheSize?: number;
}

export class LabelPreviews {
  private readonly cache = new Map<string, Promise<LabelPreview | null>>();

  constructor(private readonly options: LabelPreviewOptions) {}

  /** The job's picture; null for a job the ledger does not know. */
  preview(jobId: string): Promise<LabelPreview | null> {
    const kept = this.cache.get(jobId);
    if (kept) {
      this.cache.delete(jobId);
      this.cache.set(jobId, kept);
      return kept;
    }
    const job = this.options.job(jobId);
    if (!job) return Promise.resolve(null);
    const made = this.render(job);
    this.cache.set(jobId, made);
    // A failed render is tried again next time, not kept.
    made.catch(() => this.cache.delete(jobId));
    const limit = this.options.cacheSize ?? 32;
    while (this.cache.size > limit) this.cache.delete(this.cache.keys().next().value!);
    return made;
  }

  private async render(job: JobRecord): Promise<LabelPreview> {
    const { pdf } = await this.options.printFile({
      shipment_ids: [job.shipmentId],
      document_type: job.documentType,
      label_layout: job.layout,
    });
    const mupdf = await loadMupdf();
    const document = mupdf.Document.openDocument(pdf, 'application/pdf');
    try {
      const page = document.loadPage(0);
      try {
        const [x0, y0, x1, y1] = page.getBounds();
        const scale = Math.min((this.options.maxWidth ?? 240) / (x1 - x0), (this.options.maxHeight ?? 360) / (y1 - y0));
        const pixmap = page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceRGB, false);
        try {
          return {
            jobId: job.id,
            width: pixmap.getWidth(),
            height: pixmap.getHeight(),
            pngBase64: Buffer.from(pixmap.asPNG()).toString('base64'),
          };
        } finally {
          pixmap.destroy();
        }
      } finally {
        page.destroy();
      }
    } finally {
      document.destroy();
    }
  }
}
