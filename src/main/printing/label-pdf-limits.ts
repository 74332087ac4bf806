/**
 * How large a label PDF may be before anything is rendered. A label is a page of at most a
 * few inches; a PDF of thousands of pages or with a page metres long is not a label (a
 * 100-inch page renders to a 20,300-dot label and hundreds of MB), so it is refused with a
 * reason that belongs to the job, and nothing is printed.
 */
import { PRINT_ERROR_CODES, PrintError } from './errors';

export const LABEL_PDF_LIMITS = {
  /** Pages in one print request (a job, or a batch of jobs: a batch holds at most 25). */
  maxPages: 100,
  /** The largest label page, in inches (a 4x6 label is well inside). */
  maxPageWidthIn: 10,
  maxPageHeightIn: 12,
} as const;

const POINTS_PER_INCH = 72;

/** Why a label PDF is refused; thrown before any page is rendered. */
export class LabelPdfRefusedError extends Error {
  readonly code = 'LABEL_PDF_REFUSED';
  constructor(message: string) {
    super(message);
    this.name = 'LabelPdfRefusedError';
  }
}

/** Refuses a PDF with more pages than LABEL_PDF_LIMITS.maxPages. */
export function checkLabelPageCount(pages: number): void {
  if (pages > LABEL_PDF_LIMITS.maxPages) {
    throw new LabelPdfRefusedError(
      `the label PDF has ${pages} pages, more than the ${LABEL_PDF_LIMITS.maxPages} a print request may have: nothing was printed`,
    );
  }
}

/** Refuses a page larger than LABEL_PDF_LIMITS' page size (either way round); `index` counts from 0. */
export function checkLabelPageSize(index: number, widthPt: number, heightPt: number): void {
  const width = widthPt / POINTS_PER_INCH;
  const height = heightPt / POINTS_PER_INCH;
  const { maxPageWidthIn: maxW, maxPageHeightIn: maxH } = LABEL_PDF_LIMITS;
  const fits = (width <= maxW && height <= maxH) || (width <= maxH && height <= maxW);
  if (!fits || !Number.isFinite(width) || !Number.isFinite(height)) {
    throw new LabelPdfRefusedError(
      `page ${index + 1} of the label PDF is ${width.toFixed(1)} × ${height.toFixed(1)} in, larger than the ${maxW} × ${maxH} in ` +
        'a label page may be: nothing was printed',
    );
  }
}

/** A refusal as the job's failure: not retried, the reason kept on the job. */
export function labelPdfPrintError(error: unknown, target: string): unknown {
  if ((error as { code?: unknown } | null)?.code !== 'LABEL_PDF_REFUSED') return error;
  return new PrintError(PRINT_ERROR_CODES.UNSUPPORTED, `Refused: ${(error as Error).message}`, { cause: error, target });
}
