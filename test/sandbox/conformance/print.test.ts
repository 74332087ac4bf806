/** Spec: Endpoints print row, Print request/response, enumerations, States 3, Limits (output URL 2 minutes). */
import { execFileSync } from 'node:child_process';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOX, create, createAndBook, CUSTOMS, open, RECEIVER_NO, type Conn } from './raw';

let c: Conn;
let booked: string;
beforeAll(async () => {
  c = await open();
  booked = (await createAndBook(c, { packages: [{ ...BOX, quantity: 2 }, BOX] })).id;
});
afterAll(async () => {
  await c.sandbox.close();
});

const print = (k: Conn, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  k.call('POST', '/shipments/print', body, headers);
const pages = async (bytes: Uint8Array) => (await PDFDocument.load(bytes)).getPages().map((p) => p.getSize());

describe('print', () => {
  it('R-Pr-file: output_format file answers a binary application/pdf', async () => {
    const res = await print(
      c,
      { shipment_ids: [booked], document_type: 'label', label_layout: 'a4', output_format: 'file' },
      { accept: 'application/json, application/pdf' },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/pdf/);
    expect(new TextDecoder().decode(res.bytes.slice(0, 5))).toBe('%PDF-');
    expect((await pages(res.bytes)).length).toBeGreaterThan(0);
  });

  it('R-Pr-layouts: printer is one 4x6 label per page; a4 one label per A4 page; 1x2, 3x1, 2x2 put 2, 3, 4 labels on an A4 page', async () => {
    // three packages units -> three labels (quantity 2 + 1)
    const expectPages: Record<string, [number, number, number]> = {
      printer: [3, 288, 432],
      a4: [3, 595, 842],
      '1x2': [2, 595, 842],
      '3x1': [1, 595, 842],
      '2x2': [1, 595, 842],
    };
    for (const [layout, [n, w, h]] of Object.entries(expectPages)) {
      const res = await print(c, { shipment_ids: [booked], document_type: 'label', label_layout: layout, output_format: 'file' });
      expect(res.status, layout).toBe(200);
      const sizes = await pages(res.bytes);
      expect(sizes.length, layout).toBe(n);
      for (const s of sizes) {
        expect(Math.round(s.width), layout).toBe(w);
        expect(Math.round(s.height), layout).toBe(h);
      }
    }
  });

  it('R-S-refs: sender_reference and receiver_reference are shown on the shipment label', async () => {
    const { id } = await createAndBook(c, { sender_reference: 'SREF-4711', receiver_reference: 'RREF-0815' });
    const res = await print(c, { shipment_ids: [id], document_type: 'label', label_layout: 'printer', output_format: 'file' });
    const text = execFileSync('pdftotext', ['-', '-'], { input: Buffer.from(res.bytes) }).toString();
    expect(text).toContain('SREF-4711');
    expect(text).toContain('RREF-0815');
  });

  it('R-Pr-multi: several shipment_ids give one PDF', async () => {
    const other = (await createAndBook(c)).id;
    const res = await print(c, { shipment_ids: [booked, other], document_type: 'label', label_layout: 'printer', output_format: 'file' });
    expect(res.status).toBe(200);
    expect((await pages(res.bytes)).length).toBe(4);
  });

  it('R-Pr-url: output_format url returns {output_url}, fetchable, valid for 2 minutes', async () => {
    let now = new Date('2030-01-02T08:00:00Z');
    const k = await open({ now: () => now });
    try {
      const { id } = await createAndBook(k);
      const res = await print(k, { shipment_ids: [id], document_type: 'label', label_layout: 'printer', output_format: 'url' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/json/);
      expect(typeof res.body.output_url).toBe('string');
      const first = await fetch(res.body.output_url);
      expect(first.status).toBe(200);
      expect(first.headers.get('x-service-request-id')).toBeTruthy();
      expect(new TextDecoder().decode(new Uint8Array(await first.arrayBuffer()).slice(0, 5))).toBe('%PDF-');
      now = new Date(now.getTime() + 119_000);
      expect((await fetch(res.body.output_url)).status).toBe(200);
      now = new Date(now.getTime() + 2_000);
      const late = await fetch(res.body.output_url);
      expect(late.status).toBeGreaterThanOrEqual(400);
    } finally {
      await k.sandbox.close();
    }
  });

  it('R-Pr-printer: output_format printer sends to the printer_id from GET /printers and also returns output_url', async () => {
    const printers: any[] = (await c.call('GET', '/printers')).body.printers;
    const res = await print(c, {
      shipment_ids: [booked],
      document_type: 'label',
      label_layout: 'printer',
      output_format: 'printer',
      printer_id: printers[0].id,
    });
    expect(res.status).toBe(200);
    expect(typeof res.body.output_url).toBe('string');
    expect(c.sandbox.printerJobs(printers[0].id).length).toBeGreaterThan(0);
  });

  it('R-St3: printing documents works only for booked shipments', async () => {
    const id = await create(c);
    const res = await print(c, { shipment_ids: [id], document_type: 'label', label_layout: 'a4', output_format: 'file' });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });

  it('R-Pr-enums: every available document type of a booked shipment prints as a PDF', async () => {
    const { id } = await createAndBook(
      c,
      { to: RECEIVER_NO, customs_information: CUSTOMS },
      { included_non_eu_rates: true },
      (r) => r.required_documents.length === 0,
    );
    const docs: string[] = (await c.call('GET', `/shipments/${id}`)).body.available_documents_types;
    const allowed = ['label', 'manifest', 'waybill', 'customsinvoice', 'proofofdelivery', 'abd', 'salesinvoice'];
    expect(docs.length).toBeGreaterThan(1);
    for (const d of docs) {
      expect(allowed).toContain(d);
      const res = await print(c, { shipment_ids: [id], document_type: d, label_layout: 'a4', output_format: 'file' });
      expect(res.status, d).toBe(200);
      expect(res.headers.get('content-type'), d).toMatch(/pdf/);
    }
  });
});
