import { afterEach, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../../../support/site';
import { waitFor } from '../../../support/agent-harness';
import type { StationRules } from '../../../../src/shared/domain';

const B_RULES: StationRules = { mode: 'filtered', sources: [], carriers: [], matches: [{ field: 'reference_id', pattern: 'B-' }] };

let site: TestSite | null = null;
afterEach(async () => {
  await site?.close();
  site = null;
});

describe('a site station’s history', () => {
  it('keeps the site’s decision with each job (claim with its code and scan time, rule, default), across a restart', async () => {
    site = await startTestSite();
    const one = site.station('Packing 1');
    const two = site.station('Packing 2', { rules: B_RULES });
    await one.start();
    await two.start();
    await site.startRelay({ defaultStations: ['Packing 1'] });

    const scanned = Date.now();
    await two.agent!.agent.api.lookup({ scan: 'HIST-CLAIM' });
    const byClaim = await site.sandbox.bookShipment({ reference_id: 'HIST-CLAIM' });
    const byRule = await site.sandbox.bookShipment({ reference_id: 'B-HIST' });
    const byDefault = await site.sandbox.bookShipment({ reference_id: 'HIST-1' });
    await waitFor(async () => (await one.printed()).length === 1 && (await two.printed()).length === 2, 'three labels');

    const jobsOf = async (station: typeof one) => station.agent!.agent.api.listJobs({});
    const twoJobs = await jobsOf(two);
    const claimJob = twoJobs.find((j) => j.shipmentId === byClaim.shipmentId)!;
    expect(claimJob.siteDecision).toMatchObject({ station: 'Packing 2', reason: 'claim', code: 'HIST-CLAIM' });
    expect(Math.abs(Date.parse(claimJob.siteDecision!.at) - scanned)).toBeLessThan(5_000);
    expect(twoJobs.find((j) => j.shipmentId === byRule.shipmentId)!.siteDecision).toMatchObject({ station: 'Packing 2', reason: 'rule' });
    expect((await jobsOf(one)).find((j) => j.shipmentId === byDefault.shipmentId)!.siteDecision).toMatchObject({
      station: 'Packing 1',
      reason: 'default',
    });

    // Every station's Site tab shows Packing 1's last print by the parcel's reference.
    await waitFor(
      async () =>
        (await two.agent!.agent.api.siteStatus({})).stations.find((s) => s.name === 'Packing 1')?.lastPrint?.reference === 'HIST-1',
      'the last print by its reference',
      15_000,
    );

    // Kept in the ledger: still there after the station restarts.
    await two.stop();
    await two.start();
    const again = (await jobsOf(two)).find((j) => j.shipmentId === byClaim.shipmentId)!;
    expect(again.siteDecision).toEqual(claimJob.siteDecision);
  }, 60_000);
});
