import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TrackingEventView } from '../../../../../src/shared/domain';
import type { TrackingAlert } from '../../../../../src/main/intake/sources/webhooks/alerts';
import {
  startWebhookServer,
  type WebhookServer,
  type WebhookServerOptions,
} from '../../../../../src/main/intake/sources/webhooks/webhook-server';
import type { Ledger } from '../../../../../src/main/ledger/ledger';
import { PrintPipeline } from '../../../../../src/main/jobs/pipeline';
import { MemoryTarget, ScriptedFetcher } from '../../../../support/jobs/fakes';
import { bookedEnvelope, deliver, trackingEnvelope } from '../../../../support/intake/loopback-sender';
import { RecordingSink, tempLedger, until } from '../../../../support/intake/fixtures';

const SECRET = 'whsec-test';

describe('webhook server', () => {
  let ledger: Ledger;
  let dispose: () => Promise<void>;
  let sink: RecordingSink;
  let server: WebhookServer;
  let tracking: Array<{ shipmentId: string; event: TrackingEventView }>;
  let alerts: TrackingAlert[];
  let engines: PrintPipeline[];

  async function start(overrides: Partial<WebhookServerOptions> = {}): Promise<WebhookServer> {
    server = await startWebhookServer({
      secrets: [SECRET],
      ledger,
      sink,
      stationRules: { mode: 'all', sources: [], carriers: [], matches: [] },
      onTracking: (shipmentId, event) => tracking.push({ shipmentId, event }),
      onAlert: (alert) => alerts.push(alert),
      ...overrides,
    });
    return server;
  }

  /**
   * The print engine on this test's ledger, its automatic printing paused while bookings
   * arrive; `printed(n)` resumes it and gives the shipments in the order they reached the printer.
   */
  async function engineOnLedger(): Promise<{ pipeline: PrintPipeline; printed: (n: number) => Promise<string[]> }> {
    const labels = new MemoryTarget('mem:labels');
    const pipeline = new PrintPipeline({
      ledger,
      fetcher: new ScriptedFetcher(),
      targetFor: () => labels,
      route: () => ({ target: 'mem:labels', layout: 'printer', media: 'label' }),
      followIntervalMs: 10,
    });
    engines.push(pipeline);
    await pipeline.start();
    pipeline.pause();
    return {
      pipeline,
      async printed(n) {
        pipeline.resume();
        await until(() => labels.shipments().length === n);
        return labels.shipments();
      },
    };
  }

  beforeEach(async () => {
    engines = [];
    ({ ledger, dispose } = await tempLedger());
    sink = new RecordingSink();
    tracking = [];
    alerts = [];
  });
  afterEach(async () => {
    await server?.close();
    for (const engine of engines) await engine.stop();
    await dispose();
  });

  it('listens on 127.0.0.1 at /webhooks by default', async () => {
    await start();
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/webhooks`);
  });

  it('accepts a signed booking, acknowledges it and submits it to the pipeline', async () => {
    await start();
    const res = await deliver(server.url, bookedEnvelope('shp_1', { source: 'APP', carrier: 'dhl' }));
    expect(res.status).toBe(200);
    await until(() => sink.notices.length === 1);
    expect(sink.notices[0]).toMatchObject({
      shipmentId: 'shp_1',
      source: 'APP',
      carrier: 'dhl',
      referenceId: 'REF-shp_1',
      trigger: 'webhook',
      trackingId: 'TRK-shp_1',
    });
    expect(server.counters.accepted).toBe(1);
  });

  it('accepts any of several secrets (endpoints and rotation)', async () => {
    await start({ secrets: ['old-secret', 'endpoint-2', SECRET] });
    expect((await deliver(server.url, bookedEnvelope('a'), { secret: 'old-secret' })).status).toBe(200);
    expect((await deliver(server.url, bookedEnvelope('b'), { secret: SECRET })).status).toBe(200);
    expect((await deliver(server.url, bookedEnvelope('c'), { secret: 'unknown' })).status).toBe(401);
    await until(() => sink.notices.length === 2);
    expect(sink.ids().sort()).toEqual(['a', 'b']);
  });

  it('answers a forged signature 401 and records nothing', async () => {
    await start();
    const messageId = randomUUID();
    const body = bookedEnvelope('shp_forged', {}, messageId);
    const res = await deliver(server.url, body, { secret: 'attacker-secret' });
    expect(res.status).toBe(401);
    // A body signed for something else, then altered by one byte.
    const tampered = await deliver(server.url, body.replace('shp_forged', 'shp_forgeX'), {
      signature: (await import('../../../../../src/sandbox/webhooks/signature')).signPayload(SECRET, body, Math.floor(Date.now() / 1000)),
    });
    expect(tampered.status).toBe(401);
    const missing = await deliver(server.url, body, { signature: null });
    expect(missing.status).toBe(401);
    const malformed = await deliver(server.url, body, { signature: 'v1=abc' });
    expect(malformed.status).toBe(401);
    await new Promise((r) => setTimeout(r, 50));
    expect(sink.notices).toEqual([]);
    // Not remembered: the genuine delivery with that message_id still goes through.
    expect(ledger.rememberMessage(messageId)).toBe(true);
    expect(server.counters.rejected).toMatchObject({ mismatch: 2, missing: 1, malformed: 1 });
  });

  it('answers a stale timestamp 401 (outside 5 minutes) and accepts within tolerance', async () => {
    await start();
    const now = Math.floor(Date.now() / 1000);
    expect((await deliver(server.url, bookedEnvelope('old'), { time: now - 301 })).status).toBe(401);
    expect((await deliver(server.url, bookedEnvelope('future'), { time: now + 400 })).status).toBe(401);
    expect((await deliver(server.url, bookedEnvelope('fine'), { time: now - 200 })).status).toBe(200);
    expect(server.counters.rejected.stale).toBe(2);
    await until(() => sink.notices.length === 1);
    expect(sink.ids()).toEqual(['fine']);
  });

  it('honours a configured clock tolerance', async () => {
    await start({ toleranceSeconds: 30 });
    const now = Math.floor(Date.now() / 1000);
    expect((await deliver(server.url, bookedEnvelope('x'), { time: now - 60 })).status).toBe(401);
  });

  it('acknowledges a replayed delivery (same message_id, same bytes) and ignores it', async () => {
    await start();
    const body = bookedEnvelope('shp_replay');
    const time = Math.floor(Date.now() / 1000);
    expect((await deliver(server.url, body, { time })).status).toBe(200);
    const replay = await deliver(server.url, body, { time });
    expect(replay.status).toBe(200);
    expect(JSON.parse(replay.body)).toEqual({ status: 'duplicate' });
    await new Promise((r) => setTimeout(r, 50));
    expect(sink.ids()).toEqual(['shp_replay']);
    expect(server.counters.duplicates).toBe(1);
  });

  it('prints a duplicated delivery (a retry: same message_id, new signature time) once, also after a restart', async () => {
    await start();
    const messageId = randomUUID();
    const now = Math.floor(Date.now() / 1000);
    expect((await deliver(server.url, bookedEnvelope('shp_dup', {}, messageId), { time: now - 5 })).status).toBe(200);
    expect((await deliver(server.url, bookedEnvelope('shp_dup', {}, messageId), { time: now })).status).toBe(200);
    await server.close();
    // The dedup is in the ledger, so a restarted receiver still knows the message.
    await start();
    expect((await deliver(server.url, bookedEnvelope('shp_dup', {}, messageId))).status).toBe(200);
    await new Promise((r) => setTimeout(r, 50));
    expect(sink.ids()).toEqual(['shp_dup']);
  });

  it('releases out-of-order bookings in booked_at order', async () => {
    // Deliveries are not held back: the engine's line orders them by booked_at.
    const engine = await engineOnLedger();
    await start({ sink: engine.pipeline });
    const base = Date.parse('2026-01-01T10:00:00Z');
    const at = (s: number): string => new Date(base + s * 1000).toISOString();
    // Delivered 3, 1, 4, 2 (by booking time); nanosecond fractions order 4 before 5.
    await deliver(server.url, bookedEnvelope('third', { booked_at: at(3) }));
    await deliver(server.url, bookedEnvelope('first', { booked_at: at(1) }));
    await deliver(server.url, bookedEnvelope('fifth', { booked_at: '2026-01-01T10:00:04.000000002Z' }));
    await deliver(server.url, bookedEnvelope('fourth', { booked_at: '2026-01-01T10:00:04.000000001Z' }));
    await deliver(server.url, bookedEnvelope('second', { booked_at: '2026-01-01T12:00:02+02:00' }));
    await until(() => server.counters.bookingsSubmitted === 5);
    expect(await engine.printed(5)).toEqual(['first', 'second', 'third', 'fourth', 'fifth']);
  });

  it('answers an oversized body 413 without reading it all', async () => {
    await start({ maxBodyBytes: 1024 });
    const big = JSON.stringify({ padding: 'x'.repeat(4096) });
    const res = await deliver(server.url, big);
    expect(res.status).toBe(413);
    expect(server.counters.rejected.too_large).toBe(1);

    // Chunked (no Content-Length): the limit applies while reading; the connection is
    // closed although the client never finishes its body.
    const status = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(server.port, '127.0.0.1', () => {
        socket.write('POST /webhooks HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n');
        const chunk = 'y'.repeat(2048);
        socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
      });
      let text = '';
      socket.on('data', (d) => (text += d.toString()));
      socket.on('close', () => resolve(text.split('\r\n')[0] ?? ''));
      socket.on('error', reject);
    });
    expect(status).toBe('HTTP/1.1 413 Payload Too Large');
    expect(sink.notices).toEqual([]);
  });

  it('answers another path 404 and another method 405 with Allow', async () => {
    await start();
    const body = bookedEnvelope('x');
    expect((await deliver(server.url, body, { path: '/hooks' })).status).toBe(404);
    expect((await deliver(server.url, body, { path: '/webhooks/extra' })).status).toBe(404);
    const get = await deliver(server.url, '', { method: 'GET' });
    expect(get.status).toBe(405);
    expect(get.headers['allow']).toBe('POST');
    expect((await deliver(server.url, body, { method: 'PUT' })).status).toBe(405);
    await new Promise((r) => setTimeout(r, 50));
    expect(sink.notices).toEqual([]);
  });

  it('acknowledges an unknown event type and ignores it', async () => {
    await start();
    const body = JSON.stringify({
      message_id: randomUUID(),
      type: 'SHIPMENT_INVOICED',
      created_at: new Date().toISOString(),
      shipment_id: 's',
      data: { amount: 3 },
      extra: true,
    });
    const res = await deliver(server.url, body);
    expect(res.status).toBe(200);
    await until(() => server.counters.ignored === 1);
    expect(sink.notices).toEqual([]);
    expect(tracking).toEqual([]);
  });

  it('tolerates unknown fields and enum values, and rejects wrong types with 400', async () => {
    await start();
    expect((await deliver(server.url, bookedEnvelope('new-source', { source: 'EDI', brand_new: { x: 1 } }))).status).toBe(200);
    await until(() => sink.notices.length === 1);
    expect(sink.notices[0]?.source).toBe('EDI');
    expect((await deliver(server.url, bookedEnvelope('bad', { booked_at: 12 }))).status).toBe(400);
    expect((await deliver(server.url, '{not json')).status).toBe(400);
    const noId = JSON.stringify({ type: 'SHIPMENT_BOOKED', created_at: new Date().toISOString(), shipment_id: 's', data: {} });
    expect((await deliver(server.url, noId)).status).toBe(400);
    expect(server.counters.rejected.invalid).toBe(3);
  });

  it('acknowledges before the pipeline finishes (never waits for a printer)', async () => {
    let release: () => void = () => {};
    const blocked = new Promise<void>((r) => (release = r));
    let started = 0;
    let finished = false;
    await start({
      sink: {
        submitBooking: async () => {
          started++;
          await blocked;
          finished = true;
        },
      },
    });
    // deliver() returns only once the answer is in: it would hang here if the receiver
    // waited for the pipeline.
    const res = await deliver(server.url, bookedEnvelope('slow'));
    expect(res.status).toBe(200);
    await until(() => started === 1);
    expect(finished).toBe(false);
    release();
    await until(() => finished);
  });

  it('stores tracking per shipment by event time, pushes it, and alerts on failures', async () => {
    await start();
    await deliver(
      server.url,
      trackingEnvelope('shp_t', { event: 'DELIVERY_FAILURE', reason: 'RECEIVER_UNAVAILABLE', event_time: '2026-01-02T10:00:00Z' }),
    );
    await deliver(server.url, trackingEnvelope('shp_t', { event: 'IN_TRANSIT', event_time: '2026-01-01T10:00:00Z', location: 'Hub' }));
    await deliver(server.url, trackingEnvelope('shp_t', { event: 'DELAYED_FOREVER', event_time: '2026-01-01T12:00:00Z' }));
    await until(() => tracking.length === 3);
    const stored = ledger.trackingFor('shp_t');
    expect(stored.map((e) => e.status)).toEqual(['DELIVERY_FAILURE', 'DELAYED_FOREVER', 'IN_TRANSIT']);
    expect(stored[2]).toMatchObject({ location: 'Hub', occurredAt: '2026-01-01T10:00:00Z' });
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ shipmentId: 'shp_t', event: 'DELIVERY_FAILURE', reason: 'RECEIVER_UNAVAILABLE' });
    expect(alerts[0]?.message).toMatch(/could not be delivered.*receiver unavailable/);
    expect(sink.notices).toEqual([]);
  });

  it.each(['PICKUP_FAILURE', 'RETURNED', 'AWAITING_ACTION', 'ON_HOLD'])('raises an alert for %s', async (event) => {
    await start();
    await deliver(server.url, trackingEnvelope('shp_a', { event }));
    await until(() => alerts.length === 1);
    expect(alerts[0]?.event).toBe(event);
  });

  it('applies station rules before the pipeline', async () => {
    await start({ stationRules: { mode: 'filtered', sources: ['app'], carriers: [], matches: [] } });
    await deliver(server.url, bookedEnvelope('via-api', { source: 'API' }));
    await deliver(server.url, bookedEnvelope('via-app', { source: 'APP' }));
    await until(() => server.counters.bookingsSkipped + server.counters.bookingsSubmitted === 2);
    expect(sink.ids()).toEqual(['via-app']);
  });

  it('indexes every booking in the ledger so a scan finds it, printed or not', async () => {
    await start({ stationRules: { mode: 'none', sources: [], carriers: [], matches: [] } });
    await deliver(server.url, bookedEnvelope('shp_idx', { reference_id: 'ORDER-77', tracking_id: 'TRK77', source: 'APP' }));
    await until(() => server.counters.bookingsSkipped === 1);
    expect(sink.notices).toEqual([]);
    expect(ledger.lookupShipment('order-77')).toMatchObject({ shipmentId: 'shp_idx', shipment: { trackingId: 'TRK77', source: 'APP' } });
  });

  it('fetches the shipment when rules look at sender_reference or system, which webhooks lack', async () => {
    const fetched: string[] = [];
    const shipments = {
      getShipment: async (id: string) => {
        fetched.push(id);
        return { id, system: id === 'from-shop' ? 'shopify' : 'erp', sender_reference: 'S-1' };
      },
    };
    await start({
      shipments,
      stationRules: { mode: 'filtered', sources: [], carriers: [], matches: [{ field: 'system', pattern: 'shop' }] },
    });
    await deliver(server.url, bookedEnvelope('from-shop'));
    await deliver(server.url, bookedEnvelope('from-erp'));
    await until(() => server.counters.bookingsSkipped + server.counters.bookingsSubmitted === 2);
    expect(fetched.sort()).toEqual(['from-erp', 'from-shop']);
    expect(sink.notices).toHaveLength(1);
    expect(sink.notices[0]).toMatchObject({ shipmentId: 'from-shop', system: 'shopify', senderReference: 'S-1' });
  });

  it('keeps booking order when the shipment must be fetched first (slower fetches for earlier bookings)', async () => {
    const delays: Record<string, number> = { b1: 80, b2: 40, b3: 0 };
    const shipments = {
      getShipment: async (id: string) => {
        await new Promise((r) => setTimeout(r, delays[id]));
        return { id, system: 'shop' };
      },
    };
    const engine = await engineOnLedger();
    await start({
      shipments,
      sink: engine.pipeline,
      stationRules: { mode: 'filtered', sources: [], carriers: [], matches: [{ field: 'system', pattern: 'shop' }] },
    });
    await deliver(server.url, bookedEnvelope('b3', { booked_at: '2026-01-01T10:00:03Z' }));
    await deliver(server.url, bookedEnvelope('b1', { booked_at: '2026-01-01T10:00:01Z' }));
    await deliver(server.url, bookedEnvelope('b2', { booked_at: '2026-01-01T10:00:02Z' }));
    await until(() => server.counters.bookingsSubmitted === 3);
    expect(await engine.printed(3)).toEqual(['b1', 'b2', 'b3']);
  });

  it('refuses to start without a secret', async () => {
    await expect(
      startWebhookServer({ secrets: [], ledger, sink, stationRules: { mode: 'all', sources: [], carriers: [], matches: [] } }),
    ).rejects.toMatchObject({ code: 'INTAKE_NO_WEBHOOK_SECRET' });
  });
});
