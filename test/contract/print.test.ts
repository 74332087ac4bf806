import { beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { request } from 'undici';
import type { LabelLayout } from '../../src/shared/domain';
import { apiError, BOX, createAndBook, domestic, UNKNOWN_ID, useHarness } from '../support/contract-harness';

let single: string;
let triple: string;
let clockOffsetMs = 0;
// A clock the test can move forward, to watch output URLs expire.
const h = useHarness({ now: () => new Date(Date.now() + clockOffsetMs) });
beforeAll(async () => {
  single = (await createAndBook(h.client)).id;
  // Two packages, one of them quantity 2: three labels.
  triple = (await createAndBook(h.client, domestic({ packages: [BOX, { ...BOX, quantity: 2 }] }))).id;
});

async function pages(bytes: Uint8Array): Promise<Array<[number, number]>> {
  const doc = await PDFDocument.load(bytes);
  return doc.getPages().map((p) => [Math.round(p.getWidth()), Math.round(p.getHeight())]);
}

const LABEL = [288, 432];
const A4 = [595, 842];

describe('print as file', () => {
  const cases: Array<[LabelLayout, number, number[]]> = [
    ['printer', 3, LABEL],
    ['a4', 3, A4],
    ['1x2', 2, A4],
    ['3x1', 1, A4],
    ['2x2', 1, A4],
  ];
  for (const [layout, count, size] of cases) {
    it(`layout ${layout}: 3 labels on ${count} page(s) of ${size.join(' x ')} pt`, async () => {
      const { pdf, requestId } = await h.client.printFile({ shipment_ids: [triple], document_type: 'label', label_layout: layout });
      expect(requestId).toMatch(/\S/);
      const sizes = await pages(pdf);
      expect(sizes).toHaveLength(count);
      for (const s of sizes) expect(s).toEqual(size);
    });
  }

  it('several shipment_ids give one PDF', async () => {
    const { pdf } = await h.client.printFile({ shipment_ids: [single, triple], document_type: 'label', label_layout: 'printer' });
    expect(await pages(pdf)).toHaveLength(4);
  });

  it('other document types are A4', async () => {
    const { pdf } = await h.client.printFile({ shipment_ids: [single], document_type: 'waybill', label_layout: 'printer' });
    for (const s of await pages(pdf)) expect(s).toEqual(A4);
  });

  it('printing an unbooked shipment is refused; an unknown one is 404', async () => {
    const { id } = await h.client.createShipment(domestic());
    const error = await apiError(h.client.printFile({ shipment_ids: [id], document_type: 'label', label_layout: 'printer' }));
    expect(error.status).toBe(422);
    expect(error.code).toBe('SERVICE_UNPROCESSABLE');
    expect(
      (await apiError(h.client.printFile({ shipment_ids: [UNKNOWN_ID], document_type: 'label', label_layout: 'printer' }))).status,
    ).toBe(404);
  });
});

describe('print as url', () => {
  it('returns output_url, served without a key', async () => {
    const { output_url } = await h.client.printUrl({ shipment_ids: [single], document_type: 'label', label_layout: 'a4' });
    const res = await request(output_url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/pdf/);
    const bytes = new Uint8Array(await res.body.arrayBuffer());
    expect(await pages(bytes)).toEqual([A4]);
  });

  it('the URL is valid for 2 minutes', async () => {
    const { output_url } = await h.client.printUrl({ shipment_ids: [single], document_type: 'label', label_layout: 'printer' });
    clockOffsetMs = 119_000;
    try {
      const fresh = await request(output_url);
      await fresh.body.dump();
      expect(fresh.statusCode).toBe(200);
      clockOffsetMs = 121_000;
      const stale = await request(output_url);
      await stale.body.dump();
      expect(stale.statusCode).toBeGreaterThanOrEqual(400);
    } finally {
      clockOffsetMs = 0;
    }
  });
});

describe('print to a service printer', () => {
  it('needs a printer_id from GET /printers, records the job there and returns output_url', async () => {
    const { printers } = await h.client.printers();
    const printer = printers[0]!;
    const before = h.sandbox.printerJobs(printer.id).length;
    const { output_url } = await h.client.printToPrinter({
      shipment_ids: [single],
      document_type: 'label',
      label_layout: 'printer',
      printer_id: printer.id,
    });
    expect(output_url).toMatch(/^http/);
    const jobs = h.sandbox.printerJobs(printer.id);
    expect(jobs).toHaveLength(before + 1);
    expect(jobs.at(-1)!.shipmentIds).toEqual([single]);

    const unknown = await apiError(
      h.client.printToPrinter({ shipment_ids: [single], document_type: 'label', label_layout: 'printer', printer_id: 'no-such-printer' }),
    );
    expect(unknown.status).toBe(422);
  });
});

describe('label not ready right after booking', () => {
  it('print as file retries the 503 + Retry-After and gets the PDF; print to printer does not retry', async () => {
    h.sandbox.setFaults({ labelDelayMs: 800 });
    try {
      const { id } = await createAndBook(h.client);
      h.sandbox.clearRequestLog();
      const { printers } = await h.client.printers();
      const direct = await apiError(
        h.client.printToPrinter({ shipment_ids: [id], document_type: 'label', label_layout: 'printer', printer_id: printers[0]!.id }),
      );
      expect(direct.code).toBe('SERVICE_UNAVAILABLE');
      expect(direct.retryAfterMs).toBe(1_000);
      expect(h.sandbox.requestLog().filter((r) => r.url.endsWith('/shipments/print'))).toHaveLength(1);

      const { pdf } = await h.client.printFile({ shipment_ids: [id], document_type: 'label', label_layout: 'printer' });
      expect(await pages(pdf)).toEqual([LABEL]);
      const prints = h.sandbox.requestLog().filter((r) => r.url.endsWith('/shipments/print'));
      expect(prints.at(-1)!.status).toBe(200);
    } finally {
      h.sandbox.setFaults({ labelDelayMs: 0 });
    }
  });
});
