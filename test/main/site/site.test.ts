import { afterEach, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../../support/site';
import { waitFor } from '../../support/agent-harness';
import type { StationRules } from '../../../src/shared/domain';

const B_RULES: StationRules = { mode: 'filtered', sources: [], carriers: [], matches: [{ field: 'reference_id', pattern: 'B-' }] };

let site: TestSite | null = null;
afterEach(async () => {
  await site?.close();
  site = null;
});

/** Every printed shipment id of every station, with where it printed. */
async function printedWhere(stations: ReadonlyArray<{ name: string; printed(): Promise<string[]> }>): Promise<Map<string, string[]>> {
  const where = new Map<string, string[]>();
  for (const station of stations) for (const id of await station.printed()) where.set(id, [...(where.get(id) ?? []), station.name]);
  return where;
}

describe('a site of stations on NATS JetStream', () => {
  it('decides each booking once: a scan claim first, then station rules, else the default station; one label each', async () => {
    site = await startTestSite();
    const one = site.station('Packing 1');
    const two = site.station('Packing 2', { rules: B_RULES });
    await one.start();
    await two.start();
    await site.startRelay({ defaultStations: ['Packing 1'] });

    // A scan at Packing 2 of a reference not booked yet claims it there.
    const scan = await two.agent!.agent.api.lookup({ scan: 'CLAIM-7' });
    expect(scan.kind).toBe('not_found');

    const byDefault = await site.sandbox.bookShipment({ reference_id: 'X-1' });
    const byRule = await site.sandbox.bookShipment({ reference_id: 'B-1' });
    const byClaim = await site.sandbox.bookShipment({ reference_id: 'CLAIM-7' });

    await waitFor(async () => (await printedWhere([one, two])).size === 3, 'three labels in the site');
    // Time for a second print, if there were to be one.
    await new Promise((r) => setTimeout(r, 1_500));
    const where = await printedWhere([one, two]);
    expect(Object.fromEntries(where)).toEqual({
      [byDefault.shipmentId]: ['Packing 1'],
      [byRule.shipmentId]: ['Packing 2'],
      [byClaim.shipmentId]: ['Packing 2'],
    });

    // Every station sees the site's decisions and every station by name.
    const status = await one.agent!.agent.api.siteStatus({});
    expect(status.connected).toBe(true);
    expect(status.stations.filter((s) => s.role === 'station').map((s) => [s.name, s.online])).toEqual([
      ['Packing 1', true],
      ['Packing 2', true],
    ]);
    const claimed = status.decisions.find((d) => d.shipmentId === byClaim.shipmentId);
    expect(claimed?.reason).toBe('claim');
    expect(claimed?.why).toContain('claimed by a scan of CLAIM-7');
    expect(claimed?.takenBy).toBe('Packing 2');

    // A station that joins later sees the decisions made before it started.
    const three = site.station('Packing 3');
    await three.start();
    const before = [byDefault, byRule, byClaim].map((b) => b.shipmentId).sort();
    await waitFor(
      async () =>
        JSON.stringify((await three.agent!.agent.api.siteStatus({})).decisions.map((d) => d.shipmentId).sort()) === JSON.stringify(before),
      'the earlier decisions at a station that joined later',
      5_000,
    );
  }, 60_000);

  it('two relays publish each booking once; a station that was down gets its bookings when it returns', async () => {
    site = await startTestSite();
    const one = site.station('Packing 1');
    await one.start();
    await one.stop(); // its durable consumer stays
    await site.startRelay({ defaultStations: ['Packing 1'], fallbackAfterMs: 600_000 });
    const { startRelay } = await import('../../../src/main/site/relay/relay');
    const { createLogger } = await import('../../../src/main/log');
    const second = await startRelay({
      servers: [site.nats.url],
      apiUrl: site.sandbox.baseUrl,
      apiKey: site.sandbox.apiKey,
      dataDir: `${site.dir}/relay-2`,
      log: createLogger({ write: () => undefined }),
      pollIntervalSeconds: 1,
      defaultStations: ['Packing 1'],
    });
    try {
      const booked = [];
      for (let i = 0; i < 5; i++) booked.push(await site.sandbox.bookShipment({ reference_id: `HA-${i}` }));
      // Both relays have seen every booking.
      await new Promise((r) => setTimeout(r, 3_000));
      await one.start();
      await waitFor(async () => (await one.printed()).length >= 5, 'the returning station prints what waited for it');
      await new Promise((r) => setTimeout(r, 1_500));
      expect((await one.printed()).sort()).toEqual(booked.map((b) => b.shipmentId).sort());
    } finally {
      await second.stop();
    }
  }, 60_000);

  it('moves the bookings of a station that stays down to its fallback station, exactly once', async () => {
    site = await startTestSite();
    const one = site.station('Packing 1', { fallbackStation: 'Packing 2' });
    const two = site.station('Packing 2');
    await one.start();
    await two.start();
    await one.stop();
    await site.startRelay({ defaultStations: ['Packing 1'], fallbackAfterMs: 1_000 });
    const booked = await site.sandbox.bookShipment({ reference_id: 'DOWN-1' });
    // Packing 1's heartbeat must age out (15 s) before its booking moves.
    await waitFor(async () => (await two.printed()).includes(booked.shipmentId), 'the fallback station prints it', 40_000);
    await one.start();
    await new Promise((r) => setTimeout(r, 2_000));
    expect(await one.printed()).toEqual([]);
    expect(await two.printed()).toEqual([booked.shipmentId]);
  }, 90_000);

  it('a station that loses the site polls by itself, prints nothing on its own, and prints each booking once when the site returns', async () => {
    site = await startTestSite();
    const one = site.station('Packing 1');
    await one.start();
    await site.startRelay({ defaultStations: ['Packing 1'] });
    const first = await site.sandbox.bookShipment({ reference_id: 'BEFORE-1' });
    await waitFor(async () => (await one.printed()).includes(first.shipmentId), 'the label before the loss');

    await site.nats.kill();
    await waitFor(() => one.agent!.agent.poller !== null, 'the station polling by itself while the site is lost');
    const during = [];
    for (let i = 0; i < 3; i++) during.push(await site.sandbox.bookShipment({ reference_id: `LOST-${i}` }));
    await one.agent!.agent.poller!.pollOnce();
    expect(await one.printed()).toEqual([first.shipmentId]);

    await site.nats.start();
    await waitFor(async () => (await one.printed()).length >= 4, 'the bookings made while the site was lost', 40_000);
    await waitFor(() => one.agent!.agent.poller === null, 'the station leaving its own polling once the site is back');
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await one.printed()).sort()).toEqual([first, ...during].map((b) => b.shipmentId).sort());
  }, 90_000);

  it('edits a station’s rules from another station: the site decides by them at once, and that station takes them into its settings', async () => {
    site = await startTestSite();
    const one = site.station('Packing 1');
    const two = site.station('Packing 2');
    await one.start();
    await two.start();
    await site.startRelay({ defaultStations: ['Packing 1'] });

    const status = await one.agent!.agent.api.saveSiteRules({ station: 'Packing 2', rules: B_RULES });
    expect(status.stations.find((s) => s.name === 'Packing 2')?.rules).toEqual(B_RULES);
    const booked = await site.sandbox.bookShipment({ reference_id: 'B-9' });
    await waitFor(async () => (await two.printed()).includes(booked.shipmentId), 'the label at Packing 2 by its new rule');
    expect(await one.printed()).toEqual([]);
    await waitFor(
      async () => JSON.stringify((await two.agent!.agent.api.getSettings({})).stationRules) === JSON.stringify(B_RULES),
      'Packing 2 taking the rules into its own settings',
      15_000,
    );
    await expect(
      one.agent!.agent.api.saveSiteRules({
        station: 'Packing 2',
        rules: { mode: 'filtered', sources: [], carriers: [], matches: [{ field: 'reference_id', pattern: '/(?=x)/' }] },
      }),
    ).rejects.toMatchObject({ code: 'INTAKE_INVALID_RULE_PATTERN' });
  }, 60_000);

  it('publishes again a decided booking its online station never received (a publish lost with a server), once it is overdue', async () => {
    site = await startTestSite();
    const one = site.station('Packing 1');
    await one.start();
    const relay = await site.startRelay({ defaultStations: ['Packing 1'], fallbackAfterMs: 1_000, pollIntervalSeconds: 0 });
    await relay.poller!.pollOnce(); // its one poll is over: the relay itself never sees the booking below
    const booked = await site.sandbox.bookShipment({ reference_id: 'LOST-PUBLISH' });
    // Decided, but its message never reached the stream.
    const { DecisionsBucket } = await import('../../../src/main/site/bus/decisions');
    await new DecisionsBucket(relay.site.buckets.decisions).decideOnce({
      station: 'Packing 1',
      reason: 'default',
      why: 'the site’s default station',
      shipmentId: booked.shipmentId,
      notice: {
        shipmentId: booked.shipmentId,
        referenceId: 'LOST-PUBLISH',
        trackingId: booked.trackingId,
        carrier: null,
        source: 'API',
        senderReference: null,
        system: null,
        bookedAt: new Date().toISOString(),
        trigger: 'webhook',
      },
      decidedAt: new Date(Date.now() - 5_000).toISOString(),
      takenBy: null,
      takenAt: null,
    });
    await waitFor(async () => (await one.printed()).includes(booked.shipmentId), 'the label once the relay published it again', 20_000);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await one.printed()).toEqual([booked.shipmentId]);
  }, 60_000);
});
