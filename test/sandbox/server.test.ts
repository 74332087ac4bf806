import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server';
import { Api, book, createShipment, started } from '../support/sandbox-api';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
let sandbox: Sandbox | null = null;
afterEach(async () => {
  await sandbox?.close();
  sandbox = null;
});

describe('sandbox server', () => {
  it('listens on loopback under /external/v1 and answers GET /status with the team', async () => {
    const s = await started({ team: 'Packers AB' });
    sandbox = s.sandbox;
    expect(sandbox.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/external\/v1$/);
    expect(sandbox.origin).toBe(sandbox.baseUrl.replace('/external/v1', ''));
    const res = await s.api.call('GET', '/status');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', team: 'Packers AB' });
  });

  it('rejects a missing or wrong x-api-key with 401 and a JSON error body', async () => {
    const s = await started({ apiKey: 'right-key' });
    sandbox = s.sandbox;
    for (const api of [new Api(sandbox, null), new Api(sandbox, 'wrong-key')]) {
      const res = await api.call('GET', '/status');
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'unauthorized' });
      expect(typeof res.body.message).toBe('string');
      expect(res.headers.get('x-service-request-id')).toMatch(UUID);
    }
    const admin = await new Api(sandbox, 'wrong-key').call('POST', '/admin/book', {});
    expect(admin.status).toBe(401);
  });

  it('puts a fresh X-Service-Request-ID on every response: success, errors, 404 and the PDF', async () => {
    const s = await started();
    sandbox = s.sandbox;
    const id = await createShipment(s.api);
    await book(s.api, id);
    const pdf = await fetch(`${sandbox.baseUrl}/shipments/print`, {
      method: 'POST',
      headers: { 'x-api-key': sandbox.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ shipment_ids: [id], document_type: 'label', output_format: 'file' }),
    });
    await pdf.arrayBuffer();
    const answers = [
      (await s.api.call('GET', '/status')).headers,
      (await s.api.call('GET', '/nope')).headers,
      (await s.api.call('GET', '/shipments/not-a-uuid')).headers,
      (await fetch(`${sandbox.origin}/elsewhere`)).headers,
      pdf.headers,
    ];
    const ids = answers.map((h) => h.get('x-service-request-id'));
    for (const rid of ids) expect(rid).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('tells a malformed id (400) from a well-formed unknown one (404)', async () => {
    const s = await started();
    sandbox = s.sandbox;
    const bad = await s.api.call('GET', '/shipments/12345');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_id');
    const unknown = await s.api.call('GET', '/shipments/3f0c1d2e-4b5a-4c6d-8e7f-9a0b1c2d3e4f');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('shipment_not_found');
  });

  it('answers 404 for unknown endpoints, 405 for a wrong method, 400 for broken JSON', async () => {
    const s = await started();
    sandbox = s.sandbox;
    expect((await s.api.call('GET', '/unknown')).status).toBe(404);
    const wrong = await s.api.call('DELETE', '/carriers');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toContain('GET');
    const broken = await fetch(`${sandbox.baseUrl}/shipments`, {
      method: 'POST',
      headers: { 'x-api-key': sandbox.apiKey, 'content-type': 'application/json' },
      body: '{"reference_id": ',
    });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { code: string }).code).toBe('invalid_json');
  });

  it('names the field of a wrong type with a 400', async () => {
    const s = await started();
    sandbox = s.sandbox;
    const res = await s.api.call('POST', '/shipments', { packages: [{ weight_kg: 'heavy' }] });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(['packages[0].weight_kg']);
    expect(res.body.message).toContain('packages[0].weight_kg');
  });

  it('logs the requests it served with method, path+query and status', async () => {
    const s = await started();
    sandbox = s.sandbox;
    await s.api.call('GET', '/shipments?limit=5');
    await s.api.call('GET', '/status');
    expect(sandbox.requestLog().map((e) => [e.method, e.url, e.status])).toEqual([
      ['GET', '/external/v1/shipments?limit=5', 200],
      ['GET', '/external/v1/status', 200],
    ]);
    expect(sandbox.requestLog()[1]!.bytes).toBeGreaterThan(0);
    sandbox.clearRequestLog();
    expect(sandbox.requestLog()).toEqual([]);
  });
});

describe('fault knobs', () => {
  it('answers 503 with a JSON error at error rate 1, and recovers when cleared', async () => {
    const s = await started({ faults: { errorRate: 1 } });
    sandbox = s.sandbox;
    const res = await s.api.call('GET', '/status');
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('service_unavailable');
    expect(res.headers.get('x-service-request-id')).toMatch(UUID);
    sandbox.setFaults({ errorRate: 0 });
    expect((await s.api.call('GET', '/status')).status).toBe(200);
  });

  it('answers 429 with Retry-After at rate-limit rate 1', async () => {
    const s = await started({ faults: { rateLimitRate: 1, retryAfterSeconds: 7 } });
    sandbox = s.sandbox;
    const res = await s.api.call('GET', '/status');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('7');
  });

  it('drops the connection without an answer at drop rate 1', async () => {
    const s = await started({ faults: { dropRate: 1 } });
    sandbox = s.sandbox;
    await expect(s.api.call('GET', '/status')).rejects.toThrow();
    expect(sandbox.requestLog().at(-1)).toMatchObject({ url: '/external/v1/status', status: 0 });
  });

  it('adds latency to API responses', async () => {
    const s = await started({ faults: { latencyMs: 150 } });
    sandbox = s.sandbox;
    const t0 = Date.now();
    await s.api.call('GET', '/status');
    // A floor, not a speed check: the knob must delay at least what it says.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
  });

  it('never applies faults to /admin, and sets them at run time through POST /admin/faults', async () => {
    const s = await started({ faults: { errorRate: 1 } });
    sandbox = s.sandbox;
    const booked = await s.api.call('POST', `${sandbox.origin}/admin/book`, {});
    expect(booked.status).toBe(200);
    const cleared = await s.api.call('POST', `${sandbox.origin}/admin/faults`, { errorRate: 0, rateLimitRate: 1 });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ errorRate: 0, rateLimitRate: 1 });
    expect((await s.api.call('GET', '/status')).status).toBe(429);
    const invalid = await s.api.call('POST', `${sandbox.origin}/admin/faults`, { errorRate: 2 });
    expect(invalid.status).toBe(400);
  });

  it('limits webhook endpoints to 5 on POST /admin/webhooks', async () => {
    const s = await started();
    sandbox = s.sandbox;
    const six = Array.from({ length: 6 }, (_v, i) => ({ url: `http://127.0.0.1:9/${i}`, secret: 's' }));
    expect((await s.api.call('POST', `${sandbox.origin}/admin/webhooks`, six)).status).toBe(400);
    expect((await s.api.call('POST', `${sandbox.origin}/admin/webhooks`, { endpoints: six.slice(0, 5) })).body).toEqual({ endpoints: 5 });
    expect((await s.api.call('POST', `${sandbox.origin}/admin/webhooks`, null)).status).toBe(400);
  });

  it('rejects out-of-range fault settings through setFaults', async () => {
    const s = await started();
    sandbox = s.sandbox;
    expect(() => sandbox!.setFaults({ dropRate: 1.5 })).toThrow(RangeError);
  });
});
