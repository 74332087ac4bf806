import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StationRules } from '../../../src/shared/domain';
import { ServiceClient } from '../../../src/main/api/client';
import { Poller, type PollerOptions } from '../../../src/main/intake/sources/polling/poller';
import { startWebhookServer, type WebhookServer } from '../../../src/main/intake/sources/webhooks/webhook-server';
import type { BookingNotice } from '../../../src/main/ledger/booking-notice';
import type { Ledger } from '../../../src/main/ledger/ledger';
import { PrintPipeline } from '../../../src/main/jobs/pipeline';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server';
import { RecordingSink, tempLedger, until } from '../../support/intake/fixtures';

/** Intake against the real sandbox and the real client on loopback. */

const ALL: StationRules = { mode: 'all', sources: [], carriers: [], matches: [] };
const SECRET = 'whsec-sandbox';

describe('intake with the sandbox', () => {
  let ledger: Ledger;
  let disposeLedger: () => Promise<void>;
  let sandbox: Sandbox | null;
  let client: ServiceClient | null;
  let receiver: WebhookServer | null;
  let pollers: Poller[];

  beforeEach(async () => {
    ({ ledger, dispose: disposeLedger } = await tempLedger());
    sandbox = null;
    client = null;
    receiver = null;
    pollers = [];
  });
  afterEach(async () => {
    for (const p of pollers) await p.stop();
    await receiver?.close();
    await client?.close();
    await sandbox?.close();
    await disposeLedger();
  });

  async function connect(webhooks: readonly { url: string; secret: string }[] = []): Promise<{ sandbox: Sandbox; client: ServiceClient }> {
    sandbox = await startSandbox({ webhooks });
    client = new ServiceClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, retries: 0 });
    return { sandbox, client };
  }

  function poller(options: Omit<PollerOptions, 'cursors' | 'stationRules'> & Partial<Pick<PollerOptions, 'stationRules'>>): Poller {
    const p = new Poller({ cursors: ledger, stationRules: ALL, ...options });
    pollers.push(p);
    return p;
  }

  it('a poll with 10,000 shipments already known reads only the new ones (counted requests)', async () => {
    const { sandbox, client } = await connect();
    const sink = new RecordingSink();
    sandbox.seedBooked(10_000);
    // Lookback 0: the seeded history counts as known; this first poll only sets the mark.
    const p = poller({ shipments: client, sink, initialLookbackMinutes: 0, pageSize: 50 });
    const first = await p.pollOnce();
    expect(first).toMatchObject({ ok: true, submitted: 0, pagesRead: 1 });

    const booked = [];
    for (let i = 0; i < 5; i++) booked.push(await sandbox.bookShipment({ source: i % 2 ? 'APP' : 'API' }));
    sandbox.clearRequestLog();
    const second = await p.pollOnce();

    const lists = sandbox.requestLog().filter((r) => r.method === 'GET' && r.url.startsWith('/external/v1/shipments?'));
    // One small "anything new?" page answers it: 5 new rows and an older one in its 10.
    expect(lists.map((r) => new URL(r.url, 'http://x').searchParams.get('limit'))).toEqual(['10']);
    expect(sandbox.requestLog()).toHaveLength(lists.length);
    expect(second).toMatchObject({ ok: true, submitted: 5 });
    expect(sink.ids()).toEqual(booked.map((b) => b.shipmentId));

    // And the next poll finds nothing new, still in one page.
    sandbox.clearRequestLog();
    expect(await p.pollOnce()).toMatchObject({ submitted: 0, pagesRead: 1 });
  });

  it('a webhook and a poll racing for the same booking make one print job each', async () => {
    const pipeline = new PrintPipeline({
      ledger,
      // Not started: submitBooking writes the ledger rows (the exactly-once decision)
      // without fetching or printing; this test is about intake's side of the race.
      fetcher: { printFile: async () => Promise.reject(new Error('not used')) },
      targetFor: () => {
        throw new Error('not used');
      },
      route: () => ({ target: 'folder:/tmp/never', layout: 'printer', media: 'label' }),
    });
    const calls: Partial<Record<BookingNotice['trigger'], number>> = { webhook: 0, poll: 0 };
    const sink = {
      submitBooking: (notice: BookingNotice) => {
        calls[notice.trigger] = (calls[notice.trigger] ?? 0) + 1;
        return pipeline.submitBooking(notice);
      },
    };
    receiver = await startWebhookServer({ secrets: [SECRET], ledger, sink, stationRules: ALL });
    const { sandbox, client } = await connect([{ url: receiver.url, secret: SECRET }]);
    const p = poller({ shipments: client, sink, initialLookbackMinutes: 10 });

    const booked = [];
    for (let i = 0; i < 6; i++) booked.push(await sandbox.bookShipment({ source: 'API' }));
    // Poll while the webhooks are in flight, and again after they all arrived.
    const polled = p.pollOnce();
    await until(() => receiver!.counters.bookingsSubmitted === 6);
    await polled;
    await p.pollOnce();

    // Both paths submitted every booking...
    expect(calls).toEqual({ webhook: 6, poll: 6 });
    // ...and the ledger holds one label job per shipment.
    const jobs = ledger.search({ limit: 100 });
    expect(jobs).toHaveLength(6);
    expect(jobs.map((j) => j.shipmentId).sort()).toEqual(booked.map((b) => b.shipmentId).sort());
    const triggers = new Set(jobs.map((j) => j.trigger));
    expect([...triggers].every((t) => t === 'webhook' || t === 'poll')).toBe(true);
  });

  it("receives the sandbox's signed webhooks and applies source rules to them", async () => {
    const sink = new RecordingSink();
    receiver = await startWebhookServer({
      secrets: ['endpoint-1', SECRET],
      ledger,
      sink,
      stationRules: { mode: 'filtered', sources: ['APP'], carriers: [], matches: [] },
    });
    const { sandbox } = await connect([{ url: receiver.url, secret: SECRET }]);
    const api = await sandbox.bookShipment({ source: 'API' });
    const app = await sandbox.bookShipment({ source: 'APP', reference_id: 'HAND-1' });
    await until(() => receiver!.counters.bookingsSubmitted + receiver!.counters.bookingsSkipped === 2);
    expect(sink.ids()).toEqual([app.shipmentId]);
    expect(sink.notices[0]).toMatchObject({ source: 'APP', referenceId: 'HAND-1', trackingId: app.trackingId, trigger: 'webhook' });
    expect(ledger.lookupShipment(api.trackingId)?.shipmentId).toBe(api.shipmentId);
    expect(receiver.counters.rejected.mismatch).toBe(0);
  });

  it('after an outage (503s) the next successful poll reconciles every booking made meanwhile', async () => {
    const { sandbox, client } = await connect();
    const sink = new RecordingSink();
    const p = poller({ shipments: client, sink });
    expect((await p.pollOnce()).ok).toBe(true);
    sandbox.setFaults({ errorRate: 1 });
    const failed = await p.pollOnce();
    expect(failed.ok).toBe(false);
    expect(failed.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', requestId: expect.any(String) });
    const booked = [];
    for (let i = 0; i < 3; i++) booked.push(await sandbox.bookShipment());
    sandbox.setFaults({ errorRate: 0 });
    const back = await p.pollOnce();
    expect(back).toMatchObject({ ok: true, reconciled: true, submitted: 3 });
    expect(sink.ids()).toEqual(booked.map((b) => b.shipmentId));
  });
});
