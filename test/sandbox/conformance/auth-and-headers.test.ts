/** Spec: What the service does (conventions), Authentication, Versioning 1. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, ISO_TZ, open, type Conn } from './raw';

let c: Conn;
beforeAll(async () => {
  c = await open();
});
afterAll(async () => {
  await c.sandbox.close();
});

describe('auth and headers', () => {
  it('R-V1: the API lives under the path prefix /external/v1', () => {
    expect(new URL(c.sandbox.baseUrl).pathname).toBe('/external/v1');
  });

  it('R-A2: GET /status with a valid key returns {status, team} as strings', async () => {
    const res = await c.call('GET', '/status');
    expect(res.status).toBe(200);
    expect(typeof res.body.status).toBe('string');
    expect(typeof res.body.team).toBe('string');
    expect(res.body.team.length).toBeGreaterThan(0);
  });

  it('R-A1/A4: a missing or wrong x-api-key is refused on every endpoint with a JSON error body carrying a message', async () => {
    const paths: Array<[string, string]> = [
      ['GET', '/status'],
      ['POST', '/shipments'],
      ['GET', '/shipments'],
      ['POST', '/shipments/rates'],
      ['POST', '/shipments/book'],
      ['POST', '/shipments/cancel'],
      ['POST', '/shipments/print'],
      ['GET', '/carriers'],
      ['GET', '/printers'],
      ['POST', '/locations/servicepoints'],
      ['POST', '/favorites/addresses'],
      ['GET', '/favorites/packages'],
      ['GET', '/shipping-rules'],
      ['GET', '/shipment-defaults'],
      ['PATCH', '/shipment-defaults'],
    ];
    for (const [method, path] of paths) {
      for (const headers of [{ 'x-api-key': '' }, { 'x-api-key': 'wrong-key' }]) {
        const res = await c.call(method, path, method === 'GET' ? undefined : {}, headers);
        expect(res.status, `${method} ${path}`).toBe(401);
        expect(res.headers.get('content-type')).toMatch(/json/);
        expect(JSON.stringify(res.body)).toMatch(/"message":"[^"]+"/);
        expect(res.headers.get('x-service-request-id')).toBeTruthy();
      }
    }
  });

  it('R-G4: every response carries X-Service-Request-ID (success, 4xx, PDF, 204), fresh per response', async () => {
    const id = await create(c);
    const ids: string[] = [];
    const answers = [
      await c.call('GET', '/status'),
      await c.call('GET', `/shipments/${id}`),
      await c.call('GET', '/shipments/not-an-id'),
      await c.call('POST', '/shipments/rates', { shipment_id: id }),
      await c.call('DELETE', `/shipments/${id}`),
      await c.call('GET', '/status', undefined, { 'x-api-key': 'nope' }),
    ];
    for (const a of answers) {
      const rid = a.headers.get('x-service-request-id');
      expect(rid, `status ${a.status}`).toBeTruthy();
      ids.push(rid!);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('R-Err2: errors other than field validation carry a body with an error message', async () => {
    const id = await create(c);
    const answers = [
      await c.call('GET', '/shipments/not-an-id'),
      await c.call('GET', '/shipments/3f2c1a9e-0000-4000-8000-000000000000'),
      await c.call('POST', '/shipments/book', { booking_token: 'nope' }),
      await c.call('POST', '/shipments/rates', { shipment_id: id }),
      await c.call('POST', '/shipments/print', { shipment_ids: [id], document_type: 'label', label_layout: 'a4', output_format: 'file' }),
    ];
    for (const a of answers) {
      expect(a.status, a.text).toBeGreaterThanOrEqual(400);
      expect(a.headers.get('content-type'), a.text).toMatch(/json/);
      const strings = Object.values(a.body as Record<string, unknown>).filter((v) => typeof v === 'string' && v.length > 3);
      expect(strings.length, a.text).toBeGreaterThan(0);
    }
  });

  it('R-G1: responses are JSON (Content-Type application/json) except the PDF file and 204s', async () => {
    for (const path of [
      '/status',
      '/carriers',
      '/printers',
      '/shipping-rules',
      '/favorites/packages',
      '/shipment-defaults',
      '/shipments',
    ]) {
      const res = await c.call('GET', path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toMatch(/^application\/json/);
      expect(() => JSON.parse(res.text)).not.toThrow();
    }
  });

  it('R-G3: timestamps on a shipment are ISO 8601 with a timezone', async () => {
    const id = await create(c);
    const res = await c.call('GET', `/shipments/${id}`);
    for (const [k, v] of Object.entries(res.body)) {
      if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v)) expect(v, k).toMatch(ISO_TZ);
    }
  });
});
