import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StationRules } from '../../../../../src/shared/domain';
import { createBookingDispatcher } from '../../../../../src/main/intake/booking-dispatch';
import { pendingHistory, refuseOnPendingBooking } from '../../../../../src/main/intake/sources/webhooks/pending-decisions';
import type { ShipmentRecord } from '../../../../../src/main/intake/ports';
import { startWebhookServer, type WebhookServer } from '../../../../../src/main/intake/sources/webhooks/webhook-server';
import type { BookingNotice } from '../../../../../src/main/ledger/booking-notice';
import { Ledger } from '../../../../../src/main/ledger/ledger';
import { RecordingSink, tempLedger, until } from '../../../../support/intake/fixtures';
import { bookedEnvelope, deliver } from '../../../../support/intake/loopback-sender';

const SECRET = 'whsec-test';
const SENDER_RULE: StationRules = { mode: 'filtered', sources: [], carriers: [], matches: [{ field: 'sender_reference', pattern: 'WH-' }] };

/** GET /shipments/{id} that fails `failures` times (a 5xx with a request id), then answers. */
function flakyShipments(failures: number, record: Partial<ShipmentRecord> = { sender_reference: 'WH-A' }) {
  const calls: string[] = [];
  let left = failures;
  return {
    calls,
    getShipment: async (id: string): Promise<ShipmentRecord> => {
      calls.push(id);
      if (left-- > 0) throw Object.assign(new Error('Service unavailable (503) (request id req-503)'), { retryable: true });
      return { id, ...record };
    },
  };
}

const notice = (over: Partial<BookingNotice> = {}): BookingNotice => ({
  shipmentId: 's-1',
  referenceId: 'R-1',
  trackingId: null,
  carrier: null,
  source: 'API',
  senderReference: null,
  system: null,
  bookedAt: '2026-11-24T05:00:00Z',
  trigger: 'webhook',
  ...over,
});

describe('booking dispatch when the shipment cannot be fetched', () => {
  it('puts a webhook booking off instead of deciding it without its facts', async () => {
    const sink = new RecordingSink();
    const dispatch = createBookingDispatcher({ stationRules: SENDER_RULE, sink, shipments: flakyShipments(1) });
    await expect(dispatch(notice())).rejects.toMatchObject({
      code: 'INTAKE_BOOKING_DEFERRED',
      message: expect.stringMatching(/sender_reference or system.*GET \/shipments\/s-1 failed.*request id req-503/),
    });
    expect(sink.notices).toHaveLength(0);
    await expect(dispatch(notice())).resolves.toMatchObject({ print: true });
    expect(sink.notices.map((n) => n.senderReference)).toEqual(['WH-A']);
  });

  it('decides a polled booking on the fields its listing carried', async () => {
    const sink = new RecordingSink();
    const dispatch = createBookingDispatcher({ stationRules: SENDER_RULE, sink, shipments: flakyShipments(1) });
    await expect(dispatch(notice({ trigger: 'poll' }))).resolves.toMatchObject({ print: false });
  });
});

describe('webhook bookings waiting for a decision', () => {
  let ledger: Ledger;
  let dir: string;
  let dispose: () => Promise<void>;
  const servers: WebhookServer[] = [];

  beforeEach(async () => {
    ({ ledger, dir, dispose } = await tempLedger());
  });
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.close();
    await dispose();
  });

  it('retries a failed fetch with backoff until the rule decides, then forgets the booking; it shows as waiting meanwhile', async () => {
    const sink = new RecordingSink();
    const shipments = flakyShipments(3);
    const server = await startWebhookServer({
      secrets: [SECRET],
      ledger,
      sink,
      stationRules: SENDER_RULE,
      shipments,
      decisionRetry: { baseMs: 150, maxMs: 1000 },
    });
    servers.push(server);
    const id = randomUUID();
    expect((await deliver(server.url, bookedEnvelope(id), { secret: SECRET })).status).toBe(200);

    await until(() => server.counters.bookingsDeferred >= 1);
    const [waiting, ...others] = pendingHistory(ledger, {});
    expect(others).toHaveLength(0);
    expect(waiting).toMatchObject({
      id: `intake:${id}`,
      shipmentId: id,
      reference: `REF-${id}`,
      state: 'queued',
      trigger: 'webhook',
      pendingIntake: true,
      attempts: 1,
    });
    expect(waiting!.reason).toMatch(/^Waiting for the shipment's details: .*request id req-503.*Next try at /);
    expect(pendingHistory(ledger, { search: `ref-${id.slice(0, 4)}` })).toHaveLength(1);
    expect(pendingHistory(ledger, { state: 'completed' })).toHaveLength(0);
    // Its history entry is not a job: Retry and Cancel say so instead of "no print job".
    expect(() => refuseOnPendingBooking(waiting!.id, 'canceled')).toThrow(
      expect.objectContaining({
        code: 'INTAKE_BOOKING_WAITING',
        message: expect.stringContaining(`Booking ${id} is not a print job yet, so it cannot be canceled`),
      }),
    );
    expect(() => refuseOnPendingBooking('job-1', 'retried')).not.toThrow();

    await until(() => sink.notices.length === 1, 10_000);
    expect(server.counters.bookingsDeferred).toBe(3);
    expect(shipments.calls).toHaveLength(4);
    expect(sink.notices[0]).toMatchObject({ shipmentId: id, senderReference: 'WH-A' });
    expect(ledger.pendingBookings()).toHaveLength(0);
    // Backoff: 150, 300, 600 ms (±10 %) between the four fetches, not a tight loop.
    await new Promise((r) => setTimeout(r, 300));
    expect(shipments.calls).toHaveLength(4);
    expect(sink.notices).toHaveLength(1);
  });

  it('stores the booking before the 2xx, so a new agent on the same ledger decides it after a crash', async () => {
    const firstSink = new RecordingSink();
    // The first server cannot fetch the shipment its rule needs (the service keeps failing), so
    // the booking waits undecided: the "crash" comes before it is dispatched.
    const first = await startWebhookServer({
      secrets: [SECRET],
      ledger,
      sink: firstSink,
      stationRules: SENDER_RULE,
      shipments: flakyShipments(1_000),
      decisionRetry: { baseMs: 60_000, maxMs: 60_000 },
    });
    servers.push(first);
    const id = randomUUID();
    expect((await deliver(first.url, bookedEnvelope(id), { secret: SECRET })).status).toBe(200);
    expect(ledger.pendingBookings().map((p) => p.notice.shipmentId)).toEqual([id]);
    // The crash: the ledger goes away with the booking still held in memory.
    ledger.close();
    await first.close();
    servers.pop();
    expect(firstSink.notices).toHaveLength(0);

    const reopened = Ledger.open({ path: path.join(dir, 'ledger.db'), pruneIntervalMs: 0 });
    try {
      const sink = new RecordingSink();
      const second = await startWebhookServer({
        secrets: [SECRET],
        ledger: reopened,
        sink,
        stationRules: SENDER_RULE,
        shipments: flakyShipments(0),
      });
      servers.push(second);
      await until(() => sink.notices.length === 1);
      expect(sink.notices[0]).toMatchObject({ shipmentId: id, senderReference: 'WH-A', trigger: 'webhook' });
      expect(reopened.pendingBookings()).toHaveLength(0);
      await second.close();
      servers.pop();
    } finally {
      reopened.close();
    }
  });

  it('keeps a waiting booking stored across a restart, with its next try', async () => {
    const failing = await startWebhookServer({
      secrets: [SECRET],
      ledger,
      sink: new RecordingSink(),
      stationRules: SENDER_RULE,
      shipments: flakyShipments(100),
      decisionRetry: { baseMs: 60_000 },
    });
    const id = randomUUID();
    await deliver(failing.url, bookedEnvelope(id), { secret: SECRET });
    await until(() => failing.counters.bookingsDeferred === 1);
    await failing.close();
    const [stored] = ledger.pendingBookings();
    expect(stored).toMatchObject({ attempts: 1, reason: expect.stringContaining('GET /shipments/') });

    // Restarted: the stored next try is a minute away; a server with a short backoff still waits for it.
    const sink = new RecordingSink();
    const later = await startWebhookServer({
      secrets: [SECRET],
      ledger,
      sink,
      stationRules: SENDER_RULE,
      shipments: flakyShipments(0),
    });
    servers.push(later);
    await new Promise((r) => setTimeout(r, 200));
    expect(sink.notices).toHaveLength(0);
    expect(ledger.pendingBookings()).toHaveLength(1);
  });
});
