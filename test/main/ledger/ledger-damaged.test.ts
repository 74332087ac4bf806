import { renameSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Ledger } from '../../../src/main/ledger/ledger';
import { shipmentOf, startStation, waitFor, type Station } from '../../support/agent-harness';
import { damageMiddle, fillLedger } from '../../support/jobs/damage';

describe('a damaged ledger', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'print-station-damaged-'));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('is refused when opened, with a message naming the file and what to do', () => {
    const file = join(dir, 'ledger.sqlite');
    fillLedger(file, 3000);
    damageMiddle(file);
    let error: unknown;
    try {
      Ledger.open({ path: file }).close();
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'LEDGER_DAMAGED' });
    const message = (error as Error).message;
    expect(message).toContain(file);
    expect(message).toMatch(/move ledger\.sqlite aside/);
    expect(message).toMatch(/rebuilds what it needs from the service by polling/);
    // The lock is released: once moved aside, the next start works.
    renameSync(file, `${file}.damaged`);
    const fresh = Ledger.open({ path: file });
    expect(fresh.recovered).toBe(true);
    fresh.close();
    const again = Ledger.open({ path: file });
    expect(again.recovered).toBe(true);
    again.close();
  });

  it('a first ledger is not a recovered one', () => {
    const ledger = Ledger.open({ path: join(dir, 'ledger.sqlite') });
    expect(ledger.recovered).toBe(false);
    ledger.close();
  });
});

describe('recovery from a damaged ledger', () => {
  let station: Station;
  afterEach(async () => station?.close());

  it('does not print again the labels already printed when the ledger is moved aside', async () => {
    // The service's clock, moved on below by the minutes a person takes to read the error and
    // move the file aside. Without that the restart could fall in the same second as the last
    // booking, which the first-start rule may let through (its estimate leans early, first-start.ts).
    let serviceSkewMs = 0;
    station = await startStation({ now: () => new Date(Date.now() + serviceSkewMs) });
    const { agent } = await station.start();
    await agent.poller?.pollOnce();
    const booked = [];
    for (let i = 0; i < 3; i++) booked.push(await station.sandbox.bookShipment({ reference_id: `BEFORE-${i}` }));
    await waitFor(async () => (await station.prints()).length === 3, 'the three labels');
    await agent.pipeline.idle();
    await station.stopAgent();

    const file = join(station.dir, 'data', 'ledger.sqlite');
    fillLedger(file, 3000);
    damageMiddle(file);
    await expect(station.start()).rejects.toMatchObject({ code: 'LEDGER_DAMAGED' });

    renameSync(file, `${file}.damaged`);
    serviceSkewMs = 2 * 60_000;
    const restarted = await station.start();
    const result = await restarted.agent.poller?.pollOnce();
    expect(result).toMatchObject({ ok: true });
    await restarted.agent.pipeline.idle();
    expect((await station.prints()).map(shipmentOf).sort()).toEqual(booked.map((b) => b.shipmentId).sort());

    // A booking after the recovery prints as usual.
    const after = await station.sandbox.bookShipment({ reference_id: 'AFTER' });
    await waitFor(async () => (await station.prints()).length === 4, 'the new label');
    expect((await station.prints()).map(shipmentOf)).toContain(after.shipmentId);
  }, 60_000);
});
