/** Spec: Endpoints upload row, Upload {document_type} enumeration, Errors 3 (204). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, open, pdfUpload, RECEIVER_NO, type Conn } from './raw';

let c: Conn;
beforeAll(async () => {
  c = await open();
});
afterAll(async () => {
  await c.sandbox.close();
});

describe('upload', () => {
  it('R-U1: each of customsinvoice, abd, salesinvoice, adr_dangerousgoods takes a single `file` PDF part: 204 with no content', async () => {
    const id = await create(c, { to: RECEIVER_NO });
    for (const t of ['customsinvoice', 'abd', 'salesinvoice', 'adr_dangerousgoods']) {
      const res = await pdfUpload(c, id, t);
      expect(res.status, t).toBe(204);
      expect(await res.text(), t).toBe('');
      expect(res.headers.get('x-service-request-id')).toBeTruthy();
    }
  });

  it('R-U2: a part that is not a PDF is refused', async () => {
    const id = await create(c, { to: RECEIVER_NO });
    const res = await pdfUpload(c, id, 'abd', 'hello, not a pdf');
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });

  it('R-U3: the part must be named file, and single', async () => {
    const id = await create(c, { to: RECEIVER_NO });
    const pdf = () => new Blob([new TextEncoder().encode('%PDF-1.4\n%%EOF\n')], { type: 'application/pdf' });
    const wrong = new FormData();
    wrong.append('document', pdf(), 'a.pdf');
    const two = new FormData();
    two.append('file', pdf(), 'a.pdf');
    two.append('file', pdf(), 'b.pdf');
    for (const body of [wrong, two]) {
      const res = await fetch(`${c.sandbox.baseUrl}/shipments/${id}/abd`, {
        method: 'POST',
        headers: { 'x-api-key': c.sandbox.apiKey },
        body,
      });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
  });

  it('R-U4: a document type outside the upload enumeration is refused', async () => {
    const id = await create(c, { to: RECEIVER_NO });
    const res = await pdfUpload(c, id, 'label');
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });
});
