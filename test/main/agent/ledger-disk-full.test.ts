import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readBridgeFile } from '../../../src/main/web/bridge-file';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bookedEnvelope, deliver } from '../../support/intake/loopback-sender';
import { WEBHOOK_SECRET, shipmentOf, startStation, waitFor, type Station } from '../../support/agent-harness';
import { mountSmallDisk, smallDiskUnavailable, type SmallDisk } from '../../support/small-disk';
import { Ledger } from '../../../src/main/ledger/ledger';

const unavailable = smallDiskUnavailable();

/**
 * Through the whole agent: its data directory (the ledger) on a small
 * real disk that fills up. A webhook then is answered 503 (the service delivers it again),
 * the status says what is wrong and what to do, the API keeps answering, and once the disk
 * has room the station resumes by itself and prints the label once.
 */
describe.skipIf(unavailable !== null)(`the agent with its ledger on a full disk${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  let disk: SmallDisk;
  let station: Station;

  beforeAll(() => {
    disk = mountSmallDisk(8 * 1024 * 1024);
  });
  afterAll(() => disk.close());
  afterEach(async () => {
    disk.empty();
    await station?.close();
  });

  it('answers webhooks 503 while the ledger cannot be written, shows why, and prints the booking once when the disk has room', async () => {
    station = await startStation();
    const { agent } = await station.start({
      dataDir: join(disk.dir, 'data'),
      tuning: { pipeline: { retryBaseMs: 20, retryMaxMs: 200, followIntervalMs: 20, ledgerRetryBaseMs: 50, ledgerRetryMaxMs: 200 } },
    });
    await station.sandbox.bookShipment({ reference_id: 'BEFORE' });
    await waitFor(async () => (await station.prints()).length === 1, 'the first label');

    disk.fill();
    // A delivery the ledger cannot record is not acknowledged: 503, so the service sends it again.
    const shipment = await station.sandbox.bookShipment({ reference_id: 'DURING' });
    const direct = await deliver(station.agent!.webhookUrl!, bookedEnvelope(shipment.shipmentId), { secret: WEBHOOK_SECRET });
    expect(direct.status).toBe(503);
    expect(direct.headers['retry-after']).toBe('30');

    // Said once, with what to do: status (window and tray), log.
    await waitFor(async () => (await agent.api.getStatus({})).state === 'error', 'the status to show the ledger failure');
    const status = await agent.api.getStatus({});
    expect(status.lastError).toMatchObject({ code: 'LEDGER_WRITE_FAILED' });
    expect(status.lastError!.message).toMatch(/is full or read-only: free space, then the agent resumes by itself/);
    expect(station.lines.filter((l) => l.includes('Cannot write the job ledger'))).toHaveLength(1);
    // The API keeps answering while the lines are parked.
    expect((await agent.api.listJobs({})).length).toBeGreaterThan(0);

    disk.empty();
    // The sandbox's own redelivery (or its next one) is recorded now, and the label prints once.
    await waitFor(async () => (await station.prints()).length === 2, 'the label booked while the disk was full', 30_000);
    await waitFor(async () => (await agent.api.getStatus({})).state === 'ok', 'the status to clear');
    expect((await agent.api.getStatus({})).lastError).toBeNull();
    await agent.pipeline.idle();
    const printed = (await station.prints()).map(shipmentOf).sort();
    expect(printed).toHaveLength(2);
    expect(printed).toContain(shipment.shipmentId);
    expect(station.lines.some((l) => l.includes('printing resumes'))).toBe(true);
  });

  it('says the outage once, not per booking at each poll nor per webhook retry, and once when it clears', async () => {
    station = await startStation();
    const { agent } = await station.start({
      dataDir: join(disk.dir, 'data'),
      // Polls are driven by hand below; the interval only keeps the poller from running on its own.
      pollIntervalSeconds: 3600,
      // The guard's own retry waits a minute: what resumes printing below is the poll's booking recorded.
      tuning: { pipeline: { retryBaseMs: 20, retryMaxMs: 200, followIntervalMs: 20, ledgerRetryBaseMs: 60_000, ledgerRetryMaxMs: 60_000 } },
    });
    await station.sandbox.bookShipment({ reference_id: 'BEFORE' });
    await waitFor(async () => (await station.prints()).length === 1, 'the first label');
    await agent.poller!.pollOnce();

    disk.fill();
    const before = station.lines.length;
    station.sandbox.setWebhooks([]);
    const during = [];
    for (const reference of ['FULL-1', 'FULL-2', 'FULL-3']) during.push(await station.sandbox.bookShipment({ reference_id: reference }));
    const envelope = bookedEnvelope(during[0]!.shipmentId);
    for (let i = 0; i < 3; i++) {
      // The service's retries of one delivery: each is answered 503.
      const retry = await deliver(station.agent!.webhookUrl!, envelope, { secret: WEBHOOK_SECRET });
      expect(retry.status).toBe(503);
      const poll = await agent.poller!.pollOnce();
      expect(poll.ok).toBe(false);
    }

    expect(station.lines.filter((l) => l.includes('Cannot write the job ledger'))).toHaveLength(1);
    expect(
      station.lines
        .slice(before)
        .filter((l) => /could not record webhook|could not be submitted|poll failed|could not index|poller: reconciled/.test(l)),
    ).toEqual([]);
    // What the status shows for as long as the outage lasts holds all along (no "next try in 1 s").
    expect((await agent.api.getStatus({})).lastError!.message).toMatch(/Printing waits; the agent tries again at least every 60 s\.$/);

    disk.empty();
    station.sandbox.setWebhooks([{ url: station.agent!.webhookUrl!, secret: WEBHOOK_SECRET }]);
    // The next poll records the bookings it missed, and printing resumes at once, not at the end of the guard's wait.
    await agent.poller!.pollOnce();
    await waitFor(async () => (await agent.api.getStatus({})).state === 'ok', 'the status to clear', 5_000);
    await waitFor(async () => (await station.prints()).length === 4, 'the labels booked while the disk was full', 5_000);
    await agent.pipeline.idle();
    const printed = (await station.prints()).map(shipmentOf);
    expect(new Set(printed).size).toBe(4);
    expect(station.lines.filter((l) => l.includes('printing resumes'))).toHaveLength(1);
    expect(station.lines.filter((l) => l.includes('service reachable again'))).toEqual([]);
  });

  it('starts on a full disk with a job caught mid-fetch: answers, says why, and prints it once when the disk has room', async () => {
    station = await startStation();
    const dataDir = join(disk.dir, 'data');
    const tuning = { pipeline: { retryBaseMs: 20, retryMaxMs: 200, followIntervalMs: 20, ledgerRetryBaseMs: 50, ledgerRetryMaxMs: 200 } };
    await station.start({ dataDir, tuning });
    await station.sandbox.bookShipment({ reference_id: 'BEFORE' });
    await waitFor(async () => (await station.prints()).length === 1, 'the first label');
    await station.stopAgent();

    // A booking whose label was being fetched when the agent went down (a crash mid-fetch):
    // recovering it at the next start means a write (back to queued).
    const caught = await station.sandbox.bookShipment({ reference_id: 'CAUGHT' });
    const ledger = Ledger.open({ path: join(dataDir, 'ledger.sqlite'), pruneIntervalMs: 0 });
    const { job } = ledger.createAutoJob({
      shipmentId: caught.shipmentId,
      reference: 'CAUGHT',
      documentType: 'label',
      layout: 'printer',
      target: `folder:${station.printDir}`,
      trigger: 'webhook',
      bookedAt: new Date().toISOString(),
    });
    ledger.transition(job.id, 'fetching', {});
    ledger.close();

    disk.fill();
    // Started with an option changed, as an operator may: it applies, unsaved, and the start goes on.
    const { agent } = await station.start({ dataDir, tuning, pollIntervalSeconds: 3600 });
    expect((await agent.api.getSettings({})).intake.pollIntervalSeconds).toBe(3600);
    expect(station.lines.filter((l) => l.includes('the options of this start could not be saved'))).toHaveLength(1);
    // It started: the API answers, and the status says what is wrong and what to do.
    await waitFor(async () => (await agent.api.getStatus({})).state === 'error', 'the status to show the ledger failure');
    const status = await agent.api.getStatus({});
    expect(status.lastError).toMatchObject({ code: 'LEDGER_WRITE_FAILED' });
    expect(status.lastError!.message).toMatch(/is full or read-only: free space, then the agent resumes by itself/);
    expect((await agent.api.listJobs({ search: 'CAUGHT' })).map((j) => j.state)).toEqual(['fetching']);
    expect(station.lines.filter((l) => l.includes('Cannot write the job ledger'))).toHaveLength(1);

    // Room again: no restart, no click. The caught label prints once.
    disk.empty();
    await waitFor(async () => (await station.prints()).map(shipmentOf).includes(caught.shipmentId), 'the caught label', 30_000);
    await waitFor(async () => (await agent.api.getStatus({})).state === 'ok', 'the status to clear');
    await agent.pipeline.idle();
    const printed = (await station.prints()).map(shipmentOf);
    expect(printed.filter((id) => id === caught.shipmentId)).toHaveLength(1);
    expect((await agent.api.listJobs({ search: 'CAUGHT' })).map((j) => j.state)).toEqual(['completed']);
  });

  it('started on a full disk with nothing to recover, says so at once (not "ok" until the first booking)', async () => {
    station = await startStation();
    const dataDir = join(disk.dir, 'data');
    const tuning = { pipeline: { retryBaseMs: 20, retryMaxMs: 200, followIntervalMs: 20, ledgerRetryBaseMs: 50, ledgerRetryMaxMs: 200 } };
    await station.start({ dataDir, tuning });
    await station.stopAgent();

    disk.fill();
    const { agent } = await station.start({ dataDir, tuning, uiPort: 0, bridgeRetryMs: 50 });
    const status = await agent.api.getStatus({});
    expect(status.state).toBe('error');
    expect(status.lastError).toMatchObject({ code: 'LEDGER_WRITE_FAILED' });
    // The file `report` finds the agent by cannot be written yet: said, and no half-written file left.
    expect(readBridgeFile(dataDir)).toBeNull();
    expect(readdirSync(dataDir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(station.lines.filter((l) => l.includes('the report command cannot reach this agent'))).toHaveLength(1);
    // Started with the same options as before: nothing to save, nothing said about settings.
    expect(station.lines.filter((l) => l.includes('could not be saved'))).toEqual([]);

    disk.empty();
    await waitFor(async () => (await agent.api.getStatus({})).state === 'ok', 'the status to clear');
    await waitFor(() => readBridgeFile(dataDir) !== null, 'the report command to reach the agent');
    await station.sandbox.bookShipment({ reference_id: 'AFTER' });
    await waitFor(async () => (await station.prints()).length === 1, 'the label booked after space returned');
  });
});
