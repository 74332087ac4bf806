import { afterEach, describe, expect, it } from 'vitest';
import { rm } from 'node:fs/promises';
import { startProtectedSite, type TestSite } from '../../support/site';
import { waitFor } from '../../support/agent-harness';
import type { StationRules } from '../../../src/shared/domain';

/** A site whose server runs from site-setup's config: relays and stations each with their own credential. */

const B_RULES: StationRules = { mode: 'filtered', sources: [], carriers: [], matches: [{ field: 'reference_id', pattern: 'B-' }] };

let site: TestSite | null = null;
afterEach(async () => {
  await site?.close();
  site = null;
});

async function printedWhere(stations: ReadonlyArray<{ name: string; printed(): Promise<string[]> }>): Promise<Map<string, string[]>> {
  const where = new Map<string, string[]>();
  for (const station of stations) for (const id of await station.printed()) where.set(id, [...(where.get(id) ?? []), station.name]);
  return where;
}

describe('a protected site (site-setup)', () => {
  it('prints each booking once at its station by claim, rule and default; stations see each other and their decisions', async () => {
    site = await startProtectedSite(['Packing 1', 'Packing 2']);
    const one = site.station('Packing 1');
    const two = site.station('Packing 2', { rules: B_RULES });
    await site.startRelay({ defaultStations: ['Packing 1'] });
    await one.start();
    await two.start();
    await two.agent!.agent.api.lookup({ scan: 'CLAIM-9' });
    const byDefault = await site.sandbox.bookShipment({ reference_id: 'X-1' });
    const byRule = await site.sandbox.bookShipment({ reference_id: 'B-1' });
    const byClaim = await site.sandbox.bookShipment({ reference_id: 'CLAIM-9' });
    await waitFor(async () => (await printedWhere([one, two])).size === 3, 'three labels in the protected site', 30_000);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(Object.fromEntries(await printedWhere([one, two]))).toEqual({
      [byDefault.shipmentId]: ['Packing 1'],
      [byRule.shipmentId]: ['Packing 2'],
      [byClaim.shipmentId]: ['Packing 2'],
    });
    await waitFor(async () => {
      const status = await one.agent!.agent.api.siteStatus({});
      return status.decisions.find((d) => d.shipmentId === byClaim.shipmentId)?.takenBy === 'Packing 2';
    }, 'the relay copies the taken mark into the decision');
    const status = await one.agent!.agent.api.siteStatus({});
    expect(status.stations.filter((s) => s.role === 'station').map((s) => [s.name, s.online])).toEqual([
      ['Packing 1', true],
      ['Packing 2', true],
    ]);
    // Rules of another station cannot be written with this station's credential.
    await expect(one.agent!.agent.api.saveSiteRules({ station: 'Packing 2', rules: { ...B_RULES, mode: 'none' } })).rejects.toThrow();
  }, 90_000);

  it('heals a server that lost its store mid-burst: every booking once, at its station, without restarting anyone', async () => {
    site = await startProtectedSite(['Packing 1', 'Packing 2']);
    const one = site.station('Packing 1');
    const two = site.station('Packing 2', { rules: B_RULES });
    await site.startRelay({ defaultStations: ['Packing 1'], healEveryMs: 1_000 });
    await one.start();
    await two.start();
    const expected = new Map<string, string>();
    const book = async (i: number): Promise<void> => {
      const reference = i % 2 === 0 ? `B-${i}` : `X-${i}`;
      const booked = await site!.sandbox.bookShipment({ reference_id: reference });
      expected.set(booked.shipmentId, i % 2 === 0 ? 'Packing 2' : 'Packing 1');
    };
    for (let i = 0; i < 6; i++) await book(i);
    // The server dies and comes back with an empty store, while bookings keep coming.
    await site.nats.kill();
    await rm(site.nats.store, { recursive: true, force: true });
    for (let i = 6; i < 10; i++) await book(i);
    await site.nats.start();
    for (let i = 10; i < 16; i++) await book(i);
    await waitFor(async () => (await printedWhere([one, two])).size === expected.size, 'every booking printed after the wipe', 90_000);
    await new Promise((r) => setTimeout(r, 3_000));
    const where = await printedWhere([one, two]);
    const wrong = [...expected].filter(([id, station]) => JSON.stringify(where.get(id)) !== JSON.stringify([station]));
    expect(wrong).toEqual([]);
    expect(where.size).toBe(expected.size);
    expect(site.lines.some((line) => /the site's server had lost .*set up again/.test(line))).toBe(true);
  }, 150_000);
});
