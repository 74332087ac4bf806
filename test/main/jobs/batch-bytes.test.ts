import { describe, expect, it } from 'vitest';
import { BatchBytes } from '../../../src/main/jobs/batch-bytes';
import type { PdfFetcher, PrintFileRequest } from '../../../src/main/jobs/ports';

const MB = 1024 * 1024;

describe('BatchBytes (the byte cap on batches)', () => {
  it('knows nothing before the first PDF of a document type and layout, then fits the cap by bytes per shipment', () => {
    const bytes = new BatchBytes(8 * MB);
    expect(bytes.limit('label', 'printer')).toBe(Infinity);
    bytes.observe('label', 'printer', 2 * MB, 4); // a batch of 4: 512 kB each
    expect(bytes.limit('label', 'printer')).toBe(16);
    // Kept apart per type and layout.
    expect(bytes.limit('label', 'a4')).toBe(Infinity);
    expect(bytes.limit('customs_invoice', 'printer')).toBe(Infinity);
  });

  it('rises at once to a heavier shipment, and goes to 1 (alone) when one shipment fills the cap', () => {
    const bytes = new BatchBytes(8 * MB);
    for (let i = 0; i < 5; i++) bytes.observe('label', 'printer', 100_000, 1);
    expect(bytes.limit('label', 'printer')).toBe(83);
    bytes.observe('label', 'printer', 3 * MB, 1);
    expect(bytes.limit('label', 'printer')).toBe(2);
    bytes.observe('label', 'printer', 20 * MB, 1);
    expect(bytes.limit('label', 'printer')).toBe(1);
  });

  it('falls back a quarter of the way with each smaller PDF', () => {
    const bytes = new BatchBytes(8 * MB);
    bytes.observe('label', 'printer', 4 * MB, 1);
    bytes.observe('label', 'printer', 0, 1);
    expect(bytes.estimate('label', 'printer')).toBe(3 * MB);
    bytes.observe('label', 'printer', 0, 1);
    expect(bytes.estimate('label', 'printer')).toBe(2.25 * MB);
  });

  it('counts every PDF the watched fetcher returns, and keeps its availableDocuments', async () => {
    const bytes = new BatchBytes(1000);
    const requests: PrintFileRequest[] = [];
    const fetcher: PdfFetcher = {
      async printFile(req) {
        requests.push(req);
        return { pdf: new Uint8Array(300 * req.shipment_ids.length), requestId: 'rq-1' };
      },
      async availableDocuments(id) {
        return [`label-of-${id}`];
      },
    };
    const watched = bytes.watch(fetcher);
    const req = { shipment_ids: ['a', 'b'], document_type: 'label', label_layout: 'printer' as const };
    const result = await watched.printFile(req);
    expect(result.requestId).toBe('rq-1');
    expect(result.pdf.byteLength).toBe(600);
    expect(requests).toEqual([req]);
    expect(bytes.estimate('label', 'printer')).toBe(300);
    expect(bytes.limit('label', 'printer')).toBe(3);
    expect(await watched.availableDocuments!('s1')).toEqual(['label-of-s1']);
    expect(bytes.watch({ printFile: fetcher.printFile }).availableDocuments).toBeUndefined();
  });
});
