import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/server';
import { Api, createShipment, pdfForm, started, upload } from '../../support/sandbox-api';

let sandbox: Sandbox;
let api: Api;
let createdPending = '';
beforeAll(async () => {
  ({ sandbox, api } = await started());
  createdPending = await createShipment(api);
});
afterAll(async () => sandbox.close());

describe('POST /shipments/{id}/{document_type}', () => {
  it('accepts one PDF part named file with 204', async () => {
    const res = await upload(api, createdPending, 'customsinvoice', pdfForm());
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(res.headers.get('x-service-request-id')).toBeTruthy();
  });

  it('rejects a file that is not a PDF with 415, and a wrong part layout with 400', async () => {
    const text = new FormData();
    text.append('file', new Blob(['hello'], { type: 'application/pdf' }), 'x.pdf');
    expect((await upload(api, createdPending, 'abd', text)).status).toBe(415);
    const two = pdfForm();
    two.append('file', new Blob([new TextEncoder().encode('%PDF-1.4')]), 'y.pdf');
    expect((await upload(api, createdPending, 'abd', two)).status).toBe(400);
    const named = new FormData();
    named.append('document', new Blob([new TextEncoder().encode('%PDF-1.4')]), 'y.pdf');
    expect((await upload(api, createdPending, 'abd', named)).status).toBe(400);
    const field = new FormData();
    field.append('file', '%PDF-1.4 as a text field');
    expect((await upload(api, createdPending, 'abd', field)).status).toBe(400);
  });

  it('rejects a non-multipart body with 415 and an unknown document type with 400', async () => {
    const raw = await fetch(`${sandbox.baseUrl}/shipments/${createdPending}/abd`, {
      method: 'POST',
      headers: { 'x-api-key': sandbox.apiKey, 'content-type': 'application/pdf' },
      body: '%PDF-1.4',
    });
    expect(raw.status).toBe(415);
    expect((await upload(api, createdPending, 'label', pdfForm())).status).toBe(400);
    expect((await upload(api, 'bad-id', 'abd', pdfForm())).status).toBe(400);
    expect((await upload(api, '3f0c1d2e-4b5a-4c6d-8e7f-9a0b1c2d3e4f', 'abd', pdfForm())).status).toBe(404);
  });
  it('refuses uploads to a booked shipment with 409', async () => {
    const booked = await sandbox.bookShipment();
    expect((await upload(api, booked.shipmentId, 'abd', pdfForm())).status).toBe(409);
  });
});
