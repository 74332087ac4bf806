import { describe, expect, it } from 'vitest';
import { mupdfLoaded, pdfToZpl } from '../../../../src/main/printing/zpl/zpl-raster';
import {
  pdfToZplOffThread,
  rasterWorkerRunning,
  stopRasterWorker,
  ZplRasterError,
} from '../../../../src/main/printing/zpl/zpl-raster-pool';
import { renderDocument } from '../../../../src/sandbox/documents/render';
import { labelShipment } from '../../../support/label-shipment';

// Its own file: the order matters (MuPDF, once loaded on this thread, stays loaded).
const shipment = (index: number) => labelShipment(index);

describe('rendering labels on a worker thread', () => {
  it('renders a batch off the main thread, label for label the bytes the main thread renders', { timeout: 60_000 }, async () => {
    const pdf = await renderDocument({ shipments: [1, 2, 3].map(shipment), documentType: 'label', layout: 'printer' });
    const [onWorker, again] = await Promise.all([pdfToZplOffThread(pdf, { dpi: 203, copies: 2 }), pdfToZplOffThread(pdf, { dpi: 300 })]);
    expect(rasterWorkerRunning()).toBe(true);
    // The worker rendered them: this thread has not loaded MuPDF.
    expect(mupdfLoaded()).toBe(false);
    expect(onWorker).toEqual(await pdfToZpl(pdf, { dpi: 203, copies: 2 }));
    expect(again).toEqual(await pdfToZpl(pdf, { dpi: 300 }));
    expect(onWorker).toHaveLength(3);
  });

  it('says what MuPDF said of a PDF it cannot read, and keeps rendering the next', { timeout: 60_000 }, async () => {
    const broken = pdfToZplOffThread(new TextEncoder().encode('%PDF-1.7 not really'), { dpi: 203 });
    await expect(broken).rejects.toBeInstanceOf(ZplRasterError);
    const pdf = await renderDocument({ shipments: [shipment(4)], documentType: 'label', layout: 'printer' });
    expect(await pdfToZplOffThread(pdf, { dpi: 203 })).toHaveLength(1);
    expect(rasterWorkerRunning()).toBe(true);
  });

  it('renders on this thread what a stopped worker still held, and starts a new worker for the next', { timeout: 60_000 }, async () => {
    const pdf = await renderDocument({ shipments: [5, 6, 7, 8].map(shipment), documentType: 'label', layout: 'printer' });
    const expected = await pdfToZpl(pdf, { dpi: 203 });
    const held = pdfToZplOffThread(pdf, { dpi: 203 });
    await stopRasterWorker();
    expect(await held).toEqual(expected);
    expect(rasterWorkerRunning()).toBe(false);
    expect(await pdfToZplOffThread(pdf, { dpi: 203 })).toEqual(expected);
    expect(rasterWorkerRunning()).toBe(true);
    // Stopped before it ever answered, a worker is still started again for the next labels.
    await stopRasterWorker();
    const early = pdfToZplOffThread(pdf, { dpi: 203 });
    await stopRasterWorker();
    expect(await early).toEqual(expected);
    expect(await pdfToZplOffThread(pdf, { dpi: 203 })).toEqual(expected);
    expect(rasterWorkerRunning()).toBe(true);
    await stopRasterWorker();
  });
});
