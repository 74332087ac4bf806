import { afterEach, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../../../support/site';
import { waitFor } from '../../../support/agent-harness';

let site: TestSite | null = null;
afterEach(async () => {
  await site?.close();
  site = null;
});

describe('a relay without --default-station', () => {
  it('starts; a booking nothing decides waits, visibly, and prints where it is scanned later; claimed ones print at once', async () => {
    site = await startTestSite();
    const one = site.station('Packing 1');
    const two = site.station('Packing 2');
    await one.start();
    await two.start();
    const relay = await site.startRelay({ defaultStations: [] });

    await two.agent!.agent.api.lookup({ scan: 'ORDER-CLAIMED' });
    const claimed = await site.sandbox.bookShipment({ reference_id: 'ORDER-CLAIMED' });
    const nobodys = await site.sandbox.bookShipment({ reference_id: 'ORDER-NOBODY' });

    await waitFor(async () => (await two.printed()).includes(claimed.shipmentId), 'the claimed label at Packing 2');
    await waitFor(async () => relay.waitingBookings().includes(nobodys.shipmentId), 'the undecided booking waiting at the relay');
    // Polls go on: it still waits, printed nowhere, said once in the log.
    await new Promise((r) => setTimeout(r, 2_500));
    expect(await one.printed()).toEqual([]);
    expect(await two.printed()).toEqual([claimed.shipmentId]);
    expect(relay.waitingBookings()).toEqual([nobodys.shipmentId]);
    const said = site.lines.filter((l) => l.includes(`booking ${nobodys.shipmentId} (ORDER-NOBODY) waits`));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('scan its reference at the station that should print it');
    expect(site.lines.filter((l) => l.includes('could not be submitted'))).toEqual([]);

    // A packer scans it at Packing 1: the next poll decides it there.
    await one.agent!.agent.api.lookup({ scan: 'ORDER-NOBODY' });
    await waitFor(async () => (await one.printed()).includes(nobodys.shipmentId), 'the waiting label at the station that scanned it');
    expect(relay.waitingBookings()).toEqual([]);
    const status = await one.agent!.agent.api.siteStatus({});
    expect(status.decisions.find((d) => d.shipmentId === nobodys.shipmentId)?.reason).toBe('claim');
  }, 60_000);
});

describe('the relay’s name in the site', () => {
  it('is the same after a restart with the same data directory: one relay row, online again, not one more offline', async () => {
    site = await startTestSite();
    const one = site.station('Packing 1');
    await one.start();
    const first = await site.startRelay();
    await waitFor(
      async () => (await one.agent!.agent.api.siteStatus({})).stations.some((s) => s.role === 'relay' && s.online),
      'the relay online',
    );
    await first.stop();
    await site.startRelay();
    await new Promise((r) => setTimeout(r, 1_000));
    const relays = (await one.agent!.agent.api.siteStatus({})).stations.filter((s) => s.role === 'relay');
    expect(relays).toHaveLength(1);
    expect(relays[0]!.name).toMatch(/^relay@.+\/[0-9a-f]{6}$/);
    expect(relays[0]!.online).toBe(true);
  }, 60_000);
});
