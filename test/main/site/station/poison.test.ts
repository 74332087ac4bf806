import { afterEach, describe, expect, it } from 'vitest';
import { jetstreamManager } from '@nats-io/jetstream';
import { startTestSite, type TestSite } from '../../../support/site';
import { waitFor } from '../../../support/agent-harness';
import { BOOKINGS_STREAM, stationConsumer, stationSubject, token } from '../../../../src/main/site/bus/names';

/** Whatever arrives from the site is checked: poison is set aside once and never holds back the bookings behind it. */

let site: TestSite | null = null;
afterEach(async () => {
  await site?.close();
  site = null;
});

describe('a station reading poison from the site', () => {
  it('terminates 2,000 malformed messages and a decision with a garbage date, logs each kind once, and prints the real booking behind them', async () => {
    site = await startTestSite();
    const one = site.station('Packing 1');
    const relay = await site.startRelay({ defaultStations: ['Packing 1'], pollIntervalSeconds: 0 });
    await one.start();
    await relay.poller!.pollOnce();

    // 2,000 messages that are no booking, then a decision whose date is garbage.
    const subject = stationSubject('Packing 1');
    for (let i = 0; i < 2_000; i += 200) {
      await Promise.all(Array.from({ length: 200 }, (_, j) => relay.site.js.publish(subject, j % 2 === 0 ? '{}' : `not json ${i + j}`)));
    }
    // A shipment no relay has seen: only the garbage decision names it.
    const garbage = { shipmentId: 'FORGED-1' };
    await relay.site.buckets.decisions.put(
      token(garbage.shipmentId),
      JSON.stringify({
        station: 'Packing 1',
        reason: 'default',
        why: 'x',
        shipmentId: garbage.shipmentId,
        notice: {
          shipmentId: garbage.shipmentId,
          referenceId: 'GARBAGE-1',
          trackingId: null,
          carrier: null,
          source: null,
          senderReference: null,
          system: null,
          bookedAt: null,
          trigger: 'webhook',
        },
        decidedAt: 'garbage',
        takenBy: null,
        takenAt: null,
      }),
    );
    await relay.site.js.publish(subject, JSON.stringify({ shipmentId: garbage.shipmentId }));

    const real = await site.sandbox.bookShipment({ reference_id: 'REAL-1' });
    await relay.poller!.pollOnce();
    await waitFor(async () => (await one.printed()).includes(real.shipmentId), 'the real booking behind the poison', 30_000);

    // Nothing is left to come again: every poison message was terminated, not nak'd.
    const jsm = await jetstreamManager(relay.site.nc);
    await waitFor(async () => {
      const info = await jsm.consumers.info(BOOKINGS_STREAM, stationConsumer('Packing 1'));
      return info.num_pending === 0 && info.num_ack_pending === 0;
    }, 'no message pending or awaiting an ack');
    expect(await one.printed()).not.toContain(garbage.shipmentId);
    expect(site.lines.filter((line) => line.includes('set aside a malformed booking-message'))).toHaveLength(1);
    expect(site.lines.filter((line) => line.includes('set aside a malformed decision'))).toHaveLength(1);
    expect(site.lines.length).toBeLessThan(200);
  }, 90_000);
});
