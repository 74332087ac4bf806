/**
 * The one place every printer kind's PDF passes: the job engine's fetcher (a job's PDF and a
 * batch's alike), wrapped so a PDF over its layout's limits (pdf-limits.ts) never reaches the
 * engine. The refusal is the fetch's error, PRINT_UNSUPPORTED: the job fails with the reason
 * and is not retried; a batch with such a PDF is dissolved by the engine and its shipments
 * fetched one by one, so only the one at fault fails. A PDF too large for the service client
 * to read at all (its response cap) is refused the same way, in the same words.
 */
import type { LabelLayout } from '../../shared/domain';
import { ResponseTooLargeError } from '../api/errors';
import { loadPdfLib } from './pdf-lib';
import { checkPdfLimits, oversizedPdfRefusal } from './pdf-limits';

/** The fetcher as far as this wrapper uses it (structurally the job engine's PdfFetcher port). */
interface PrintFileFetcher {
  printFile(request: { readonly label_layout: LabelLayout }): Promise<{ pdf: Uint8Array; requestId: string | null }>;
}

/** `fetcher` with every PDF checked against its layout's limits before it is handed on; its other methods unchanged. */
export function withPdfLimits<F extends PrintFileFetcher>(fetcher: F): F {
  return {
    ...fetcher,
    async printFile(request: Parameters<F['printFile']>[0]) {
      // The checker's library (about 100 ms, once) loads while the service answers; a failed
      // load is the check's to report.
      loadPdfLib().catch(() => undefined);
      const result = await fetcher.printFile(request).catch((error: unknown) => {
        if (error instanceof ResponseTooLargeError) {
          throw oversizedPdfRefusal(error.size, { layout: request.label_layout, requestId: error.requestId });
        }
        throw error;
      });
      await checkPdfLimits(result.pdf, { layout: request.label_layout, requestId: result.requestId });
      return result;
    },
  };
}
