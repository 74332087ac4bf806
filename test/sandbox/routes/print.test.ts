import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRINTERS } from '../../../src/sandbox/catalog';
import type { Sandbox } from '../../../src/sandbox/server';
import { Api, createShipment, started } from '../../support/sandbox-api';

let sandbox: Sandbox;
let api: Api;
let now = new Date('2026-11-20T08:00:00Z');
let booked: string;
let booked2: string;
beforeAll(async () => {
  ({ sandbox, api } = await started({ now: () => now }));
  booked = (await sandbox.bookShipment({ packages: 2 })).shipmentId;
  booked2 = (await sandbox.bookShipment({ packages: 1 })).shipmentId;
});
afterAll(async () => sandbox.close());

async function print(body: Record<string, unknown>, accept = 'application/json, application/pdf'): Promise<Response> {
  return fetch(`${sandbox.baseUrl}/shipments/print`, {
    method: 'POST',
    headers: { 'x-api-key': sandbox.apiKey, 'content-type': 'application/json', accept },
    body: JSON.stringify(body),
  });
}

async function pages(bytes: ArrayBuffer): Promise<Array<[number, number]>> {
  const doc = await PDFDocument.load(bytes);
  return doc.getPages().map((p) => [Math.round(p.getWidth()), Math.round(p.getHeight())]);
}

describe('POST /shipments/print', () => {
  it('output_format file returns application/pdf bytes, one 4x6 page per label in layout printer', async () => {
    const res = await print({ shipment_ids: [booked], document_type: 'label', label_layout: 'printer', output_format: 'file' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const bytes = await res.arrayBuffer();
    expect(Buffer.from(bytes).subarray(0, 5).toString()).toBe('%PDF-');
    expect(await pages(bytes)).toEqual([
      [288, 432],
      [288, 432],
    ]);
  });

  it('several shipment_ids give one PDF', async () => {
    const res = await print({ shipment_ids: [booked, booked2], document_type: 'label', label_layout: 'printer', output_format: 'file' });
    expect(await pages(await res.arrayBuffer())).toHaveLength(3);
  });

  it('output_format url returns an output_url served without a key for 2 minutes, then 410', async () => {
    const res = await api.call('POST', '/shipments/print', { shipment_ids: [booked], document_type: 'waybill', output_format: 'url' });
    expect(res.status).toBe(200);
    const url: string = res.body.output_url;
    expect(url.startsWith(`${sandbox.origin}/files/`)).toBe(true);
    const first = await fetch(url);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('application/pdf');
    expect(first.headers.get('x-service-request-id')).toBeTruthy();
    expect(await pages(await first.arrayBuffer())).toEqual([[595, 842]]);
    now = new Date(now.getTime() + 2 * 60_000);
    try {
      expect((await fetch(url)).status).toBe(410);
    } finally {
      now = new Date(now.getTime() - 2 * 60_000);
    }
    expect((await fetch(`${sandbox.origin}/files/unknown.pdf`)).status).toBe(404);
  });

  it('output_format printer needs a printer_id from GET /printers, records the job and returns output_url', async () => {
    const unknown = await api.call('POST', '/shipments/print', {
      shipment_ids: [booked],
      document_type: 'label',
      output_format: 'printer',
      printer_id: 'nope',
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.code).toBe('unknown_printer');
    const printerId = PRINTERS[0]!.id;
    const res = await api.call('POST', '/shipments/print', {
      shipment_ids: [booked, booked2],
      document_type: 'label',
      label_layout: '2x2',
      output_format: 'printer',
      printer_id: printerId,
    });
    expect(res.status).toBe(200);
    expect(res.body.output_url).toContain('/files/');
    expect(sandbox.printerJobs(printerId)).toEqual([
      { printerId, shipmentIds: [booked, booked2], documentType: 'label', layout: '2x2', at: now.toISOString() },
    ]);
    expect(sandbox.printerJobs(PRINTERS[1]!.id)).toEqual([]);
    const admin = await api.call('GET', `${sandbox.origin}/admin/printer-jobs`);
    expect(admin.body.jobs).toHaveLength(1);
  });

  it('refuses an unbooked shipment (422) and a document type the shipment does not have (422)', async () => {
    const pending = await createShipment(api);
    const res = await api.call('POST', '/shipments/print', { shipment_ids: [pending], document_type: 'label', output_format: 'file' });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('shipment_not_booked');
    const missing = await api.call('POST', '/shipments/print', {
      shipment_ids: [booked],
      document_type: 'customsinvoice',
      output_format: 'file',
    });
    expect(missing.status).toBe(422);
    expect(missing.body.code).toBe('document_type_unavailable');
  });

  it('validates the request: 400 for an unknown layout or format, 404 for an unknown shipment', async () => {
    expect(
      (await api.call('POST', '/shipments/print', { shipment_ids: [booked], document_type: 'label', label_layout: '5x5' })).status,
    ).toBe(400);
    expect(
      (await api.call('POST', '/shipments/print', { shipment_ids: [booked], document_type: 'label', output_format: 'fax' })).status,
    ).toBe(400);
    expect((await api.call('POST', '/shipments/print', { shipment_ids: [], document_type: 'label' })).status).toBe(400);
    expect(
      (await api.call('POST', '/shipments/print', { shipment_ids: ['3f0c1d2e-4b5a-4c6d-8e7f-9a0b1c2d3e4f'], document_type: 'label' }))
        .status,
    ).toBe(404);
  });

  it('under labelDelayMs answers 503 + Retry-After: 1 until the label is ready', async () => {
    const s = await started({ faults: { labelDelayMs: 60_000 } });
    try {
      const fresh = await s.sandbox.bookShipment();
      const res = await s.api.call('POST', '/shipments/print', {
        shipment_ids: [fresh.shipmentId],
        document_type: 'label',
        output_format: 'url',
      });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(res.body.code).toBe('label_not_ready');
      expect(res.body.message).toMatch(/not ready/);
      s.sandbox.setFaults({ labelDelayMs: 0 });
      expect(
        (await s.api.call('POST', '/shipments/print', { shipment_ids: [fresh.shipmentId], document_type: 'label', output_format: 'url' }))
          .status,
      ).toBe(200);
    } finally {
      await s.sandbox.close();
    }
  });
});
