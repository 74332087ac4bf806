import { inspect } from 'node:util';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../src/main/api/client';
import type { ApiError } from '../../../src/main/api/errors';
import { failure } from '../../support/api/failure';
import { json, useLoopback } from '../../support/api/loopback';

const KEY = 'sk-super-secret-4711';
const PRINT = { shipment_ids: ['s1'], document_type: 'label', label_layout: 'printer' as const };

const server = useLoopback();
let client: ServiceClient;

afterEach(async () => {
  await client?.close();
});

function newClient(extra: Partial<ConstructorParameters<typeof ServiceClient>[0]> = {}): ServiceClient {
  client = new ServiceClient({ baseUrl: server.baseUrl, apiKey: KEY, retries: 0, timeoutMs: 2_000, ...extra });
  return client;
}

function expectNoKey(error: ApiError): void {
  expect(error.message).not.toContain(KEY);
  expect(String(error.serviceMessage)).not.toContain(KEY);
  expect(inspect(error, { depth: 5 })).not.toContain(KEY);
}

describe('status codes → stable codes and messages', () => {
  const cases: Array<[number, string]> = [
    [400, 'SERVICE_BAD_REQUEST'],
    [401, 'SERVICE_UNAUTHORIZED'],
    [403, 'SERVICE_UNAUTHORIZED'],
    [404, 'SERVICE_NOT_FOUND'],
    [409, 'SERVICE_CONFLICT'],
    [422, 'SERVICE_UNPROCESSABLE'],
    [429, 'SERVICE_RATE_LIMITED'],
    [500, 'SERVICE_UNAVAILABLE'],
    [503, 'SERVICE_UNAVAILABLE'],
    [418, 'SERVICE_REJECTED'],
  ];
  for (const [status, code] of cases) {
    it(`${status} → ${code}, with status and request id`, async () => {
      server.handle((_req, res) => json(res, status, { message: `m${status}` }, { 'X-Service-Request-ID': `rid-${status}` }));
      const error = await failure(newClient().getShipment('abc'));
      expect(error.code).toBe(code);
      expect(error.status).toBe(status);
      expect(error.requestId).toBe(`rid-${status}`);
      expect(error.message).toContain(`rid-${status}`);
      expect(error.serviceMessage).toBe(`m${status}`);
      expect(error.method).toBe('GET');
      expect(error.path).toBe('/shipments/abc');
    });
  }

  it('401 tells the user where to fix the key, and never shows it even when echoed', async () => {
    server.handle((_req, res) => json(res, 401, { message: `invalid api key ${KEY}` }));
    const error = await failure(newClient().status());
    expect(error.message).toMatch(/API key.*Settings → Connection/);
    expect(error.serviceMessage).toBe('invalid api key [redacted]');
    expectNoKey(error);
  });

  it('reads the service message wherever the body puts it', async () => {
    const bodies: Array<[unknown, string]> = [
      [{ message: 'a' }, 'a'],
      [{ error: 'b' }, 'b'],
      [{ error: { message: 'c', code: 'X' } }, 'c'],
      [{ detail: 'd' }, 'd'],
      [{ code: 'E' }, ''],
    ];
    for (const [body, expected] of bodies) {
      server.handle((_req, res) => json(res, 422, body));
      const error = await failure(newClient().rates({ shipment_id: 's' }));
      expect(error.serviceMessage ?? '').toBe(expected);
      await client.close();
    }
  });

  it('parses the field-error map and names the fields in the message', async () => {
    const errors = { 'packages[0].weight_kg': ['is required'], 'to.contact.email': ['must be a valid email address'] };
    server.handle((_req, res) => json(res, 422, { errors }, { 'x-service-request-id': 'rid-v' }));
    const error = await failure(newClient().createShipment({ enable_bookable_validation: true }));
    expect(error.code).toBe('SERVICE_UNPROCESSABLE');
    expect(error.fieldErrors).toEqual(errors);
    expect(error.message).toContain('packages[0].weight_kg: is required');
    expect(error.requestId).toBe('rid-v');
  });

  it('keeps a non-JSON error body as the service message', async () => {
    server.handle((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('Bad Gateway');
    });
    const error = await failure(newClient().carriers());
    expect(error.code).toBe('SERVICE_UNAVAILABLE');
    expect(error.serviceMessage).toBe('Bad Gateway');
  });
});

describe('timeouts and network failures', () => {
  it('no answer within timeoutMs → SERVICE_TIMEOUT', async () => {
    server.handle(() => {
      /* never answers */
    });
    const error = await failure(newClient({ timeoutMs: 200 }).status());
    expect(error.code).toBe('SERVICE_TIMEOUT');
    expect(error.status).toBeNull();
    expect(error.retryable).toBe(true);
    expectNoKey(error);
  });

  it('a body that stalls after the headers → SERVICE_TIMEOUT (the deadline covers the body)', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf', 'x-service-request-id': 'rid-slow' });
      res.write('%PDF-1.7\n');
    });
    const error = await failure(newClient({ timeoutMs: 300 }).printFile(PRINT));
    expect(error.code).toBe('SERVICE_TIMEOUT');
    expect(error.requestId).toBe('rid-slow');
  });

  it('a timeout on a safe call is retried', async () => {
    server.handle((_req, res, i) => {
      if (i > 0) json(res, 200, { status: 'ok', team: 'T' });
    });
    const result = await newClient({ timeoutMs: 200, retries: 1, retryBaseMs: 1 }).status();
    expect(result.team).toBe('T');
    expect(server.requests).toHaveLength(2);
  });

  it('connection refused → SERVICE_UNREACHABLE, message names the origin but not the key', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((r) => probe.close(() => r()));
    client = new ServiceClient({ baseUrl: `http://127.0.0.1:${port}/external/v1`, apiKey: KEY, retries: 0 });
    const error = await failure(client.status());
    expect(error.code).toBe('SERVICE_UNREACHABLE');
    expect(error.message).toContain(`127.0.0.1:${port}`);
    expectNoKey(error);
  });
});

describe('invalid responses', () => {
  it('a 2xx that is not JSON → SERVICE_INVALID_RESPONSE with the request id', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'x-service-request-id': 'rid-html' });
      res.end('<html>proxy login</html>');
    });
    const error = await failure(newClient().status());
    expect(error.code).toBe('SERVICE_INVALID_RESPONSE');
    expect(error.requestId).toBe('rid-html');
  });

  it('a 2xx breaking the schema names the field path', async () => {
    server.handle((_req, res) => json(res, 200, { id: 's1', status: 'PENDING', packages: [{ weight_kg: 'heavy' }] }));
    const error = await failure(newClient().getShipment('s1'));
    expect(error.code).toBe('SERVICE_INVALID_RESPONSE');
    expect(error.message).toContain('packages[0].weight_kg');
    expect(Object.keys(error.fieldErrors)).toEqual(['packages[0].weight_kg']);
  });

  it('printFile: JSON on a 2xx is SERVICE_INVALID_RESPONSE', async () => {
    server.handle((_req, res) => json(res, 200, { output_url: 'http://x' }));
    const error = await failure(newClient().printFile(PRINT));
    expect(error.code).toBe('SERVICE_INVALID_RESPONSE');
    expect(error.message).toContain('application/json');
  });

  it('printFile: bytes labelled PDF that are not a PDF are SERVICE_INVALID_RESPONSE', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.end('hello');
    });
    const error = await failure(newClient().printFile(PRINT));
    expect(error.code).toBe('SERVICE_INVALID_RESPONSE');
  });
});

describe('invalid requests are refused before sending', () => {
  it('weight_kg "heavy" → SERVICE_INVALID_REQUEST naming packages[0].weight_kg, nothing sent', async () => {
    server.handle((_req, res) => json(res, 200, { id: 'x' }));
    const bad = { packages: [{ weight_kg: 'heavy' }] } as unknown as Parameters<ServiceClient['createShipment']>[0];
    const error = await failure(newClient().createShipment(bad));
    expect(error.code).toBe('SERVICE_INVALID_REQUEST');
    expect(error.fieldErrors).toHaveProperty(['packages[0].weight_kg']);
    expect(server.requests).toHaveLength(0);
  });

  it('an empty shipment id is refused rather than turned into GET /shipments', async () => {
    const error = await failure(newClient().getShipment(''));
    expect(error.code).toBe('SERVICE_INVALID_REQUEST');
    expect(server.requests).toHaveLength(0);
  });
});

describe('construction', () => {
  it('an invalid base address fails at once, naming where to fix it', () => {
    expect(() => new ServiceClient({ baseUrl: 'not a url', apiKey: KEY })).toThrow(/Settings → Connection/);
  });

  it('an empty key is sent and the service’s 401 becomes SERVICE_UNAUTHORIZED', async () => {
    server.handle((req, res) => json(res, req.headers['x-api-key'] ? 200 : 401, { message: 'missing key' }));
    client = new ServiceClient({ baseUrl: server.baseUrl, apiKey: '', retries: 0 });
    const error = await failure(client.status());
    expect(error.code).toBe('SERVICE_UNAUTHORIZED');
  });
});

describe('the API key stays secret', () => {
  it('is absent from inspect, toString and JSON of the client', () => {
    const c = newClient();
    expect(inspect(c, { depth: 10, showHidden: true })).not.toContain(KEY);
    expect(String(c)).not.toContain(KEY);
    expect(JSON.stringify(c)).not.toContain(KEY);
    expect(JSON.stringify(c)).toContain('[redacted]');
  });

  it('is sent as x-api-key on every call', async () => {
    server.handle((_req, res) => json(res, 200, { status: 'ok', team: 'T' }));
    await newClient().status();
    expect(server.requests[0]!.headers['x-api-key']).toBe(KEY);
  });
});
