import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from 'undici';
import { ServiceClient } from '../../../src/main/api/client';
import { CLIENT_VERSION } from '../../../src/main/api/version';
import { json, PDF_BYTES, useLoopback } from '../../support/api/loopback';

const KEY = 'wire-test-key';
const PRINT = { shipment_ids: ['s1', 's2'], document_type: 'label', label_layout: '2x2' as const };
const SHIPMENT = { id: 's1', status: 'PENDING' };

const server = useLoopback();
let client: ServiceClient;

afterEach(async () => {
  await client?.close();
});

function newClient(): ServiceClient {
  client = new ServiceClient({ baseUrl: `${server.baseUrl}/`, apiKey: KEY, retries: 0 });
  return client;
}

const bodyOf = (i = 0): unknown => JSON.parse(server.requests[i]!.body.toString('utf8'));

describe('each method speaks the spec’s wire form', () => {
  const cases: Array<{
    name: string;
    call: (c: ServiceClient) => Promise<unknown>;
    reply: unknown;
    method: string;
    url: string;
    body?: unknown;
  }> = [
    { name: 'status', call: (c) => c.status(), reply: { status: 'ok', team: 'T' }, method: 'GET', url: '/external/v1/status' },
    {
      name: 'createShipment',
      call: (c) => c.createShipment({ reference_id: 'R1', packages: [{ weight_kg: 1 }] }),
      reply: { id: 's1', reference_id: 'R1' },
      method: 'POST',
      url: '/external/v1/shipments',
      body: { reference_id: 'R1', packages: [{ weight_kg: 1 }] },
    },
    { name: 'getShipment', call: (c) => c.getShipment('a/b'), reply: SHIPMENT, method: 'GET', url: '/external/v1/shipments/a%2Fb' },
    {
      name: 'updateShipment',
      call: (c) => c.updateShipment('s1', { packages: [], third_party_customs_payer: {} }),
      reply: SHIPMENT,
      method: 'PUT',
      url: '/external/v1/shipments/s1',
      body: { packages: [], third_party_customs_payer: {} },
    },
    {
      name: 'rates',
      call: (c) => c.rates({ shipment_id: 's1', required_addons: { without_pickup: true }, future_flag: 1 } as never),
      reply: { rates: [], warnings: [{ carrier_name: 'X', carrier_product_code: 'P', warnings: ['too long'] }] },
      method: 'POST',
      url: '/external/v1/shipments/rates',
      body: { shipment_id: 's1', required_addons: { without_pickup: true }, future_flag: 1 },
    },
    {
      name: 'book',
      call: (c) => c.book({ booking_token: 'tok', delivery_service_point_token: 'sp' }),
      reply: { shipment_id: 's1', main_tracking_id: 'T1' },
      method: 'POST',
      url: '/external/v1/shipments/book',
      body: { booking_token: 'tok', delivery_service_point_token: 'sp' },
    },
    {
      name: 'cancel',
      call: (c) => c.cancel({ shipment_id: 's1' }),
      reply: { id: 's1', status: 'CANCELED' },
      method: 'POST',
      url: '/external/v1/shipments/cancel',
      body: { shipment_id: 's1' },
    },
    {
      name: 'printUrl',
      call: (c) => c.printUrl(PRINT),
      reply: { output_url: 'http://o' },
      method: 'POST',
      url: '/external/v1/shipments/print',
      body: { ...PRINT, output_format: 'url' },
    },
    {
      name: 'printToPrinter',
      call: (c) => c.printToPrinter({ ...PRINT, printer_id: 'p1' }),
      reply: { output_url: 'http://o' },
      method: 'POST',
      url: '/external/v1/shipments/print',
      body: { ...PRINT, printer_id: 'p1', output_format: 'printer' },
    },
    { name: 'tracking', call: (c) => c.tracking('s1'), reply: [], method: 'GET', url: '/external/v1/shipments/s1/tracking' },
    { name: 'carriers', call: (c) => c.carriers(), reply: { carriers: [] }, method: 'GET', url: '/external/v1/carriers' },
    { name: 'printers', call: (c) => c.printers(), reply: { printers: [] }, method: 'GET', url: '/external/v1/printers' },
    {
      name: 'servicePoints',
      call: (c) => c.servicePoints({ address_line: 'Gatan 1', postal_code: '41101', city: 'Göteborg', country_code: 'SE' }),
      reply: { locations: [] },
      method: 'POST',
      url: '/external/v1/locations/servicepoints',
      body: { address_line: 'Gatan 1', postal_code: '41101', city: 'Göteborg', country_code: 'SE' },
    },
    {
      name: 'favoriteAddresses',
      call: (c) => c.favoriteAddresses(),
      reply: [],
      method: 'POST',
      url: '/external/v1/favorites/addresses',
      body: {},
    },
    { name: 'favoritePackages', call: (c) => c.favoritePackages(), reply: [], method: 'GET', url: '/external/v1/favorites/packages' },
    {
      name: 'shippingRules',
      call: (c) => c.shippingRules(),
      reply: { shipping_rules: [] },
      method: 'GET',
      url: '/external/v1/shipping-rules',
    },
    { name: 'shipmentDefaults', call: (c) => c.shipmentDefaults(), reply: {}, method: 'GET', url: '/external/v1/shipment-defaults' },
    {
      name: 'patchShipmentDefaults',
      call: (c) => c.patchShipmentDefaults({ sender_address: { id: 'a1' }, package: null }),
      reply: { sender_address: { id: 'a1' }, package: null },
      method: 'PATCH',
      url: '/external/v1/shipment-defaults',
      body: { sender_address: { id: 'a1' }, package: null },
    },
  ];

  for (const c of cases) {
    it(c.name, async () => {
      server.handle((_req, res) => json(res, 200, c.reply));
      await c.call(newClient());
      const [req] = server.requests;
      expect(req!.method).toBe(c.method);
      expect(req!.url).toBe(c.url);
      expect(req!.headers['x-api-key']).toBe(KEY);
      expect(req!.headers['user-agent']).toBe(`print-station/${CLIENT_VERSION}`);
      if (c.body !== undefined) {
        expect(req!.headers['content-type']).toBe('application/json');
        expect(bodyOf()).toEqual(c.body);
      }
    });
  }

  it('listShipments sends the filters as a query and reads X-Total-Count', async () => {
    server.handle((_req, res) => json(res, 200, [SHIPMENT], { 'x-total-count': '41' }));
    const page = await newClient().listShipmentsPage({ reference_id: 'R 1&x', status: 'CANCELED', limit: 10, offset: 20 });
    const url = new URL(server.requests[0]!.url, 'http://x');
    expect(url.pathname).toBe('/external/v1/shipments');
    expect(Object.fromEntries(url.searchParams)).toEqual({ reference_id: 'R 1&x', status: 'CANCELED', limit: '10', offset: '20' });
    expect(page.total).toBe(41);
    expect(page.shipments[0]!.id).toBe('s1');
    expect(await client.listShipments()).toHaveLength(1);
    expect(server.requests[1]!.url).toBe('/external/v1/shipments');
  });

  it('tracking hands back events with `ID` as `id`, unknown statuses intact', async () => {
    server.handle((_req, res) =>
      json(res, 200, [
        { ID: 'E1', status: 'ORDERED', created_at: '2026-10-01T09:17:29.754885247Z' },
        { id: 'E2', status: 'BEAMED_UP', created_at: '2026-10-01T11:17:29.1+02:00', location_name: 'Orbit' },
      ]),
    );
    const events = await newClient().tracking('s1');
    expect(events.map((e) => [e.id, e.status])).toEqual([
      ['E1', 'ORDERED'],
      ['E2', 'BEAMED_UP'],
    ]);
  });

  it('deleteShipment accepts an empty 204', async () => {
    server.handle((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    await expect(newClient().deleteShipment('s1')).resolves.toBeUndefined();
    expect(server.requests[0]!.method).toBe('DELETE');
    expect(server.requests[0]!.url).toBe('/external/v1/shipments/s1');
  });

  it('cancel accepts an empty body', async () => {
    server.handle((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    await expect(newClient().cancel({ shipment_id: 's1' })).resolves.toBeNull();
  });

  it('printFile asks for a PDF and returns the bytes and request id', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf', 'x-service-request-id': 'rid-pdf' });
      res.end(PDF_BYTES);
    });
    const result = await newClient().printFile(PRINT);
    expect(server.requests[0]!.headers.accept).toBe('application/pdf, application/json');
    expect(bodyOf()).toEqual({ ...PRINT, output_format: 'file' });
    expect(Buffer.from(result.pdf).equals(PDF_BYTES)).toBe(true);
    expect(result.pdf).toBeInstanceOf(Uint8Array);
    expect(result.requestId).toBe('rid-pdf');
  });

  it('uploadDocument sends multipart/form-data with exactly one part, named `file`, holding the PDF', async () => {
    server.handle((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    await newClient().uploadDocument('s1', 'customsinvoice', PDF_BYTES, 'invoice.pdf');
    const req = server.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/external/v1/shipments/s1/customsinvoice');
    expect(req.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    // Parse with the platform's own multipart parser, independent of how it was built.
    const form = await new Response(new Uint8Array(req.body), { headers: { 'content-type': req.headers['content-type']! } }).formData();
    const entries = [...(form as unknown as Iterable<[string, FormDataEntryValue]>)];
    expect(entries.map(([name]) => name)).toEqual(['file']);
    const file = entries[0]![1] as File;
    expect(file.name).toBe('invoice.pdf');
    expect(file.type).toBe('application/pdf');
    expect(Buffer.from(await file.arrayBuffer()).equals(PDF_BYTES)).toBe(true);
  });

  it('uploadDocument sends the file name without control characters', async () => {
    server.handle((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    await newClient().uploadDocument('s1', 'abd', PDF_BYTES, 'in\u0000voice\u001b[2J\r\n.pdf');
    await newClient().uploadDocument('s1', 'abd', PDF_BYTES, '\u0000\u001b');
    const names = await Promise.all(
      server.requests.map(async (req) => {
        const form = await new Response(new Uint8Array(req.body), { headers: { 'content-type': req.headers['content-type']! } }).formData();
        return (form.get('file') as File).name;
      }),
    );
    expect(names).toEqual(['invoice[2J.pdf', 'abd.pdf']);
    // eslint-disable-next-line no-control-regex
    for (const req of server.requests) expect(Buffer.from(req.body).subarray(0, 400).toString('latin1')).not.toMatch(/[\u0000\u001b]/);
  });
});

describe('connections', () => {
  it('reuses one keep-alive connection across calls', async () => {
    server.handle((_req, res) => json(res, 200, { status: 'ok', team: 'T' }));
    const c = newClient();
    for (let i = 0; i < 3; i++) {
      await c.status();
      // undici returns the socket to the pool just after the body ends; let it settle.
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(server.requests).toHaveLength(3);
    expect(new Set(server.requests.map((r) => r.remotePort)).size).toBe(1);
  });

  it('uses a given dispatcher and leaves it open on close()', async () => {
    server.handle((_req, res) => json(res, 200, { status: 'ok', team: 'T' }));
    const agent = new Agent();
    client = new ServiceClient({ baseUrl: server.baseUrl, apiKey: KEY, dispatcher: agent });
    await client.status();
    await client.close();
    expect(agent.closed).toBe(false);
    await agent.close();
  });
});
