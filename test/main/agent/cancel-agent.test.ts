/**
 * Cancel means no print, against the real sandbox and the real headless agent: a shipment
 * canceled elsewhere (a CANCELED tracking event, a poll that reads CANCELED) while its label
 * waits at this station ends "canceled", never printed; End of day and `report`, from the
 * ledger alone after a restart, count the station's own cancel.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobView } from '../../../src/shared/domain';
import { runReport } from '../../../src/main/cli/report';
import { localDay } from '../../../src/main/report/day-window';
import { startStation, waitFor, type Station } from '../../support/agent-harness';

let station: Station;

afterEach(async () => {
  await station?.close();
});

async function start(): Promise<{ printer: string }> {
  station = await startStation();
  await station.start();
  return { printer: `folder:${station.printDir}` };
}

const api = () => station.agent!.agent.api;
const jobOf = async (shipmentId: string): Promise<JobView | undefined> =>
  (await api().listJobs({ limit: 50 })).find((j) => j.shipmentId === shipmentId);

/** A booking whose label waits behind the paused label printer. */
async function waitingBooking(printer: string): Promise<string> {
  await api().setPaused({ paused: true, printer });
  const { shipmentId } = await station.sandbox.bookShipment({ source: 'API' });
  await waitFor(async () => (await jobOf(shipmentId))?.state === 'queued', 'the label job, queued behind the paused printer');
  return shipmentId;
}

describe('a shipment canceled elsewhere while its label waits', () => {
  it('a CANCELED tracking event (webhook) cancels the waiting label: it never prints, and End of day counts it canceled', async () => {
    const { printer } = await start();
    const shipmentId = await waitingBooking(printer);

    station.sandbox.cancelShipment(shipmentId, { trackingEvent: true });
    await waitFor(async () => (await jobOf(shipmentId))?.state === 'canceled', 'the job canceled by the tracking event');
    await api().setPaused({ paused: false, printer });
    await station.agent!.agent.pipeline.idle();

    expect(await station.prints()).toEqual([]);
    expect(await jobOf(shipmentId)).toMatchObject({ reasonMessage: { code: 'job.shipmentCanceled', params: { by: 'service' } } });
    const report = await api().endOfDay({ day: localDay() });
    expect(report.counts).toMatchObject({ canceled: 1, printed: 0, failed: 0 });
  });

  it('a poll that reads CANCELED (canceled in the web application, no event) cancels the waiting label', async () => {
    const { printer } = await start();
    const shipmentId = await waitingBooking(printer);

    station.sandbox.cancelShipment(shipmentId);
    const poll = await station.agent!.agent.poller!.pollOnce();
    expect(poll.ok).toBe(true);
    expect((await jobOf(shipmentId))?.state).toBe('canceled');
    await api().setPaused({ paused: false, printer });
    await station.agent!.agent.pipeline.idle();
    expect(await station.prints()).toEqual([]);
  });
});

describe('End of day keeps the station’s own cancel across a restart', () => {
  it('`report` from the ledger alone, after a restart, shows a label printed and then canceled here as canceled', async () => {
    await start();
    const { shipmentId, referenceId } = await station.sandbox.bookShipment({ source: 'API' });
    await waitFor(async () => (await jobOf(shipmentId))?.state === 'completed', 'the label printed');
    const canceled = await api().packCancel({ shipmentId });
    expect(canceled.ok).toBe(true);
    await station.stopAgent();

    // No service address or key: the report is the ledger's alone.
    const run = await runReport(['--day', localDay(), '--data-dir', join(station.dir, 'data')], {});
    expect(run.report?.serviceError).not.toBeNull();
    expect(run.report?.counts).toMatchObject({ canceled: 1, printed: 0 });
    expect(run.report?.rows[0]).toMatchObject({ shipmentId, state: 'canceled', detail: 'shipment canceled at this station' });
    expect(run.text).toContain(referenceId);
    expect(run.text).toContain('canceled 1');
  });

  it('after a restart with the service unreachable, End of day still counts the cancel', async () => {
    await start();
    const { shipmentId } = await station.sandbox.bookShipment({ source: 'API' });
    await waitFor(async () => (await jobOf(shipmentId))?.state === 'completed', 'the label printed');
    expect((await api().packCancel({ shipmentId })).ok).toBe(true);
    await station.stopAgent();
    await station.start();
    station.sandbox.setFaults({ errorRate: 1 });

    const report = await api().endOfDay({ day: localDay() });
    expect(report.serviceError).not.toBeNull();
    expect(report.counts).toMatchObject({ canceled: 1, printed: 0 });
  });
});
