/** Spec: Limits table (token 30 min, output URL 2 min, 5 endpoints, 3 s ack, carrier field lengths) — boundary checks. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, createAndBook, open, rateSearch, RECEIVER_SE, type Conn } from './raw';

let now = new Date('2030-05-06T07:00:00Z');
let c: Conn;
beforeAll(async () => {
  c = await open({ now: () => now });
});
afterAll(async () => {
  await c.sandbox.close();
});
const advance = (ms: number) => {
  now = new Date(now.getTime() + ms);
};

describe('limits', () => {
  it('L1: a booking token books just before 30 minutes after issue', async () => {
    const id = await create(c);
    const rate = (await rateSearch(c, id)).body.rates[0];
    advance(30 * 60_000 - 1_000);
    expect((await c.call('POST', '/shipments/book', { booking_token: rate.booking_token })).status).toBe(200);
  });

  it('L1b: and is refused just after', async () => {
    const id = await create(c);
    const rate = (await rateSearch(c, id)).body.rates[0];
    advance(30 * 60_000 + 1_000);
    const res = await c.call('POST', '/shipments/book', { booking_token: rate.booking_token });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    // the shipment is still bookable with a fresh token
    const fresh = (await rateSearch(c, id)).body.rates[0];
    expect((await c.call('POST', '/shipments/book', { booking_token: fresh.booking_token })).status).toBe(200);
  });

  it('L2: print output_url is served for 2 minutes and not after', async () => {
    const { id } = await createAndBook(c);
    const res = await c.call(
      'POST',
      '/shipments/print',
      { shipment_ids: [id], document_type: 'label', label_layout: 'a4', output_format: 'url' },
      { accept: 'application/json, application/pdf' },
    );
    expect(res.status).toBe(200);
    const url = res.body.output_url;
    advance(2 * 60_000 - 1_000);
    expect((await fetch(url)).status).toBe(200);
    advance(2_000);
    expect((await fetch(url)).status).toBeGreaterThanOrEqual(400);
  });

  it('L6: carrier field length limits: company name 27 / contact name 22 pass, 28 / 23 are warned', async () => {
    const ok = await rateSearch(
      c,
      await create(c, { to: { ...RECEIVER_SE, name: 'N'.repeat(27), contact: { ...RECEIVER_SE.contact, name: 'C'.repeat(22) } } }),
    );
    expect(ok.body.warnings).toEqual([]);
    const company = await rateSearch(c, await create(c, { to: { ...RECEIVER_SE, name: 'N'.repeat(28) } }));
    expect(company.status).toBe(200);
    expect(company.body.warnings).toHaveLength(1);
    const contact = await rateSearch(
      c,
      await create(c, { to: { ...RECEIVER_SE, contact: { ...RECEIVER_SE.contact, name: 'C'.repeat(23) } } }),
    );
    expect(contact.body.warnings).toHaveLength(1);
    const excluded = contact.body.warnings[0].carrier_product_code;
    expect(contact.body.rates.some((r: any) => r.carrier_product_code === excluded)).toBe(false);
  });
});
