import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StationRules } from '../../../src/shared/domain';
import type { BookingNotice } from '../../../src/main/ledger/booking-notice';
import { composeIntake, type Intake } from '../../../src/main/intake/compose-intake';
import type { IntakeSink, IntakeSource } from '../../../src/main/intake/intake-source';
import { silentLogger } from '../../../src/main/intake/ports';
import { WebhookSource } from '../../../src/main/intake/sources/webhooks/webhook-source';
import { PrintPipeline } from '../../../src/main/jobs/pipeline';
import type { Ledger } from '../../../src/main/ledger/ledger';
import { tempLedger, until } from '../../support/intake/fixtures';
import { bookedEnvelope, deliver } from '../../support/intake/loopback-sender';
import { MemoryTarget, notice, ScriptedFetcher } from '../../support/jobs/fakes';

const ALL: StationRules = { mode: 'all', sources: [], carriers: [], matches: [] };
const SECRET = 'whsec-compose';

/** A source known only to this test: bookings handed in by hand, as a new kind of intake would. */
class HandSource implements IntakeSource {
  sink: IntakeSink | null = null;
  async start(sink: IntakeSink): Promise<void> {
    this.sink = sink;
  }
  async stop(): Promise<void> {
    this.sink = null;
  }
  book(booking: BookingNotice): void {
    if (!this.sink) throw new Error('not started');
    this.sink.submitBooking(booking);
  }
}

describe('composeIntake', () => {
  let ledger: Ledger;
  let dispose: () => Promise<void>;
  let pipeline: PrintPipeline;
  let labels: MemoryTarget;
  let intake: Intake | null;

  beforeEach(async () => {
    ({ ledger, dispose } = await tempLedger());
    labels = new MemoryTarget('mem:labels');
    pipeline = new PrintPipeline({
      ledger,
      fetcher: new ScriptedFetcher(),
      targetFor: () => labels,
      route: () => ({ target: 'mem:labels', layout: 'printer', media: 'label' }),
      followIntervalMs: 10,
    });
    await pipeline.start();
    intake = null;
  });
  afterEach(async () => {
    await intake?.stop();
    await pipeline.stop();
    await dispose();
  });

  it('a source added only in a test feeds the engine through the same sink as the webhooks', async () => {
    const hand = new HandSource();
    intake = composeIntake(
      {
        ledger: ledger.intake,
        shipments: { listShipments: async () => [] },
        stationRules: ALL,
        logger: silentLogger,
        webhook: { port: 0, secrets: [SECRET] },
      },
      [hand],
    );
    await intake.start(pipeline);
    expect(hand.sink).toBe(pipeline);

    const webhooks = intake.find(WebhookSource)!;
    expect((await deliver(webhooks.url!, bookedEnvelope('by-webhook'), { secret: SECRET })).status).toBe(200);
    hand.book(notice('by-hand'));
    await until(() => labels.shipments().length === 2);
    expect(labels.shipments().sort()).toEqual(['by-hand', 'by-webhook']);
    // The same booking from both sources prints once: the engine's idempotency holds for every source.
    hand.book(notice('by-webhook'));
    await pipeline.idle();
    expect(labels.shipments().filter((id) => id === 'by-webhook')).toHaveLength(1);

    await intake.stop();
    expect(hand.sink).toBeNull();
    expect(webhooks.url).toBeNull();
    intake = null;
  });

  it('starts only the sources its parts turn on', async () => {
    intake = composeIntake({
      ledger: ledger.intake,
      shipments: { listShipments: async () => [] },
      stationRules: ALL,
      logger: silentLogger,
    });
    expect(intake.sources).toEqual([]);
  });
});
