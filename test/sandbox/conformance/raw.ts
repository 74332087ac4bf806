/**
 * Raw-HTTP helpers for the spec-conformance suite. Deliberately independent of
 * src/main/api and of test/support/sandbox-api.ts: requests are built from the spec text only.
 */
import { startSandbox, type Sandbox, type SandboxOptions } from '../../../src/sandbox/server';

export interface Raw<T = any> {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly bytes: Uint8Array;
  readonly body: T;
}

export interface Conn {
  readonly sandbox: Sandbox;
  call<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Raw<T>>;
}

export async function open(options: SandboxOptions = {}): Promise<Conn> {
  const sandbox = await startSandbox({ port: 0, ...options });
  return {
    sandbox,
    async call(method, path, body, headers = {}) {
      const h: Record<string, string> = { 'x-api-key': sandbox.apiKey, ...headers };
      if (body !== undefined) h['content-type'] = 'application/json';
      const res = await fetch(path.startsWith('http') ? path : `${sandbox.baseUrl}${path}`, {
        method,
        headers: h,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const bytes = new Uint8Array(await res.arrayBuffer());
      const text = new TextDecoder().decode(bytes);
      let parsed: unknown = text;
      if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
      return { status: res.status, headers: res.headers, text, bytes, body: parsed as never };
    },
  };
}

export const RECEIVER_SE = {
  name: 'Kund AB',
  address: { address_line_1: 'Storgatan 1', postal_code: '11122', city: 'Stockholm', country_code: 'SE' },
  contact: { name: 'Karin Kund', email: 'karin@example.com', phone: '+46701234567' },
};
export const RECEIVER_NO = {
  name: 'Kunde AS',
  address: { address_line_1: 'Karl Johans gate 1', postal_code: '0154', city: 'Oslo', country_code: 'NO' },
  contact: { name: 'Kari Kunde', email: 'kari@example.com', phone: '+4791234567' },
};
export const SENDER_SE = {
  name: 'Avsändare AB',
  address: { address_line_1: 'Packgatan 2', postal_code: '41101', city: 'Göteborg', country_code: 'SE' },
  contact: { name: 'Sven Sender', email: 'sven@example.com', phone: '+46311234567' },
};
export const BOX = { weight_kg: 3, depth_cm: 30, height_cm: 20, width_cm: 20, quantity: 1, description: 'Books', type: 'PACKAGE' };
export const CUSTOMS = {
  invoice_type: 'commercial',
  invoice_number: 'F-1',
  reason_for_export: 'sale',
  currency: 'SEK',
  terms_of_sale: 'DAP',
  signature: 'Sven Sender',
  // Complete for a business receiver too ("Required for B2B international shipments").
  receiver_eori_number: 'NO123456789',
  receiver_vat_number: 'NO123456789MVA',
  items: [
    {
      description: 'Books',
      material: 'paper',
      quantity: 2,
      unit_type: 'pcs',
      unit_weight: 1,
      unit_value: 100,
      hs_code: '490199',
      country_of_origin: 'SE',
    },
  ],
};
/** A Monday morning with an offset, far enough ahead that no clock reaches it. */
export const PICKUP = '2030-03-04T09:00:00+01:00';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** ISO 8601 / RFC 3339 date-time with a zone designator (Z or offset). */
export const ISO_TZ = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export async function create(c: Conn, body: Record<string, unknown> = {}): Promise<string> {
  const res = await c.call('POST', '/shipments', {
    enable_bookable_validation: true,
    from: SENDER_SE,
    to: RECEIVER_SE,
    packages: [BOX],
    ...body,
  });
  if (res.status >= 300) throw new Error(`create: ${res.status} ${res.text}`);
  return res.body.id;
}

export async function rateSearch(c: Conn, shipmentId: string, extra: Record<string, unknown> = {}): Promise<Raw> {
  return c.call('POST', '/shipments/rates', { shipment_id: shipmentId, requested_pickup_time: PICKUP, ...extra });
}

/** Creates, rates and books the first rate that `pick` accepts; returns ids. */
export async function createAndBook(
  c: Conn,
  body: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
  pick: (r: any) => boolean = () => true,
): Promise<{ id: string; tracking: string; rate: any }> {
  const id = await create(c, body);
  const r = await rateSearch(c, id, extra);
  const rate = (r.body.rates ?? []).find(pick);
  if (!rate) throw new Error(`no rate: ${r.status} ${r.text}`);
  const b = await c.call('POST', '/shipments/book', { booking_token: rate.booking_token });
  if (b.status !== 200) throw new Error(`book: ${b.status} ${b.text}`);
  return { id, tracking: b.body.main_tracking_id, rate };
}

export function pdfUpload(c: Conn, shipmentId: string, type: string, content = '%PDF-1.4\n%%EOF\n'): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob([new TextEncoder().encode(content)], { type: 'application/pdf' }), 'doc.pdf');
  return fetch(`${c.sandbox.baseUrl}/shipments/${shipmentId}/${type}`, {
    method: 'POST',
    headers: { 'x-api-key': c.sandbox.apiKey },
    body: form,
  });
}
