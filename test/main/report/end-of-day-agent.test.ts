/**
 * The end-of-day report of a real agent on the real sandbox: a booking announced by
 * webhook, one only the poll saw, one that never reached the station; then "print what is
 * missing" and the manifests, each exactly once however often they are asked for.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { localDay } from '../../../src/main/report/day-window';
import { shipmentOf, startStation, waitFor, type Station } from '../../support/agent-harness';

let station: Station;
beforeEach(async () => {
  station = await startStation();
});
afterEach(async () => {
  await station.close();
});

const printsOf = async (shipmentId: string, kind = '_label_'): Promise<number> =>
  (await station.prints()).filter((f) => shipmentOf(f) === shipmentId && f.includes(kind)).length;

describe('end of day with the sandbox', () => {
  it('counts a webhook booking, a poll-only booking and one that never reached the station, then prints the missing one once', async () => {
    const agent = await station.start();
    const { api } = agent.agent;
    await agent.agent.poller?.pollOnce(); // the start-up reconciliation, before anything is booked
    const byWebhook = await station.sandbox.bookShipment({ source: 'API', reference_id: 'EOD-WEBHOOK' });
    await waitFor(async () => (await printsOf(byWebhook.shipmentId)) === 1, 'the webhook label');

    station.sandbox.setWebhooks([]); // from here on, bookings reach the station only by polling
    const byPoll = await station.sandbox.bookShipment({ source: 'API', reference_id: 'EOD-POLL' });
    await agent.agent.poller!.pollOnce();
    await waitFor(async () => (await printsOf(byPoll.shipmentId)) === 1, 'the polled label');
    expect((await api.shipmentJobs({ shipmentId: byPoll.shipmentId })).map((j) => j.trigger)).toEqual(['poll']);
    const never = await station.sandbox.bookShipment({ source: 'API', reference_id: 'EOD-NEVER', carrier: 'db_schenker' });
    await agent.agent.pipeline.idle();

    const day = localDay();
    const report = await api.endOfDay({ day });
    expect(report.serviceError).toBeNull();
    expect(report.counts).toMatchObject({ booked: 3, printed: 2, not_printed: 1, failed: 0, may_have_printed: 0, canceled: 0 });
    const rows = new Map(report.rows.map((r) => [r.reference, r]));
    const printer = `folder:${station.printDir}`;
    expect(rows.get('EOD-WEBHOOK')).toMatchObject({ state: 'printed', seenBy: 'both', trackingId: byWebhook.trackingId, printer });
    expect(rows.get('EOD-POLL')).toMatchObject({ state: 'printed', seenBy: 'both', trackingId: byPoll.trackingId });
    expect(rows.get('EOD-NEVER')).toMatchObject({ state: 'not_printed', seenBy: 'service', manifest: true });
    expect(rows.get('EOD-NEVER')!.detail).toBe('never reached this station');
    expect(rows.get('EOD-NEVER')!.carrier).toMatch(/schenker/i);
    expect(report.manifests).toEqual({ available: 1, printed: 0 });

    const first = await api.printMissing({ day });
    expect(first).toMatchObject({ queued: 1, retried: 0 });
    const second = await api.printMissing({ day }); // a second click (or a late webhook) prints nothing twice
    expect(second.queued).toBe(0);
    await waitFor(async () => (await printsOf(never.shipmentId)) === 1, 'the missing label');
    await agent.agent.poller!.pollOnce();
    await agent.agent.pipeline.idle();
    expect(await printsOf(never.shipmentId)).toBe(1);
    expect(await printsOf(byWebhook.shipmentId)).toBe(1);
    expect(await printsOf(byPoll.shipmentId)).toBe(1);
    const after = await api.endOfDay({ day });
    expect(after.counts).toMatchObject({ booked: 3, printed: 3, not_printed: 0 });

    const manifests = await api.printManifests({ day });
    expect(manifests.queued).toBe(1);
    expect((await api.printManifests({ day })).queued).toBe(0);
    await waitFor(async () => (await printsOf(never.shipmentId, '_manifest_')) === 1, 'the manifest');
    await agent.agent.pipeline.idle();
    expect(await printsOf(never.shipmentId, '_manifest_')).toBe(1);
    expect((await api.endOfDay({ day })).manifests).toEqual({ available: 1, printed: 1 });
  });

  it('retries a failed label as the same job, and reports from the ledger alone when the service fails', async () => {
    const agent = await station.start({ tuning: { pipeline: { maxAttempts: 1, retryBaseMs: 20, retryMaxMs: 200, followIntervalMs: 20 } } });
    const { api } = agent.agent;
    await agent.agent.poller?.pollOnce();
    station.sandbox.setFaults({ errorRate: 1 });
    const booked = await station.sandbox.bookShipment({ source: 'API', reference_id: 'EOD-FAILS' });
    await waitFor(async () => (await api.listJobs({ search: 'EOD-FAILS' }))[0]?.state === 'failed', 'the failed label', 30_000);

    const day = localDay();
    const down = await api.endOfDay({ day });
    expect(down.serviceError).not.toBeNull();
    expect(down.serviceError!.requestId).toMatch(/.+/);
    expect(down.rows.map((r) => [r.reference, r.state, r.seenBy])).toEqual([['EOD-FAILS', 'failed', 'station']]);

    station.sandbox.setFaults({ errorRate: 0 });
    const [failed] = await api.listJobs({ search: 'EOD-FAILS' });
    const result = await api.printMissing({ day });
    expect(result).toMatchObject({ queued: 0, retried: 1 });
    await waitFor(async () => (await printsOf(booked.shipmentId)) === 1, 'the retried label');
    // The folder printer's file appears before the directory is synced and the job is written
    // completed; wait for the job to settle so the assertion reads the final state, not a step.
    await waitFor(
      async () =>
        (await api.shipmentJobs({ shipmentId: booked.shipmentId })).every((j) => ['completed', 'failed', 'canceled'].includes(j.state)),
      'the retried job to settle',
    );
    const jobs = await api.shipmentJobs({ shipmentId: booked.shipmentId });
    expect(jobs.map((j) => [j.id, j.state])).toEqual([[failed!.id, 'completed']]);
    expect(await printsOf(booked.shipmentId)).toBe(1);
  });
});
