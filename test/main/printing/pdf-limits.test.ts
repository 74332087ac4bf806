import { describe, expect, it } from 'vitest';
import { servicePdfFetcher } from '../../../src/main/api/service-pdf-fetcher';
import { checkPdfLimits, oversizedPdfRefusal, PDF_LIMITS } from '../../../src/main/printing/pdf-limits';
import { withPdfLimits } from '../../../src/main/printing/pdf-limits-fetcher';
import { PRINT_ERROR_CODES, PrintError } from '../../../src/main/printing/errors';
import { renderDocument } from '../../../src/sandbox/documents/render';
import { LABEL_LAYOUTS, type LabelLayout } from '../../../src/shared/domain';
import { labelShipment } from '../../support/label-shipment';
import { longPagePdf, loopingPagesPdf, manyPagesPdf, paddedPdf } from '../../support/hostile-pdfs';
import { startTestbed } from '../../support/testbed';

const MIB = 1024 * 1024;

async function refusal(pdf: Uint8Array, layout: LabelLayout = 'printer'): Promise<PrintError> {
  const error = await checkPdfLimits(pdf, { layout, requestId: 'req-1' }).then(
    () => null,
    (e: unknown) => e as PrintError,
  );
  expect(error, 'the PDF was not refused').not.toBeNull();
  return error!;
}

describe('PDF limits before spooling, for every printer kind', () => {
  it("passes the service's real PDFs: a batch of 25 shipments' labels in every layout, a sheet per shipment, a shipment of 200 parcels", async () => {
    const batch = Array.from({ length: 25 }, (_, i) => labelShipment(i + 1, { parcels: 1 + (i % 3) }));
    for (const layout of LABEL_LAYOUTS) {
      const labels = await renderDocument({ shipments: batch, documentType: 'label', layout });
      await expect(checkPdfLimits(labels, { layout })).resolves.toMatchObject({ pages: expect.any(Number) });
      const sheets = await renderDocument({ shipments: batch, documentType: 'waybill', layout });
      await expect(checkPdfLimits(sheets, { layout })).resolves.toMatchObject({ pages: 25 });
    }
    const parcels = await renderDocument({ shipments: [labelShipment(1, { parcels: 200 })], documentType: 'label', layout: 'printer' });
    await expect(checkPdfLimits(parcels, { layout: 'printer' })).resolves.toEqual({ bytes: parcels.byteLength, pages: 200 });
  });

  it('refuses 2,000 pages, saying how many a print may have, not retried, with the request id', async () => {
    const error = await refusal(await manyPagesPdf(2000));
    expect(error.code).toBe(PRINT_ERROR_CODES.UNSUPPORTED);
    expect(error.retryable).toBe(false);
    expect(error.printerDown).toBe(false);
    expect(error.requestId).toBe('req-1');
    expect(error.message).toBe(
      'Refused: the PDF has more than 1,000 pages, the most a print may have; nothing was printed. ' +
        'Check the shipment in the service (or ask its support) before printing it again.',
    );
  });

  it('refuses a 100-inch page on a label layout and on a sheet layout, with its size and the limit', async () => {
    const long = await longPagePdf(100);
    expect((await refusal(long, 'printer')).message).toContain(
      'page 1 of the PDF is 4.0 × 100.0 in, larger than the 10 × 12 in a page of this layout may be',
    );
    expect((await refusal(long, '2x2')).message).toContain('larger than the 10 × 14 in a page of this layout may be');
    // Legal paper is a sheet, not a label.
    const legal = await longPagePdf(14);
    await expect(checkPdfLimits(legal, { layout: 'a4' })).resolves.toMatchObject({ pages: 1 });
    expect((await refusal(legal, 'printer')).message).toContain('larger than the 10 × 12 in');
  });

  it('refuses a PDF over the byte cap before reading it, and one whose page tree loops', async () => {
    const cap = PDF_LIMITS.printer.maxBytes;
    const started = performance.now();
    expect((await refusal(await paddedPdf(cap + 1))).message).toContain('the PDF is 32.0 MB, more than the 32 MB a print may be');
    expect(performance.now() - started).toBeLessThan(2000);
    expect((await refusal(await loopingPagesPdf())).message).toContain('the PDF could not be read (its page tree loops)');
    expect((await refusal(new TextEncoder().encode('%PDF-1.7\nnot a pdf'))).message).toMatch(/^Refused: the PDF could not be read/);
  });

  it('checks what the fetcher fetched in the layout it was asked for, keeping its other methods', async () => {
    const long = await longPagePdf(13);
    const fetcher = withPdfLimits({
      printFile: async (_request: { label_layout: LabelLayout }) => ({ pdf: long, requestId: 'req-2' }),
      availableDocuments: async () => ['label'],
    });
    await expect(fetcher.printFile({ label_layout: 'a4' })).resolves.toMatchObject({ requestId: 'req-2' });
    await expect(fetcher.printFile({ label_layout: 'printer' })).rejects.toMatchObject({ code: 'PRINT_UNSUPPORTED', requestId: 'req-2' });
    expect(await fetcher.availableDocuments()).toEqual(['label']);
  });

  it('refuses a PDF the service client will not read whole (over its cap) in the same words, from the sandbox, with the answer’s request id', async () => {
    const seen: string[] = [];
    // A cap below a 40-parcel label (about 90 KB): the sandbox's real answer is over it.
    const bed = await startTestbed({ client: { maxResponseBytes: 64 * 1024, retries: 0, onRequestId: (r) => seen.push(r.requestId) } });
    try {
      const booked = await bed.sandbox.bookShipment({ reference_id: 'OVER-CAP', packages: 40 });
      const fetcher = withPdfLimits(servicePdfFetcher({ printing: () => bed.client, client: () => bed.client }));
      const request = { shipment_ids: [booked.shipmentId], document_type: 'label', label_layout: 'printer' as const };
      const error = await fetcher.printFile(request).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(PrintError);
      expect(error).toMatchObject({ code: PRINT_ERROR_CODES.UNSUPPORTED, retryable: false, printerDown: false, requestId: seen[0] });
      expect(seen).toHaveLength(1);
      expect((error as PrintError).message).toBe(
        'Refused: the PDF is 0.1 MB, more than the 0.0625 MB a print may be; nothing was printed. ' +
          'Check the shipment in the service (or ask its support) before printing it again.',
      );
    } finally {
      await bed.close();
    }
  });

  it('says the size the oversized answer declared, or "more than" the client’s cap where it declared none, against the smaller limit', () => {
    const refused = (declaredBytes: number | null, limitBytes: number | null) =>
      oversizedPdfRefusal({ declaredBytes, limitBytes }, { layout: 'printer', requestId: 'req-4' });
    expect(refused(70 * MIB, 64 * MIB).message).toMatch(
      /^Refused: the PDF is 70\.0 MB, more than the 32 MB a print may be; nothing was printed\./,
    );
    expect(refused(null, 64 * MIB).message).toMatch(/^Refused: the PDF is >64\.0 MB, more than the 32 MB a print may be;/);
    expect(refused(3 * MIB, 2 * MIB).message).toMatch(/^Refused: the PDF is 3\.0 MB, more than the 2 MB a print may be;/);
    expect(refused(null, 64 * MIB)).toMatchObject({ code: PRINT_ERROR_CODES.UNSUPPORTED, retryable: false, requestId: 'req-4' });
  });
});
