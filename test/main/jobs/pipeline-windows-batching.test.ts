import { promises as fs } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PdfFetcher } from '../../../src/main/jobs/ports';
import type { PrinterTarget } from '../../../src/main/printing/target';
import { WindowsTarget, type PdfToPrinterModule } from '../../../src/main/printing/windows/windows-target';
import { notice } from '../../support/jobs/fakes';
import { Harness } from '../../support/jobs/harness';

const WIN = 'windows:ZDesigner ZD420 (Packing 1)';

/** One PDF naming every shipment of the call, in order (as the service does). */
const fetcher: PdfFetcher = {
  async printFile(req) {
    return { pdf: new TextEncoder().encode(`%PDF ${req.shipment_ids.join(',')}`), requestId: null };
  },
};

/**
 * Batching on a Windows printer: each batch is one SumatraPDF run (one pdf-to-printer
 * print() call), which is what batching saves there: a SumatraPDF start per label.
 */
describe('PrintPipeline batching to a Windows printer', () => {
  let runs: { shipments: string[]; copies: number | undefined }[];
  let h: Harness;

  beforeEach(() => {
    runs = [];
    const sumatra: PdfToPrinterModule = {
      print: async (file, options) => {
        const text = await fs.readFile(file, 'latin1');
        runs.push({ shipments: text.split(' ')[1]!.split(','), copies: options?.copies });
      },
      getPrinters: async () => [{ deviceId: 'ZD420', name: 'ZDesigner ZD420 (Packing 1)' }],
    };
    const target = new WindowsTarget({ uri: WIN, name: 'ZDesigner ZD420 (Packing 1)', pdfToPrinter: sumatra });
    h = new Harness(new Map<string, PrinterTarget>([[WIN, target]]), WIN);
  });
  afterEach(() => h.close());

  const ids = (n: number) => Array.from({ length: n }, (_, i) => `w${String(i).padStart(2, '0')}`);

  it('by default runs SumatraPDF once for the first label alone, then once per batch, every label once and in order', async () => {
    const p = h.pipeline({ fetcher });
    await p.start();
    const [first, ...rest] = ids(30);
    p.submitBooking(notice(first!));
    await new Promise((r) => setImmediate(r)); // the first one is on its way before the rest arrive
    for (const id of rest) p.submitBooking(notice(id));
    await p.idle();
    expect(runs.map((r) => r.shipments)).toEqual([[first], rest.slice(0, 25), rest.slice(25)]);
    expect(runs.every((r) => r.copies === 1)).toBe(true);
    expect(h.ledger.counts().completed).toBe(30);
  });

  it('runs SumatraPDF once per label at batchMax 1', async () => {
    const p = h.pipeline({ fetcher, batchMax: 1 });
    await p.start();
    const all = ids(6);
    for (const id of all) p.submitBooking(notice(id));
    await p.idle();
    expect(runs.map((r) => r.shipments)).toEqual(all.map((id) => [id]));
  });
});
