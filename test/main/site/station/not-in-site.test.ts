import { afterEach, describe, expect, it } from 'vitest';
import { startStation, type Station } from '../../../support/agent-harness';

let station: Station | null = null;
afterEach(async () => {
  await station?.close();
  station = null;
});

describe('a station without --site', () => {
  it('says it is in no site, and refuses site rules saying how to join one', async () => {
    station = await startStation();
    const agent = await station.start();
    expect(await agent.agent.api.siteStatus({})).toEqual({
      enabled: false,
      address: null,
      station: null,
      connected: false,
      stations: [],
      decisions: [],
    });
    await expect(
      agent.agent.api.saveSiteRules({ station: 'Packing 2', rules: { mode: 'none', sources: [], carriers: [], matches: [] } }),
    ).rejects.toMatchObject({ code: 'SITE_UNAVAILABLE', message: expect.stringContaining('--site nats://HOST:PORT') });
    // Its scans claim nothing and still resolve as before.
    expect((await agent.agent.api.lookup({ scan: 'NOT-THERE' })).kind).toBe('not_found');
  });
});
