import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StationRules } from '../../../../../src/shared/domain';
import { Poller, type PollerOptions } from '../../../../../src/main/intake/sources/polling/poller';
import type { Ledger } from '../../../../../src/main/ledger/ledger';
import { RecordingSink, tempLedger, until } from '../../../../support/intake/fixtures';
import { ServiceVariant, type ListBehaviour } from '../../../../support/intake/service-variants';

const ALL: StationRules = { mode: 'all', sources: [], carriers: [], matches: [] };

describe('Poller (service variants)', () => {
  let ledger: Ledger;
  let dispose: () => Promise<void>;
  let sink: RecordingSink;
  let pollers: Poller[];

  beforeEach(async () => {
    ({ ledger, dispose } = await tempLedger());
    sink = new RecordingSink();
    pollers = [];
  });
  afterEach(async () => {
    for (const p of pollers) await p.stop();
    await dispose();
  });

  function poller(svc: ServiceVariant, overrides: Partial<PollerOptions> = {}): Poller {
    const p = new Poller({ shipments: svc, cursors: ledger, sink, stationRules: ALL, now: () => svc.now, pageSize: 10, ...overrides });
    pollers.push(p);
    return p;
  }

  /** 40 shipments booked long ago, then time moves on past the first-run lookback. */
  function withHistory(behaviour: ListBehaviour): ServiceVariant {
    const svc = new ServiceVariant(behaviour);
    for (let i = 0; i < 40; i++) svc.book(svc.create().id);
    svc.create(); // one never booked
    svc.tick(60 * 60_000);
    return svc;
  }

  it('first run prints only bookings within the initial lookback, not the whole history', async () => {
    const svc = withHistory('paged-newest-first');
    const recent = svc.book(svc.create().id);
    svc.tick(60_000);
    const first = await poller(svc, { initialLookbackMinutes: 10 }).pollOnce();
    expect(first).toMatchObject({ ok: true, reconciled: true, submitted: 1 });
    expect(sink.ids()).toEqual([recent.id]);
    expect(first.pagesRead).toBe(1);
  });

  it.each<ListBehaviour>(['paged-newest-first', 'everything-shuffled', 'ignores-offset', 'paged-oldest-first'])(
    'submits exactly the new bookings, once, on a service that answers %s',
    async (behaviour) => {
      const svc = withHistory(behaviour);
      const p = poller(svc);
      await p.pollOnce();
      expect(sink.notices).toEqual([]);
      const a = svc.book(svc.create().id);
      const b = svc.book(svc.create().id);
      svc.create(); // pending: not booked
      const second = await p.pollOnce();
      expect(second.ok).toBe(true);
      expect(sink.ids()).toEqual([a.id, b.id]);
      expect(sink.notices[0]).toMatchObject({
        trigger: 'poll',
        source: null,
        carrier: 'PostNord',
        trackingId: `TRK-${a.id}`,
        bookedAt: a.booked_at,
      });
      await p.pollOnce();
      expect(sink.ids()).toEqual([a.id, b.id]);
      if (behaviour === 'paged-newest-first') expect(second.pagesRead).toBe(1);
      if (behaviour === 'ignores-offset') expect(svc.calls.length).toBeLessThanOrEqual(6);
    },
  );

  it('on a newest-first service stops at the mark: cost follows what changed, not history', async () => {
    const svc = new ServiceVariant('paged-newest-first');
    for (let i = 0; i < 500; i++) svc.book(svc.create().id);
    svc.tick(60 * 60_000);
    const p = poller(svc, { pageSize: 50 });
    const first = await p.pollOnce();
    expect(first.pagesRead).toBe(1);
    for (let i = 0; i < 60; i++) svc.book(svc.create().id);
    svc.calls.length = 0;
    const second = await p.pollOnce();
    expect(second.submitted).toBe(60);
    // A small first page ("anything new?", 10 rows), then pages of 50 until the mark.
    expect(svc.calls.map((c) => [c.offset, c.limit])).toEqual([
      [0, 10],
      [10, 50],
      [60, 50],
    ]);
  });

  it('does not resubmit an old booking whose shipment changed for another reason', async () => {
    const svc = withHistory('paged-newest-first');
    const p = poller(svc);
    await p.pollOnce();
    svc.touch('shp_3'); // a tracking update on a shipment booked an hour ago
    const r = await p.pollOnce();
    expect(r.bookingsFound).toBe(0);
    expect(sink.notices).toEqual([]);
  });

  it('submits a pending shipment once it is booked, and never a canceled one', async () => {
    const svc = withHistory('paged-newest-first');
    const p = poller(svc);
    const pending = svc.create();
    await p.pollOnce();
    // Booked and canceled between two polls.
    const canceled = svc.book(svc.create().id);
    svc.shipments.set(canceled.id, { ...canceled, status: 'CANCELED', updated_at: svc.tick() });
    await p.pollOnce();
    expect(sink.notices).toEqual([]);
    svc.book(pending.id);
    await p.pollOnce();
    expect(sink.ids()).toEqual([pending.id]);
  });

  it("treats a shipment sharing the mark's timestamp as new only if it was not seen", async () => {
    const svc = withHistory('paged-newest-first');
    const p = poller(svc);
    const a = svc.book(svc.create().id);
    await p.pollOnce();
    expect(sink.ids()).toEqual([a.id]);
    // Committed late with the very same updated_at as the mark.
    const late = svc.create();
    svc.shipments.set(late.id, { ...late, status: 'BOOKED', carrier_name: 'PostNord', booked_at: a.booked_at, updated_at: a.updated_at });
    await p.pollOnce();
    expect(sink.ids()).toEqual([a.id, late.id]);
    await p.pollOnce();
    expect(sink.ids()).toEqual([a.id, late.id]);
  });

  it('never throws on a failing service; the first success after it reconciles everything since the mark', async () => {
    const svc = withHistory('paged-newest-first');
    const p = poller(svc);
    await p.pollOnce();
    svc.failNext = 2;
    const booked = [svc.book(svc.create().id), svc.book(svc.create().id)];
    const failed = await p.pollOnce();
    expect(failed).toMatchObject({ ok: false, submitted: 0 });
    expect(failed.error).toBeInstanceOf(Error);
    expect((await p.pollOnce()).ok).toBe(false);
    expect(p.consecutiveFailures).toBe(2);
    booked.push(svc.book(svc.create().id));
    const back = await p.pollOnce();
    expect(back).toMatchObject({ ok: true, reconciled: true, submitted: 3 });
    expect(sink.ids()).toEqual(booked.map((s) => s.id));
    expect((await p.pollOnce()).reconciled).toBe(false);
  });

  it('keeps its mark in the ledger: a restarted poller catches up on what was booked while it was down', async () => {
    const svc = withHistory('paged-newest-first');
    await poller(svc).pollOnce();
    const whileDown = [svc.book(svc.create().id), svc.book(svc.create().id)];
    svc.tick(3 * 60 * 60_000); // longer than the initial lookback: the mark, not the lookback, decides
    const restarted = poller(svc);
    const r = await restarted.pollOnce();
    expect(r).toMatchObject({ ok: true, reconciled: true });
    expect(sink.ids()).toEqual(whileDown.map((s) => s.id));
    expect(JSON.parse(ledger.getCursor('poller.shipments')!)).toMatchObject({ mark: whileDown[1]!.updated_at });
  });

  it('applies station rules; a source rule does not match polled bookings', async () => {
    const svc = withHistory('paged-newest-first');
    const decisions: string[] = [];
    const p = poller(svc, {
      stationRules: { mode: 'filtered', sources: ['APP'], carriers: [], matches: [] },
      onBooking: (r) => decisions.push(r.why),
    });
    await p.pollOnce();
    svc.book(svc.create().id);
    const r = await p.pollOnce();
    expect(r).toMatchObject({ bookingsFound: 1, submitted: 0, skipped: 1 });
    expect(decisions[0]).toMatch(/source unknown.*webhooks/);
  });

  it('runs on a timer with backoff and keeps going after failures', async () => {
    const svc = withHistory('paged-newest-first');
    svc.failNext = 3;
    const p = poller(svc, { intervalSeconds: 0.02, maxBackoffSeconds: 0.05, now: Date.now });
    p.start();
    await until(() => svc.calls.length >= 5);
    const booked = svc.book(svc.create().id);
    svc.shipments.set(booked.id, { ...booked, updated_at: new Date().toISOString(), booked_at: new Date().toISOString() });
    await until(() => sink.notices.length === 1);
    await p.stop();
    const calls = svc.calls.length;
    await new Promise((r) => setTimeout(r, 80));
    expect(svc.calls.length).toBe(calls);
  });

  it('polls every busyIntervalSeconds while bookings arrive, then goes back to the interval after busyPolls empty polls', async () => {
    const count = (p: Poller) => {
      let polls = 0;
      const pollOnce = p.pollOnce.bind(p);
      p.pollOnce = () => ((polls += 1), pollOnce());
      return () => polls;
    };
    const quietSvc = withHistory('paged-newest-first');
    const quiet = poller(quietSvc, { intervalSeconds: 5, busyIntervalSeconds: 0.02, busyPolls: 3 });
    const quietPolls = count(quiet);
    const busySvc = withHistory('paged-newest-first');
    const booked = busySvc.book(busySvc.create().id);
    const busy = poller(busySvc, { intervalSeconds: 5, busyIntervalSeconds: 0.02, busyPolls: 3 });
    const busyPolls = count(busy);
    quiet.start();
    busy.start();
    await until(() => busyPolls() >= 4);
    await new Promise((r) => setTimeout(r, 300));
    // The first poll found the booking; three empty polls 20 ms apart; then the 5 s interval.
    expect(busyPolls()).toBe(4);
    expect(sink.ids()).toEqual([booked.id]);
    // Nothing found: one poll, then the interval.
    expect(quietPolls()).toBe(1);
  });

  it('polls start to start: a slow list read is part of the interval, so the rate is one an interval (±1 %)', async () => {
    const svc = withHistory('paged-newest-first');
    const starts: number[] = [];
    const list = svc.listShipments.bind(svc);
    // Each list read takes 150 ms of the 1 s interval.
    svc.listShipments = async (query) => {
      starts.push(Date.now());
      await new Promise((r) => setTimeout(r, 150));
      return list(query);
    };
    const p = poller(svc, { intervalSeconds: 1, now: Date.now });
    p.start();
    await until(() => starts.length >= 5, 10_000);
    await p.stop();
    const gaps = starts.slice(1).map((t, i) => t - starts[i]!);
    // A wait after the read would make each gap 1150 ms; start to start they stay within the jitter.
    for (const gap of gaps) {
      expect(gap).toBeGreaterThanOrEqual(970);
      expect(gap).toBeLessThan(1100);
    }
  });

  it('survives a failing cursor store (the ledger) without throwing', async () => {
    const svc = withHistory('paged-newest-first');
    const broken = {
      getCursor: () => {
        throw new Error('database is locked');
      },
      setCursor: () => {},
    };
    const r = await poller(svc, { cursors: broken }).pollOnce();
    expect(r).toMatchObject({ ok: false, mark: null });
    expect(String(r.error)).toMatch(/database is locked/);
  });

  it('rejects a zero interval with a coded error', () => {
    expect(
      () =>
        new Poller({ shipments: new ServiceVariant('paged-newest-first'), cursors: ledger, sink, stationRules: ALL, intervalSeconds: 0 }),
    ).toThrow(expect.objectContaining({ code: 'INTAKE_INVALID_OPTION' }));
  });

  it('keeps its mark below a change time from the future, so later bookings are still found', async () => {
    const svc = withHistory('paged-newest-first');
    const p = poller(svc);
    await p.pollOnce();
    // A shipment whose change time is a day ahead of the station's clock (skew or a bug).
    const odd = svc.create({ updated_at: new Date(svc.now + 24 * 60 * 60_000).toISOString() });
    await p.pollOnce();
    const later = svc.book(svc.create().id);
    const result = await p.pollOnce();
    expect(sink.ids()).toContain(later.id);
    expect(result.mark! < odd.updated_at!).toBe(true);
  });
});
