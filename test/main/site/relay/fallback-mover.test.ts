import { afterEach, describe, expect, it } from 'vitest';
import { connectSite, type SiteConnection } from '../../../../src/main/site/bus/connection';
import { DecisionsBucket, type DecisionRecord } from '../../../../src/main/site/bus/decisions';
import { token } from '../../../../src/main/site/bus/names';
import { OnlineStations } from '../../../../src/main/site/bus/presence';
import { SiteRules } from '../../../../src/main/site/bus/site-rules';
import { TakenMarks } from '../../../../src/main/site/bus/taken-marks';
import { FallbackMover } from '../../../../src/main/site/relay/fallback-mover';
import { startNatsServer, type NatsServer } from '../../../support/nats';
import { waitFor } from '../../../support/agent-harness';
import { storedDecision } from '../../../support/site-decision';

let nats: NatsServer | null = null;
let site: SiteConnection | null = null;
let mover: FallbackMover | null = null;
afterEach(async () => {
  mover?.stop();
  await site?.close();
  await nats?.stop();
  mover = null;
  site = null;
  nats = null;
});

function decision(id: string, takenBy: string | null): DecisionRecord {
  return storedDecision({
    shipmentId: id,
    referenceId: `REF-${id}`,
    station: 'Packing 1',
    reason: 'default',
    why: 'the site’s default station',
    takenBy,
  });
}

describe('the fallback mover at a relay’s start', () => {
  it('reads only the newest decisions (startWindow), not every one the site keeps; new ones are followed as they come', async () => {
    nats = await startNatsServer();
    site = await connectSite({ servers: [nats.url], name: 'test' });
    // 300 untaken decisions kept, the oldest first.
    for (let i = 0; i < 300; i++) await site.buckets.decisions.put(token(`old-${i}`), JSON.stringify(decision(`old-${i}`, null)));
    const logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
    mover = new FallbackMover({
      js: site.js,
      decisions: new DecisionsBucket(site.buckets.decisions),
      taken: new TakenMarks(site.buckets.taken),
      rules: new SiteRules(site.buckets.rules),
      online: new OnlineStations(site.buckets.stations),
      defaults: [],
      intervalMs: 60_000,
      startWindow: 50,
      logger,
    });
    await mover.start();
    await waitFor(() => mover!.waitingCount === 50, 'the newest 50 decisions read');
    await new Promise((r) => setTimeout(r, 300));
    expect(mover.waitingCount).toBe(50);

    await site.buckets.decisions.put(token('new-1'), JSON.stringify(decision('new-1', null)));
    await waitFor(() => mover!.waitingCount === 51, 'a new decision followed');
    await site.buckets.decisions.put(token('old-299'), JSON.stringify(decision('old-299', 'Packing 1')));
    await waitFor(() => mover!.waitingCount === 50, 'a decision taken since forgotten');
  }, 60_000);
});
