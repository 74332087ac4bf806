import { describe, expect, it } from 'vitest';
import { checkLabelPageCount, checkLabelPageSize, LABEL_PDF_LIMITS, labelPdfPrintError } from '../../../src/main/printing/label-pdf-limits';
import { PRINT_ERROR_CODES, PrintError } from '../../../src/main/printing/errors';

describe('label PDF limits', () => {
  it('allows 100 pages of 4x6 or 6x4, up to 10 x 12 in either way round', () => {
    expect(() => checkLabelPageCount(LABEL_PDF_LIMITS.maxPages)).not.toThrow();
    expect(() => checkLabelPageSize(0, 4 * 72, 6 * 72)).not.toThrow();
    expect(() => checkLabelPageSize(0, 12 * 72, 10 * 72)).not.toThrow();
  });

  it('refuses more pages, a larger page, and a page with no finite size', () => {
    expect(() => checkLabelPageCount(101)).toThrow(/101 pages, more than the 100/);
    expect(() => checkLabelPageSize(4, 4 * 72, 100 * 72)).toThrow(/page 5 of the label PDF is 4\.0 × 100\.0 in/);
    expect(() => checkLabelPageSize(0, 11 * 72, 11 * 72)).toThrow(/larger than the 10 × 12 in/);
    expect(() => checkLabelPageSize(0, Number.NaN, 72)).toThrow(/larger than/);
  });

  it('turns a refusal into a job failure that is not retried, and leaves other errors alone', () => {
    let refusal: unknown;
    try {
      checkLabelPageCount(2000);
    } catch (error) {
      refusal = error;
    }
    const failure = labelPdfPrintError(refusal, 'zpl://p') as PrintError;
    expect(failure).toBeInstanceOf(PrintError);
    expect(failure.code).toBe(PRINT_ERROR_CODES.UNSUPPORTED);
    expect(failure.retryable).toBe(false);
    const other = new Error('mupdf broke');
    expect(labelPdfPrintError(other, 'zpl://p')).toBe(other);
  });
});
