import { afterEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../src/main/api/client';
import { failure } from '../../support/api/failure';
import { json, PDF_BYTES, useLoopback } from '../../support/api/loopback';

const KEY = 'retry-test-key-123';
const PRINT = { shipment_ids: ['s1'], document_type: 'label', label_layout: 'printer' as const };

const server = useLoopback();
let client: ServiceClient;

afterEach(async () => {
  await client?.close();
});

function newClient(extra: Partial<ConstructorParameters<typeof ServiceClient>[0]> = {}): ServiceClient {
  client = new ServiceClient({ baseUrl: server.baseUrl, apiKey: KEY, retryBaseMs: 1, retryMaxMs: 5_000, timeoutMs: 2_000, ...extra });
  return client;
}

describe('retries for safe calls', () => {
  it('retries a GET after 503s and returns the eventual answer', async () => {
    server.handle((_req, res, i) => (i < 2 ? json(res, 503, { message: 'busy' }) : json(res, 200, { status: 'ok', team: 'T' })));
    const result = await newClient().status();
    expect(result.team).toBe('T');
    expect(server.requests).toHaveLength(3);
  });

  it('gives up after `retries` extra attempts with the last response’s request id', async () => {
    server.handle((_req, res, i) => json(res, 502, { message: 'down' }, { 'x-service-request-id': `attempt-${i}` }));
    const error = await failure(newClient({ retries: 2 }).getShipment('abc'));
    expect(server.requests).toHaveLength(3);
    expect(error.code).toBe('SERVICE_UNAVAILABLE');
    expect(error.status).toBe(502);
    expect(error.requestId).toBe('attempt-2');
    expect(error.retryable).toBe(true);
  });

  it('retries a reset connection', async () => {
    server.handle((_req, res, i) => {
      if (i === 0) void res.socket?.destroy();
      else json(res, 200, { carriers: [{ carrier: 'dhl', name: 'DHL' }] });
    });
    const result = await newClient().carriers();
    expect(result.carriers[0]?.carrier).toBe('dhl');
    expect(server.requests).toHaveLength(2);
  });

  it('retries 429 and waits the Retry-After seconds', async () => {
    server.handle((_req, res, i) => (i === 0 ? json(res, 429, { message: 'slow down' }, { 'retry-after': '1' }) : json(res, 200, [])));
    await newClient().tracking('abc');
    expect(server.requests).toHaveLength(2);
    // retryBaseMs is 1, so only Retry-After can explain a gap this long.
    expect(server.requests[1]!.at - server.requests[0]!.at).toBeGreaterThanOrEqual(900);
  });

  it('honours Retry-After given as an HTTP date', async () => {
    server.handle((_req, res, i) =>
      i === 0 ? json(res, 503, {}, { 'retry-after': new Date(Date.now() + 2_000).toUTCString() }) : json(res, 200, { printers: [] }),
    );
    await newClient().printers();
    expect(server.requests).toHaveLength(2);
    // HTTP dates have 1 s resolution: the wait is between 1 and 2 s.
    expect(server.requests[1]!.at - server.requests[0]!.at).toBeGreaterThanOrEqual(900);
  });

  it('does not wait out a Retry-After longer than retryMaxMs: fails with retryAfterMs for the caller', async () => {
    server.handle((_req, res) => json(res, 429, { message: 'later' }, { 'retry-after': '120' }));
    const error = await failure(newClient({ retryMaxMs: 1_000 }).status());
    expect(server.requests).toHaveLength(1);
    expect(error.code).toBe('SERVICE_RATE_LIMITED');
    expect(error.retryAfterMs).toBe(120_000);
  });

  it('retries print as file and as url (idempotent)', async () => {
    server.handle((_req, res, i) => {
      if (i === 0) return json(res, 503, { message: 'label not ready' }, { 'retry-after': '0' });
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.end(PDF_BYTES);
    });
    const file = await newClient().printFile(PRINT);
    expect(Buffer.from(file.pdf).subarray(0, 5).toString()).toBe('%PDF-');
    expect(server.requests).toHaveLength(2);

    server.handle((_req, res, i) => void (i === 0 ? res.socket?.destroy() : json(res, 200, { output_url: 'http://x/y.pdf' })));
    const url = await client.printUrl(PRINT);
    expect(url.output_url).toBe('http://x/y.pdf');
    expect(server.requests).toHaveLength(2);
  });

  it('retries print as file when the connection drops in the middle of the PDF', async () => {
    server.handle((_req, res, i) => {
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(PDF_BYTES.length) });
      if (i === 0) {
        res.write(PDF_BYTES.subarray(0, 10));
        setTimeout(() => res.socket?.destroy(), 20);
      } else res.end(PDF_BYTES);
    });
    const file = await newClient().printFile(PRINT);
    expect(Buffer.from(file.pdf).equals(PDF_BYTES)).toBe(true);
    expect(server.requests).toHaveLength(2);
  });

  it('does not retry a 4xx', async () => {
    server.handle((_req, res) => json(res, 400, { message: 'malformed id' }));
    const error = await failure(newClient().getShipment('nope'));
    expect(error.code).toBe('SERVICE_BAD_REQUEST');
    expect(server.requests).toHaveLength(1);
  });
});

describe('no retries for calls with effects', () => {
  const unsafe: Array<[string, (c: ServiceClient) => Promise<unknown>]> = [
    ['book', (c) => c.book({ booking_token: 't' })],
    ['printToPrinter', (c) => c.printToPrinter({ ...PRINT, printer_id: 'p1' })],
    ['createShipment', (c) => c.createShipment({ reference_id: 'r' })],
    ['updateShipment', (c) => c.updateShipment('s1', { reference_id: 'r' })],
    ['deleteShipment', (c) => c.deleteShipment('s1')],
    ['cancel', (c) => c.cancel({ shipment_id: 's1' })],
    ['uploadDocument', (c) => c.uploadDocument('s1', 'abd', PDF_BYTES)],
  ];

  for (const [name, call] of unsafe) {
    it(`${name}: one request on 503`, async () => {
      server.handle((_req, res) => json(res, 503, { message: 'busy' }, { 'retry-after': '0' }));
      const error = await failure(call(newClient()));
      expect(error.code).toBe('SERVICE_UNAVAILABLE');
      expect(server.requests).toHaveLength(1);
    });
  }

  it('book: one request on a reset connection', async () => {
    server.handle((_req, res) => void res.socket?.destroy());
    const error = await failure(newClient().book({ booking_token: 't' }));
    expect(error.code).toBe('SERVICE_UNREACHABLE');
    expect(server.requests).toHaveLength(1);
  });

  it('printToPrinter: one request on 429', async () => {
    server.handle((_req, res) => json(res, 429, {}, { 'retry-after': '0' }));
    const error = await failure(newClient().printToPrinter({ ...PRINT, printer_id: 'p1' }));
    expect(error.code).toBe('SERVICE_RATE_LIMITED');
    expect(server.requests).toHaveLength(1);
  });
});

describe('close()', () => {
  it('ends a call waiting between retries', async () => {
    server.handle((_req, res) => json(res, 503, {}, { 'retry-after': '3' }));
    const c = newClient();
    const pending = failure(c.status());
    await new Promise((r) => setTimeout(r, 200));
    await c.close();
    const error = await pending;
    expect(error.code).toBe('SERVICE_UNREACHABLE');
    expect(error.message).toMatch(/closed/);
    expect(server.requests).toHaveLength(1);
  });
});
