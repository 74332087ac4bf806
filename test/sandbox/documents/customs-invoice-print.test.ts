/**
 * The customs invoice through POST /shipments/print: what the print route takes from the
 * stored shipment (customs_information, `to` as buyer, alternative_to as delivery address,
 * the team's customs numbers on a defaulted sender).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server';

const run = promisify(execFile);

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox.close();
});

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; bytes: Uint8Array; body: any }> {
  const res = await fetch(`${sandbox.baseUrl}${path}`, {
    method,
    headers: { 'x-api-key': sandbox.apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const json = (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(new TextDecoder().decode(bytes)) : null;
  return { status: res.status, bytes, body: json };
}

async function pdfText(bytes: Uint8Array): Promise<string> {
  const child = run('pdftotext', ['-', '-'], { encoding: 'latin1' });
  child.child.stdin?.end(Buffer.from(bytes));
  return (await child).stdout;
}

const BUYER = {
  name: 'Kunde AS',
  is_private_individual: true,
  address: { address_line_1: 'Karl Johans gate 1', postal_code: '0154', city: 'Oslo', country_code: 'NO' },
  contact: { name: 'Kari Kunde', email: 'kari@example.com' },
};
const WAREHOUSE = {
  name: 'Lager Oslo',
  is_private_individual: true,
  address: { address_line_1: 'Lagerveien 77', postal_code: '0580', city: 'Oslo', country_code: 'NO' },
  contact: { name: 'Lars Lager', email: 'lars@example.com' },
};
const CUSTOMS = {
  invoice_type: 'commercial',
  invoice_number: 'INV-ROUTE-7',
  reason_for_export: 'sale',
  currency: 'NOK',
  terms_of_sale: 'DAP',
  receiver_vat_number: 'NO111222333MVA',
  signature: 'Sven Sender',
  shipping_costs: 49,
  items: [
    {
      description: 'Books',
      material: 'paper',
      quantity: 2,
      unit_type: 'pcs',
      unit_weight: 1,
      unit_value: 150.25,
      hs_code: '490199',
      country_of_origin: 'SE',
    },
  ],
};

/** Creates with an empty `from` (team sender), rates, books the first rate needing no upload. */
async function bookedShipment(body: Record<string, unknown>): Promise<string> {
  const created = await call('POST', '/shipments', {
    enable_bookable_validation: true,
    packages: [{ weight_kg: 3, depth_cm: 30, height_cm: 20, width_cm: 20, quantity: 1, description: 'Books', type: 'PACKAGE' }],
    ...body,
  });
  expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);
  const id: string = created.body.id;
  const rates = await call('POST', '/shipments/rates', {
    shipment_id: id,
    requested_pickup_time: '2030-03-04T09:00:00+01:00',
    included_non_eu_rates: true,
  });
  const rate = (rates.body.rates as any[]).find((r) => r.required_documents.length === 0);
  expect(rate, 'a rate needing no upload (complete customs data)').toBeTruthy();
  expect((await call('POST', '/shipments/book', { booking_token: rate.booking_token })).status).toBe(200);
  return id;
}

async function print(id: string, documentType: string): Promise<string> {
  const res = await call('POST', '/shipments/print', {
    shipment_ids: [id],
    document_type: documentType,
    label_layout: 'a4',
    output_format: 'file',
  });
  expect(res.status).toBe(200);
  return pdfText(res.bytes);
}

describe('POST /shipments/print customsinvoice', () => {
  it('generates the invoice from customs_information: buyer is `to`, alternative_to the delivery address, team numbers for the sender', async () => {
    const id = await bookedShipment({ to: BUYER, alternative_to: WAREHOUSE, customs_information: CUSTOMS });
    const text = await print(id, 'customsinvoice');
    for (const expected of [
      'INV-ROUTE-7',
      'commercial',
      'NOK',
      'DAP',
      '490199',
      // The sender was defaulted to the team: its numbers fill the seller's.
      'EORI: SE1234567890',
      'VAT: SE123456789001',
      'VAT: NO111222333MVA',
      'Kunde AS',
      'Karl Johans gate 1',
      'Delivery address',
      'Lagerveien 77',
      // 2 x 150.25 = 300.50 goods, + 49 shipping.
      '300.50',
      '349.50',
      'Sven Sender',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('still addresses the label to alternative_to', async () => {
    const id = await bookedShipment({ to: BUYER, alternative_to: WAREHOUSE, customs_information: CUSTOMS });
    const text = await print(id, 'label');
    expect(text).toContain('Lagerveien 77');
    expect(text).not.toContain('Karl Johans gate 1');
  });
});
