import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StationRules } from '../../../../../src/shared/domain';
import { ServiceClient } from '../../../../../src/main/api/client';
import type { IntakeLogger, ShipmentSourcePort } from '../../../../../src/main/intake/ports';
import { Poller, type PollerOptions } from '../../../../../src/main/intake/sources/polling/poller';
import type { Ledger } from '../../../../../src/main/ledger/ledger';
import { RecordingSink, tempLedger } from '../../../../support/intake/fixtures';
import { SpecService } from '../../../../support/intake/spec-service';

/**
 * The poller against a service that is only what the spec shows (no updated_at or
 * booked_at, no promised order, perhaps no paging), through the real client on loopback.
 */

const ALL: StationRules = { mode: 'all', sources: [], carriers: [], matches: [] };
const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const NOW = Date.parse('2026-03-01T12:00:00Z');
const iso = (ms: number): string => new Date(ms).toISOString();

class RecordingLogger implements IntakeLogger {
  readonly lines: string[] = [];
  info(message: string): void {
    this.lines.push(`info ${message}`);
  }
  warn(message: string): void {
    this.lines.push(`warn ${message}`);
  }
  error(message: string): void {
    this.lines.push(`error ${message}`);
  }
  matching(pattern: RegExp): string[] {
    return this.lines.filter((l) => pattern.test(l));
  }
}

describe('Poller on a spec-shaped service', () => {
  let ledger: Ledger;
  let disposeLedger: () => Promise<void>;
  let service: SpecService;
  let client: ServiceClient;
  let sink: RecordingSink;
  let logger: RecordingLogger;
  let clock: number;
  let pollers: Poller[];

  beforeEach(async () => {
    ({ ledger, dispose: disposeLedger } = await tempLedger());
    service = new SpecService();
    const baseUrl = await service.listen();
    client = new ServiceClient({ baseUrl, apiKey: 'test-key', retries: 0 });
    sink = new RecordingSink();
    logger = new RecordingLogger();
    clock = NOW;
    pollers = [];
  });
  afterEach(async () => {
    for (const p of pollers) await p.stop();
    await client.close();
    await service.close();
    await disposeLedger();
  });

  function poller(overrides: Partial<PollerOptions> = {}): Poller {
    const p = new Poller({
      shipments: client,
      cursors: ledger,
      sink,
      stationRules: ALL,
      logger,
      now: () => clock,
      pageSize: 50,
      ...overrides,
    });
    pollers.push(p);
    return p;
  }

  /** The agent's port before `tracking` was wired: list and get only. */
  function withoutTracking(): ShipmentSourcePort {
    return { listShipments: (q) => client.listShipments(q), getShipment: (id) => client.getShipment(id) };
  }

  const lists = (): string[] => service.requests.filter((r) => r.startsWith('GET /shipments?') || r === 'GET /shipments');
  const trackingCalls = (): string[] => service.requests.filter((r) => r.endsWith('/tracking'));

  describe('a list ordered by creation, not by change (H2)', () => {
    /** 60 shipments created and booked 100+ minutes ago, newest created first; one left pending. */
    function history(pendingIndex: number): string[] {
      const ids: string[] = [];
      for (let i = 59; i >= 0; i--) {
        const created = NOW - (i + 100) * MIN;
        ids[i] = service.create(created, i === pendingIndex ? undefined : created + 1000);
      }
      return ids; // ids[0] is the newest created: first on page 1
    }

    it('submits an old-created shipment booked after the mark although it lists on page 2', async () => {
      const ids = history(55);
      const p = poller();
      const first = await p.pollOnce();
      expect(first).toMatchObject({ ok: true, submitted: 0 });

      clock += MIN;
      service.book(ids[55]!, clock); // created 155 minutes ago, booked now: 56th row, page 2
      service.requests.length = 0;
      const second = await p.pollOnce();
      expect(second).toMatchObject({ ok: true, submitted: 1, pagesRead: 2 });
      expect(sink.ids()).toEqual([ids[55]]);
      expect(sink.notices[0]).toMatchObject({ trigger: 'poll', bookedAt: iso(clock), trackingId: `TRK-${ids[55]}` });
      expect(lists()).toEqual(['GET /shipments?limit=50&offset=0', 'GET /shipments?limit=50&offset=50']);
      // The listing showed the ORDERED event: no tracking request was needed.
      expect(trackingCalls()).toEqual([]);

      // And once only, on the next poll too; the cost warning is given once per poller.
      expect((await p.pollOnce()).submitted).toBe(0);
      expect(sink.ids()).toEqual([ids[55]]);
      expect(logger.matching(/cost of polling grows with the team's history/)).toHaveLength(1);
    });

    it('stops at maxPages on a service whose order it cannot trust, and says so', async () => {
      history(-1);
      const r = await poller({ pageSize: 10, maxPages: 3 }).pollOnce();
      expect(r).toMatchObject({ ok: true, pagesRead: 3 });
      expect(logger.matching(/stopped after 3 pages/)).toHaveLength(1);
    });
  });

  describe('a service that answers limit/offset with 400 (M11)', () => {
    it('falls back to a plain GET /shipments, keeps polling and remembers the fallback', async () => {
      service.rejectPaging = true;
      service.create(NOW - DAY, NOW - DAY + 1000);
      const p = poller();
      const first = await p.pollOnce();
      expect(first).toMatchObject({ ok: true, pagesRead: 1 });
      expect(lists()).toEqual(['GET /shipments?limit=10&offset=0', 'GET /shipments']);

      clock += MIN;
      const fresh = service.create(clock - 1000, clock);
      service.requests.length = 0;
      const second = await p.pollOnce();
      expect(second).toMatchObject({ ok: true, submitted: 1 });
      expect(sink.ids()).toEqual([fresh]);
      expect(lists()).toEqual(['GET /shipments']);
      expect(logger.matching(/rejects limit\/offset/)).toHaveLength(1);
    });
  });

  describe('booking time when the listing does not show it (H3)', () => {
    let old: string;
    let freshOrdered: string;
    let freshScanned: string;

    /** First run (lookback 10 min): one old booking with a carrier scan 1 min ago, two fresh bookings. */
    beforeEach(() => {
      old = service.create(NOW - 3 * DAY - 1000, NOW - 3 * DAY);
      service.carrierEvent(old, 'IN_TRANSIT', NOW - MIN);
      freshOrdered = service.create(NOW - 2 * MIN - 1000, NOW - 2 * MIN);
      freshScanned = service.create(NOW - 3 * MIN - 1000, NOW - 3 * MIN);
      service.carrierEvent(freshScanned, 'IN_TRANSIT', NOW - MIN);
    });

    it('without tracking(): only the booking dated by its ORDERED tracking_status is submitted; the others are logged', async () => {
      const r = await poller({ shipments: withoutTracking(), index: ledger }).pollOnce();
      expect(r).toMatchObject({ ok: true, submitted: 1 });
      // Not printed, but a scan of its tracking number still finds it.
      expect(ledger.lookupShipment(`TRK-${old}`)?.shipmentId).toBe(old);
      expect(sink.ids()).toEqual([freshOrdered]);
      expect(sink.notices[0]!.bookedAt).toBe(iso(NOW - 2 * MIN));
      const unknown = logger.matching(/booking time is unknown/);
      expect(unknown).toHaveLength(2);
      expect(unknown.join('\n')).toContain(old);
      expect(unknown.join('\n')).toContain(freshScanned);
    });

    it('with tracking(): an old booking with a fresh carrier event is not submitted; a fresh one is, dated by its ORDERED event', async () => {
      const p = poller();
      const r = await p.pollOnce();
      expect(r).toMatchObject({ ok: true, submitted: 2 });
      // In booking order: freshScanned was booked a minute before freshOrdered.
      expect(sink.ids()).toEqual([freshScanned, freshOrdered]);
      expect(sink.notices[0]!.bookedAt).toBe(iso(NOW - 3 * MIN));
      expect(trackingCalls().sort()).toEqual([`GET /shipments/${old}/tracking`, `GET /shipments/${freshScanned}/tracking`].sort());

      // Later polls: another carrier event on the old booking is still not a booking, and
      // its booking time is remembered rather than fetched again.
      clock += 5 * MIN;
      service.carrierEvent(old, 'OUT_FOR_DELIVERY', clock - 1000);
      service.requests.length = 0;
      expect(await p.pollOnce()).toMatchObject({ ok: true, bookingsFound: 0 });
      expect(sink.ids()).toEqual([freshScanned, freshOrdered]);
      expect(trackingCalls()).toEqual([]);
    });

    it('a tracking read the service refuses (404) leaves that booking to webhooks and scans; the poll goes on', async () => {
      service.trackingRefused.add(freshScanned);
      const r = await poller().pollOnce();
      expect(r).toMatchObject({ ok: true, submitted: 1 });
      expect(sink.ids()).toEqual([freshOrdered]);
      expect(logger.matching(new RegExp(`tracking of shipment ${freshScanned} is refused`))).toHaveLength(1);
      expect(logger.matching(new RegExp(`${freshScanned}.*booking time is unknown`))).toHaveLength(1);
    });

    it('a tracking read that fails for a while keeps the mark: the booking is submitted once tracking answers', async () => {
      service.trackingOutages.set(freshScanned, 1);
      const p = poller();
      const failed = await p.pollOnce();
      expect(failed.ok).toBe(false);
      expect(failed.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', requestId: expect.any(String) });
      expect(sink.ids()).toEqual([freshOrdered]);
      const back = await p.pollOnce();
      expect(back.ok).toBe(true);
      // Submitted again with freshOrdered (the ledger makes that one print once).
      expect(sink.ids()).toEqual([freshOrdered, freshScanned, freshOrdered]);
      expect(sink.ids()).not.toContain(old);
    });

    it('a tracking read that keeps failing parks that shipment after 3 polls: the mark moves on, and it is submitted once tracking answers, also after a restart (N3)', async () => {
      service.trackingOutages.set(freshScanned, 1_000);
      const p = poller({ parkAfterFailures: 3 });
      expect((await p.pollOnce()).ok).toBe(false);
      const held = (await p.pollOnce()).mark;
      const parkedPoll = await p.pollOnce();
      expect(parkedPoll.ok).toBe(true);
      expect(logger.matching(new RegExp(`tracking of shipment ${freshScanned} failed 3 polls in a row; parked`))).toHaveLength(1);
      expect(parkedPoll.mark).not.toBe(held);

      // The mark no longer waits for it: a new booking is read and submitted at once.
      clock += MIN;
      const later = service.create(clock - 2000, clock - 1000);
      const after = await p.pollOnce();
      expect(after.ok).toBe(true);
      expect(sink.ids().filter((id) => id === later)).toHaveLength(1);
      expect(sink.ids()).not.toContain(freshScanned);

      // A restart: the parked shipment is kept with the cursor; once tracking answers it is dated and submitted once.
      await p.stop();
      service.trackingOutages.set(freshScanned, 0);
      const restarted = poller({ parkAfterFailures: 3 });
      clock += MIN;
      expect((await restarted.pollOnce()).ok).toBe(true);
      expect(sink.ids().filter((id) => id === freshScanned)).toHaveLength(1);
      expect(sink.notices.find((n) => n.shipmentId === freshScanned)!.bookedAt).toBe(iso(NOW - 3 * MIN));
      await restarted.pollOnce();
      expect(sink.ids().filter((id) => id === freshScanned)).toHaveLength(1);
      expect(sink.ids()).not.toContain(old);
    });
  });
});
