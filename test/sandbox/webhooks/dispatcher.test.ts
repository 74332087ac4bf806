import { afterEach, describe, expect, it } from 'vitest';
import { WebhookDispatcher } from '../../../src/sandbox/webhooks/dispatcher';
import { WebhookConfigError } from '../../../src/sandbox/webhooks/errors';
import type { WebhookDispatcherOptions, WebhookEndpoint, WebhookEvent } from '../../../src/sandbox/webhooks/types';
import { type Answer, Receiver } from './receiver';
import { verifySignature } from './verify-independent';

const booked: WebhookEvent = {
  type: 'SHIPMENT_BOOKED',
  subscription: 'SHIPMENT_BOOKED_API',
  shipmentId: 'shp_1',
  data: {
    carrier: 'dhl',
    product: 'parcel',
    source: 'API',
    agreement: 'SERVICE',
    tracking_id: 'JJD1',
    reference_id: 'order-1',
    invoice_reference: null,
    customer_reference: '',
    booked_at: '2026-11-22T10:00:00Z',
  },
};
const delayed: WebhookEvent = {
  type: 'TRACKING_EVENT',
  subscription: 'DELAYED',
  shipmentId: 'shp_1',
  data: {
    event: 'DELAYED',
    carrier: 'dhl',
    tracking_id: 'JJD1',
    reason: 'LATE_LINEHAUL',
    description: null,
    location: '',
    event_time: '2026-11-22T11:00:00Z',
  },
};
const bookedInApp: WebhookEvent = { ...booked, subscription: 'SHIPMENT_BOOKED_APP', data: { ...booked.data, source: 'APP' } };

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function receiver(answer?: Answer): Promise<Receiver> {
  const r = await Receiver.start(answer);
  cleanup.push(() => r.close());
  return r;
}

function dispatcher(options: WebhookDispatcherOptions): WebhookDispatcher {
  const d = new WebhookDispatcher(options);
  cleanup.push(() => d.close());
  return d;
}

const endpoint = (r: Receiver, secret: string, subscriptions?: string[]): WebhookEndpoint => ({ url: r.url, secret, subscriptions });
const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('WebhookDispatcher delivery', () => {
  it('posts the spec envelope as JSON, signed over the raw body with the endpoint secret', async () => {
    const r = await receiver();
    const clock = new Date('2026-11-22T10:00:05.250Z');
    const d = dispatcher({ endpoints: [endpoint(r, 'whsec_a')], now: () => clock });
    d.emit(booked);
    await d.idle();

    expect(r.received).toHaveLength(1);
    const [hit] = r.received;
    expect(hit?.headers['content-type']).toBe('application/json');
    const header = hit?.headers['service-signature'] as string;
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(header.startsWith(`t=${Math.floor(clock.getTime() / 1000)},`)).toBe(true);
    expect(verifySignature(header, hit!.raw, 'whsec_a', Math.floor(clock.getTime() / 1000))).toBe(true);
    expect(verifySignature(header, hit!.raw, 'whsec_other', Math.floor(clock.getTime() / 1000))).toBe(false);

    const body = r.bodies()[0]!;
    expect(Object.keys(body)).toEqual(['message_id', 'type', 'created_at', 'shipment_id', 'data']);
    expect(body).toMatchObject({ type: 'SHIPMENT_BOOKED', shipment_id: 'shp_1', data: booked.data, created_at: clock.toISOString() });
    expect(typeof body.message_id).toBe('string');
    expect(d.attempts()).toEqual([
      { url: r.url, messageId: body.message_id, attempt: 1, status: 200, error: null, at: clock.toISOString() },
    ]);
  });

  it('gives the same event a different message_id per endpoint, each signed with its own secret', async () => {
    const a = await receiver();
    const b = await receiver();
    const d = dispatcher({ endpoints: [endpoint(a, 'secret-a'), endpoint(b, 'secret-b')] });
    d.emit(booked);
    d.emit(delayed);
    await d.idle();

    const idsA = a.bodies().map((x) => x.message_id);
    const idsB = b.bodies().map((x) => x.message_id);
    expect(idsA).toHaveLength(2);
    expect(idsB).toHaveLength(2);
    expect(new Set([...idsA, ...idsB]).size).toBe(4);
    for (const hit of a.received) {
      expect(verifySignature(hit.headers['service-signature'] as string, hit.raw, 'secret-a', nowSeconds())).toBe(true);
      expect(verifySignature(hit.headers['service-signature'] as string, hit.raw, 'secret-b', nowSeconds())).toBe(false);
    }
    for (const hit of b.received) {
      expect(verifySignature(hit.headers['service-signature'] as string, hit.raw, 'secret-b', nowSeconds())).toBe(true);
    }
  });

  it('retries a non-2xx answer with the same message_id and a fresh send time and signature', async () => {
    const r = await receiver((i) => (i === 0 ? 500 : 200));
    let tick = Date.parse('2026-11-22T10:00:00Z');
    const d = dispatcher({ endpoints: [endpoint(r, 'whsec_a')], firstRetryMs: 50, now: () => new Date((tick += 7_000)) });
    d.emit(booked);
    await d.idle();

    const [first, second] = r.bodies();
    expect(r.received).toHaveLength(2);
    expect(second?.message_id).toBe(first?.message_id);
    expect(Date.parse(String(second?.created_at))).toBeGreaterThan(Date.parse(String(first?.created_at)));
    for (const hit of r.received) {
      const t = Number(/^t=(\d+)/.exec(hit.headers['service-signature'] as string)?.[1]);
      expect(verifySignature(hit.headers['service-signature'] as string, hit.raw, 'whsec_a', t)).toBe(true);
    }
    expect(d.attempts().map((a) => [a.attempt, a.status, a.messageId])).toEqual([
      [1, 500, first?.message_id],
      [2, 200, first?.message_id],
    ]);
  });

  it('counts no answer within ackTimeoutMs as a failure and retries', async () => {
    const r = await receiver((i) => (i === 0 ? 'hang' : 204));
    const d = dispatcher({ endpoints: [endpoint(r, 'whsec_a')], ackTimeoutMs: 200, firstRetryMs: 50 });
    d.emit(booked);
    await d.idle();

    expect(r.received).toHaveLength(2);
    const [failed, ok] = d.attempts();
    expect(failed).toMatchObject({ attempt: 1, status: null });
    expect(failed?.error).toMatch(/no answer within 200 ms/);
    expect(ok).toMatchObject({ attempt: 2, status: 204, error: null });
    expect(r.bodies()[1]?.message_id).toBe(r.bodies()[0]?.message_id);
  });

  it('with the defaults, retries a delivery the receiver sat on for 3 s within 5 s of the first send', async () => {
    const r = await receiver((i) => (i === 0 ? 'hang' : 200));
    const d = dispatcher({ endpoints: [endpoint(r, 'whsec_a')] });
    d.emit(booked);
    await r.waitFor(2);
    const [first, second] = r.received;
    const gap = second!.at - first!.at;
    expect(gap).toBeGreaterThanOrEqual(2_900);
    expect(gap).toBeLessThan(5_000);
    expect(d.attempts()[0]?.error).toMatch(/no answer within 3000 ms/);
  }, 15_000);

  it('gives up after maxAttempts', async () => {
    const r = await receiver(() => 503);
    const d = dispatcher({ endpoints: [endpoint(r, 'whsec_a')], firstRetryMs: 10, maxAttempts: 3 });
    d.emit(booked);
    await d.idle();
    expect(r.received).toHaveLength(3);
    expect(d.attempts().map((a) => a.attempt)).toEqual([1, 2, 3]);
    expect(new Set(r.bodies().map((b) => b.message_id)).size).toBe(1);
  });
});

describe('WebhookDispatcher subscriptions', () => {
  it('delivers only subscribed events; no subscription list means every event', async () => {
    const api = await receiver();
    const tracking = await receiver();
    const all = await receiver();
    const d = dispatcher({
      endpoints: [endpoint(api, 's1', ['SHIPMENT_BOOKED_API']), endpoint(tracking, 's2', ['DELAYED', 'DELIVERED']), endpoint(all, 's3')],
    });
    d.emit(booked);
    d.emit(bookedInApp);
    d.emit(delayed);
    await d.idle();

    expect(api.bodies().map((b) => (b.data as { source: string }).source)).toEqual(['API']);
    expect(tracking.bodies().map((b) => b.type)).toEqual(['TRACKING_EVENT']);
    expect(all.bodies()).toHaveLength(3);
  });

  it('sends later events to the endpoints given to setEndpoints', async () => {
    const first = await receiver();
    const second = await receiver();
    const d = dispatcher({ endpoints: [endpoint(first, 's1')] });
    d.emit(booked);
    await d.idle();
    d.setEndpoints([endpoint(second, 's2')]);
    d.emit(delayed);
    await d.idle();
    expect(first.bodies().map((b) => b.type)).toEqual(['SHIPMENT_BOOKED']);
    expect(second.bodies().map((b) => b.type)).toEqual(['TRACKING_EVENT']);
  });
});

describe('WebhookDispatcher configuration', () => {
  const make = (n: number): WebhookEndpoint[] => Array.from({ length: n }, (_, i) => ({ url: `http://127.0.0.1:9/${i}`, secret: `s${i}` }));

  it('accepts 5 endpoints and refuses a sixth with a coded error', () => {
    expect(() => dispatcher({ endpoints: make(5) })).not.toThrow();
    let error: unknown;
    try {
      new WebhookDispatcher({ endpoints: make(6) });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(WebhookConfigError);
    expect((error as WebhookConfigError).code).toBe('SANDBOX_WEBHOOK_ENDPOINT_LIMIT');
    const d = dispatcher({ endpoints: make(1) });
    expect(() => d.setEndpoints(make(6))).toThrow(/at most 5/);
  });

  it('refuses an endpoint without an http(s) URL or without a secret', () => {
    expect(() => new WebhookDispatcher({ endpoints: [{ url: 'not a url', secret: 's' }] })).toThrow(
      expect.objectContaining({ code: 'SANDBOX_WEBHOOK_ENDPOINT_INVALID' }),
    );
    expect(() => new WebhookDispatcher({ endpoints: [{ url: 'http://127.0.0.1:9/x', secret: '' }] })).toThrow(
      expect.objectContaining({ code: 'SANDBOX_WEBHOOK_ENDPOINT_INVALID' }),
    );
  });
});

describe('WebhookDispatcher close', () => {
  it('stops pending retries', async () => {
    const r = await receiver(() => 500);
    const d = dispatcher({ endpoints: [endpoint(r, 's')], firstRetryMs: 200 });
    d.emit(booked);
    await r.waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(d.attempts()).toHaveLength(1);
    await d.close();
    await d.idle();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(r.received).toHaveLength(1);
    d.emit(booked);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(r.received).toHaveLength(1);
  });

  it('aborts a request in flight instead of waiting for the ack timeout', async () => {
    const r = await receiver(() => 'hang');
    const d = dispatcher({ endpoints: [endpoint(r, 's')], ackTimeoutMs: 10_000 });
    d.emit(booked);
    await r.waitFor(1);
    const started = Date.now();
    await d.close();
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(d.attempts()).toEqual([expect.objectContaining({ attempt: 1, status: null, error: 'dispatcher closed' })]);
  });
});
