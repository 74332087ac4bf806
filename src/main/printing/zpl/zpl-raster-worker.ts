/**
 * The rasterizing worker thread (started by zpl-raster-pool.ts): PDF pages to ZPL labels with
 * MuPDF, off the agent's main thread, which meanwhile answers webhooks, fetches the next
 * batch and writes to printers. MuPDF is loaded here, on the first request, and only here.
 */
import { parentPort } from 'node:worker_threads';
import { pdfToZpl } from './zpl-raster';
import type { RasterReply, RasterRequest } from './zpl-raster-pool';

const port = parentPort;
if (port) {
  port.on('message', (request: RasterRequest) => {
    pdfToZpl(request.pdf, request.options).then(
      (labels) => port.postMessage({ id: request.id, labels } satisfies RasterReply),
      (error: unknown) =>
        port.postMessage({
          id: request.id,
          error: error instanceof Error ? error.message : String(error),
          code: (error as { code?: unknown } | null)?.code === 'LABEL_PDF_REFUSED' ? 'LABEL_PDF_REFUSED' : undefined,
        } satisfies RasterReply),
    );
  });
}
