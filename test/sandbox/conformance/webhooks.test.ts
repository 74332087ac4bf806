/** Spec: Events (configuration and delivery, signature header, envelope, subscriptions, SHIPMENT_BOOKED, TRACKING_EVENT), Limits (5 endpoints, 3 s ack), Versioning 4. */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createAndBook, CUSTOMS, ISO_TZ, open, type Conn } from './raw';
import { receiver, type Delivery, type Receiver } from './receiver';

/** Independent implementation of the spec's algorithm: HMAC-SHA256 over `<TIME>.<raw body>`, lower-case hex. */
function verify(d: Delivery, secret: string, nowSec = Math.floor(Date.now() / 1000)): { ok: boolean; t: number } {
  const header = String(d.headers['service-signature'] ?? '');
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (!m?.[1] || !m[2]) return { ok: false, t: NaN };
  const t = Number(m[1]);
  const mac = createHmac('sha256', secret).update(`${m[1]}.`).update(d.raw).digest();
  const given = Buffer.from(m[2], 'hex');
  return { ok: given.length === mac.length && timingSafeEqual(given, mac) && Math.abs(nowSec - t) <= 300, t };
}

const TRACKING_EVENTS = [
  'AWAITING_ACTION',
  'CANCELED',
  'DELAYED',
  'DELIVERED',
  'DELIVERY_FAILURE',
  'IN_TRANSIT',
  'ON_HOLD',
  'OUT_FOR_DELIVERY',
  'OUT_FOR_PICKUP',
  'PICKUP',
  'PICKUP_FAILURE',
  'RETURNED',
];
const REASONS = [
  'CAPACITY_SHORTAGE',
  'CARRIER_ERROR',
  'CLOSEST_CENTER',
  'CONSIGNEE_ADDRESS_INCORRECT',
  'CONSIGNEE_NOT_MET',
  'CONSIGNEE_REFUSED',
  'CUSTOMS',
  'CUSTOMS_COMMENCED',
  'DELIVERY_UNSUCCESSFUL',
  'FUTURE_DELIVERY',
  'FUTURE_PICKUP',
  'INCORRECT_SIZE_OR_WEIGHT',
  'LATE_LINEHAUL',
  'LOCATION_CLOSED',
  'MISROUTED',
  'MISSING_OR_INCORRECT_INFO',
  'MISSING_PACKAGE',
  'NEED_INFORMATION',
  'NEED_PAYMENT',
  'NON_DAILY_DELIVERY',
  'OPERATING_CONDITIONS',
  'PROHIBITED_ITEMS',
  'RECEIVER_REFUSED',
  'RECEIVER_UNAVAILABLE',
  'SENDER_UNAVAILABLE',
  'SERVICE_CHANGE',
  'SHIPMENT_DAMAGED',
  'TIME_CONSTRAINT',
  'UNKNOWN',
];

function nth(r: Receiver, i: number): Delivery {
  const d = r.deliveries[i];
  if (!d) throw new Error(`no delivery #${i}`);
  return d;
}

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function setup(
  endpoints: Array<{ secret: string; subscriptions?: string[] }>,
  options: Record<string, unknown> = {},
): Promise<{ c: Conn; rx: [Receiver, Receiver] }> {
  const rx: Receiver[] = [];
  for (let i = 0; i < endpoints.length; i++) {
    const r = await receiver();
    rx.push(r);
    cleanup.push(() => r.close());
  }
  const c = await open({ webhooks: endpoints.map((e, i) => ({ url: rx[i]!.url, ...e })), ...options });
  cleanup.unshift(() => c.sandbox.close());
  // one receiver per endpoint; callers destructure only as many as they configured
  return { c, rx: rx as [Receiver, Receiver] };
}

describe('SHIPMENT_BOOKED', () => {
  it('R-W-sig/env/booked: an API booking is delivered in the envelope, signed per spec, with the SHIPMENT_BOOKED data fields', async () => {
    const {
      c,
      rx: [r],
    } = await setup([{ secret: 'whsec_conformance' }]);
    const t0 = Date.now();
    const { id, tracking, rate } = await createAndBook(c, { reference_id: 'REF-W1', invoice_reference: 'INV-W1' });
    await r.waitFor((all) => all.some((d) => d.json?.type === 'SHIPMENT_BOOKED'));
    const d = r.deliveries.find((x) => x.json.type === 'SHIPMENT_BOOKED')!;
    expect(d.headers['content-type']).toMatch(/json/);
    const v = verify(d, 'whsec_conformance');
    expect(v.ok).toBe(true);
    expect(verify(d, 'another-secret').ok).toBe(false);
    expect(Math.abs(v.t * 1000 - t0)).toBeLessThan(60_000);
    const e = d.json;
    expect(typeof e.message_id).toBe('string');
    expect(e.created_at).toMatch(ISO_TZ);
    expect(e.shipment_id).toBe(id);
    const data = e.data;
    const carriers: any[] = (await c.call('GET', '/carriers')).body.carriers;
    expect(carriers.map((k) => k.carrier)).toContain(data.carrier);
    expect(carriers.find((k) => k.carrier === data.carrier).name).toBe(rate.carrier_name);
    expect(typeof data.product).toBe('string');
    expect(data.source).toBe('API');
    expect(data.agreement).toBe('SERVICE');
    expect(data.tracking_id).toBe(tracking);
    expect(data.reference_id).toBe('REF-W1');
    expect(data.invoice_reference).toBe('INV-W1');
    expect(data.customer_reference).toBe('');
    expect(data.booked_at).toMatch(ISO_TZ);
    // created_at is when the message was sent; SHIPMENT_BOOKED is sent once
    expect(Math.abs(Date.parse(e.created_at) - d.at)).toBeLessThan(5_000);
    await new Promise((res) => setTimeout(res, 300));
    expect(r.deliveries.filter((x) => x.json.type === 'SHIPMENT_BOOKED')).toHaveLength(1);
  });

  it('R-W-app: a booking made in the web application is sent with source APP', async () => {
    const {
      c,
      rx: [r],
    } = await setup([{ secret: 's1' }]);
    const res = await c.call('POST', `${c.sandbox.origin}/admin/book`, {});
    expect(res.status).toBeLessThan(300);
    await r.waitFor((all) => all.length > 0);
    expect(nth(r, 0).json.data.source).toBe('APP');
    expect(verify(nth(r, 0), 's1').ok).toBe(true);
  });

  it('R-W-own: a booking on an own agreement reports agreement OWN', async () => {
    const {
      c,
      rx: [r],
    } = await setup([{ secret: 's1' }]);
    await createAndBook(
      c,
      {
        to: {
          name: 'Kunde AS',
          address: { address_line_1: 'Gate 1', postal_code: '0154', city: 'Oslo', country_code: 'NO' },
          contact: { name: 'K', email: 'k@example.com' },
        },
        customs_information: CUSTOMS,
      },
      { included_non_eu_rates: true, include_own_agreements: true },
      (x) => x.own_agreement && x.required_documents.length === 0,
    );
    await r.waitFor((all) => all.length > 0);
    expect(nth(r, 0).json.data.agreement).toBe('OWN');
  });
});

describe('configuration and delivery', () => {
  it('R-W-perendpoint: the same event to two endpoints has different message_ids, each signed with its own secret', async () => {
    const {
      c,
      rx: [a, b],
    } = await setup([{ secret: 'sec-a' }, { secret: 'sec-b' }]);
    await createAndBook(c);
    await a.waitFor((all) => all.length > 0);
    await b.waitFor((all) => all.length > 0);
    expect(verify(nth(a, 0), 'sec-a').ok).toBe(true);
    expect(verify(nth(b, 0), 'sec-b').ok).toBe(true);
    expect(verify(nth(b, 0), 'sec-a').ok).toBe(false);
    expect(nth(a, 0).json.message_id).not.toBe(nth(b, 0).json.message_id);
    expect(nth(a, 0).json.shipment_id).toBe(nth(b, 0).json.shipment_id);
  });

  it('R-W-sub: per-endpoint subscriptions SHIPMENT_BOOKED_API / SHIPMENT_BOOKED_APP select by source', async () => {
    const {
      c,
      rx: [api, app],
    } = await setup([
      { secret: 'a', subscriptions: ['SHIPMENT_BOOKED_API'] },
      { secret: 'b', subscriptions: ['SHIPMENT_BOOKED_APP'] },
    ]);
    await createAndBook(c);
    await c.call('POST', `${c.sandbox.origin}/admin/book`, {});
    await api.waitFor((all) => all.length >= 1);
    await app.waitFor((all) => all.length >= 1);
    await new Promise((res) => setTimeout(res, 300));
    expect(api.deliveries.map((d) => d.json.data.source)).toEqual(['API']);
    expect(app.deliveries.map((d) => d.json.data.source)).toEqual(['APP']);
    for (const d of [...api.deliveries, ...app.deliveries]) expect(d.json.type).toBe('SHIPMENT_BOOKED');
  });

  it('R-W-retry: a non-2xx answer is a failed delivery, retried with the same message_id and a valid signature', async () => {
    const {
      c,
      rx: [r],
    } = await setup([{ secret: 'rs' }]);
    r.answer = (_d, i) => (i === 0 ? 500 : 200);
    await createAndBook(c);
    await r.waitFor((all) => all.length >= 2, 15_000);
    expect(nth(r, 1).json.message_id).toBe(nth(r, 0).json.message_id);
    expect(verify(nth(r, 1), 'rs').ok).toBe(true);
  });

  it('R-W-ack: no 2xx within 3 seconds counts as failed and is retried', async () => {
    const {
      c,
      rx: [r],
    } = await setup([{ secret: 'rs' }]);
    r.answer = (_d, i) => (i === 0 ? 'hang' : 200);
    await createAndBook(c);
    await r.waitFor((all) => all.length >= 2, 15_000);
    expect(nth(r, 1).at - nth(r, 0).at).toBeGreaterThanOrEqual(2_900);
    // TIME is when the request was created: the retry is a new request
    expect(verify(nth(r, 1), 'rs').t - verify(nth(r, 0), 'rs').t).toBeGreaterThanOrEqual(2);
    expect(nth(r, 1).json.message_id).toBe(nth(r, 0).json.message_id);
  });

  it('R-W-secret: each endpoint has its own secret, which can be regenerated (later deliveries use the new one)', async () => {
    const {
      c,
      rx: [r],
    } = await setup([{ secret: 'old-secret' }]);
    await createAndBook(c);
    await r.waitFor((all) => all.length >= 1);
    c.sandbox.setWebhooks([{ url: r.url, secret: 'new-secret' }]);
    await createAndBook(c);
    await r.waitFor((all) => all.length >= 2);
    expect(verify(nth(r, 0), 'old-secret').ok).toBe(true);
    expect(verify(nth(r, 1), 'new-secret').ok).toBe(true);
    expect(verify(nth(r, 1), 'old-secret').ok).toBe(false);
  });

  it('R-W-5: at most 5 endpoints', async () => {
    const c = await open();
    cleanup.push(() => c.sandbox.close());
    const six = Array.from({ length: 6 }, (_, i) => ({ url: `http://127.0.0.1:9/h${i}`, secret: `s${i}` }));
    expect(() => c.sandbox.setWebhooks(six)).toThrow();
    expect(() => c.sandbox.setWebhooks(six.slice(0, 5))).not.toThrow();
    await expect(open({ webhooks: six })).rejects.toThrow();
  });
});

describe('TRACKING_EVENT', () => {
  it('R-W-track: carrier progress is sent as type TRACKING_EVENT with data.event, carrier, tracking_id, reason, description, location, event_time', async () => {
    const {
      c,
      rx: [r],
    } = await setup([{ secret: 'ts' }], { simulateCarrier: true, carrierStepMs: 60 });
    const { tracking } = await createAndBook(c);
    await r.waitFor((all) => all.filter((d) => d.json?.type === 'TRACKING_EVENT').length >= 3, 15_000);
    const events = r.deliveries.filter((d) => d.json.type === 'TRACKING_EVENT');
    const carriers: string[] = (await c.call('GET', '/carriers')).body.carriers.map((k: any) => k.carrier);
    for (const d of events) {
      expect(verify(d, 'ts').ok).toBe(true);
      const x = d.json.data;
      expect(TRACKING_EVENTS).toContain(x.event);
      expect(carriers).toContain(x.carrier);
      expect(x.tracking_id).toBe(tracking);
      expect(REASONS, JSON.stringify(x)).toContain(x.reason);
      expect(x.description === null || typeof x.description === 'string').toBe(true);
      expect(typeof x.location).toBe('string');
      expect(x.event_time).toMatch(ISO_TZ);
    }
  });

  it('R-W-tracksub: an endpoint subscribed to one tracking event name receives only that event, as TRACKING_EVENT', async () => {
    const {
      c,
      rx: [r],
    } = await setup([{ secret: 'ts', subscriptions: ['DELIVERED'] }], { simulateCarrier: true, carrierStepMs: 40 });
    await createAndBook(c);
    await r.waitFor((all) => all.length >= 1, 15_000);
    await new Promise((res) => setTimeout(res, 300));
    expect(r.deliveries.map((d) => [d.json.type, d.json.data.event])).toEqual([['TRACKING_EVENT', 'DELIVERED']]);
  });
});
