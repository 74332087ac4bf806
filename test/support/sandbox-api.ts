import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/server';

export interface Answer<T = any> {
  readonly status: number;
  readonly body: T;
  readonly headers: Headers;
}

/** Plain fetch against a started sandbox: the tests hold the sandbox to the spec, not a client. */
export class Api {
  constructor(
    readonly sandbox: Sandbox,
    private readonly key: string | null = sandbox.apiKey,
  ) {}

  async call<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer<T>> {
    const h: Record<string, string> = { ...headers };
    if (this.key !== null) h['x-api-key'] = this.key;
    if (body !== undefined) h['content-type'] = 'application/json';
    const res = await fetch(path.startsWith('http') ? path : `${this.sandbox.baseUrl}${path}`, {
      method,
      headers: h,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json')) parsed = JSON.parse(text);
    return { status: res.status, body: parsed as T, headers: res.headers };
  }
}

export const SE_RECEIVER = {
  name: 'Nordic Retail AB',
  address: { address_line_1: 'Drottninggatan 10', postal_code: '11151', city: 'Stockholm', country_code: 'SE' },
  contact: { name: 'Rita Receiver', email: 'rita@example.com', phone: '+46709876543' },
};

export const PARCEL = { weight_kg: 2, depth_cm: 30, height_cm: 20, width_cm: 20, quantity: 1, description: 'Shoes' };

export const PICKUP = '2026-11-23T10:00:00+01:00';

export const COMPLETE_CUSTOMS = {
  invoice_type: 'commercial',
  invoice_number: 'INV-1',
  reason_for_export: 'sale',
  currency: 'SEK',
  terms_of_sale: 'DAP',
  signature: 'Sam Sender',
  // The receivers in these tests are companies: B2B exports need their numbers too.
  receiver_eori_number: 'NO987654321',
  receiver_vat_number: 'NO987654321MVA',
  items: [
    {
      description: 'Shoes',
      material: 'leather',
      quantity: 1,
      unit_type: 'pcs',
      unit_weight: 1,
      unit_value: 500,
      hs_code: '640399',
      country_of_origin: 'SE',
    },
  ],
};

export async function started(options: SandboxOptions = {}): Promise<{ sandbox: Sandbox; api: Api }> {
  const sandbox = await startSandbox(options);
  return { sandbox, api: new Api(sandbox) };
}

export async function createShipment(api: Api, body: Record<string, unknown> = {}): Promise<string> {
  const res = await api.call('POST', '/shipments', { enable_bookable_validation: true, to: SE_RECEIVER, packages: [PARCEL], ...body });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

export async function rates(api: Api, shipmentId: string, extra: Record<string, unknown> = {}): Promise<Answer> {
  return api.call('POST', '/shipments/rates', { shipment_id: shipmentId, requested_pickup_time: PICKUP, ...extra });
}

/** Rates, then books the cheapest rate matching `pick` (default: the first). */
export async function book(
  api: Api,
  shipmentId: string,
  extra: Record<string, unknown> = {},
  pick: (r: any) => boolean = () => true,
): Promise<Answer> {
  const found = await rates(api, shipmentId, extra);
  const rate = (found.body.rates as any[]).find(pick);
  if (!rate) throw new Error(`no matching rate: ${JSON.stringify(found.body)}`);
  return api.call('POST', '/shipments/book', { booking_token: rate.booking_token });
}

export function pdfBytes(text: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(`%PDF-1.4\n% ${text}\n%%EOF\n`);
}

export async function upload(api: Api, shipmentId: string, type: string, form: FormData): Promise<Response> {
  return fetch(`${api.sandbox.baseUrl}/shipments/${shipmentId}/${type}`, {
    method: 'POST',
    headers: { 'x-api-key': api.sandbox.apiKey },
    body: form,
  });
}

export function pdfForm(text = 'doc'): FormData {
  const form = new FormData();
  form.append('file', new Blob([pdfBytes(text)], { type: 'application/pdf' }), 'doc.pdf');
  return form;
}
