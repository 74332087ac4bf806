import { afterEach, describe, expect, it } from 'vitest';
import { startNatsCluster } from '../../../support/nats';
import { waitFor } from '../../../support/agent-harness';
import { startTestSite, type TestSite } from '../../../support/site';

let site: TestSite | null = null;
let cluster: Awaited<ReturnType<typeof startNatsCluster>> | null = null;
afterEach(async () => {
  await site?.close();
  await cluster?.stop();
  site = null;
  cluster = null;
});

describe('a site on a three-node NATS cluster', () => {
  it('keeps printing every booking once when one server is killed', async () => {
    cluster = await startNatsCluster();
    const servers = cluster.servers.map((s) => s.url);
    site = await startTestSite({ natsServer: cluster.servers[0]!, servers });
    const one = site.station('Packing 1');
    await one.start();
    await site.startRelay({ defaultStations: ['Packing 1'] });
    const booked: string[] = [];
    for (let i = 0; i < 4; i++) booked.push((await site.sandbox.bookShipment({ reference_id: `C-${i}` })).shipmentId);
    await waitFor(async () => (await one.printed()).length >= 4, 'the first labels');

    // kill -9 of one node: its replicas of the stream and buckets are gone, the other two hold them.
    await cluster.servers[0]!.kill();
    for (let i = 4; i < 8; i++) booked.push((await site.sandbox.bookShipment({ reference_id: `C-${i}` })).shipmentId);
    await waitFor(async () => (await one.printed()).length >= 8, 'the labels booked after the loss', 40_000).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${site!.lines.slice(-40).join('\n')}`);
    });
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await one.printed()).sort()).toEqual([...booked].sort());
  }, 90_000);
});
