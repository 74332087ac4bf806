import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../src/main/api/client';
import { PrintPipeline } from '../../../src/main/jobs/pipeline';
import { Ledger } from '../../../src/main/ledger/ledger';
import { CupsTarget } from '../../../src/main/printing/cups/cups-target';
import type { PrinterTarget, SpoolRequest } from '../../../src/main/printing/target';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server';
import { startPrivateCups, type PrivateCups } from '../../support/cups';
import { notice, tempDir } from '../../support/jobs/fakes';

/**
 * A cancel of a label already handed to CUPS: while the scheduler still holds the
 * job (a stopped queue) it is withdrawn there and the job ends "canceled", nothing prints
 * when the queue runs again; once CUPS has printed it, the job is left as it is (the label
 * is out: a person takes it off). Real sandbox, real private cupsd.
 */
describe('PrintPipeline: a canceled shipment withdrawn from a CUPS queue', () => {
  let sandbox: Sandbox;
  let client: ServiceClient;
  let cups: PrivateCups;
  let tmp: ReturnType<typeof tempDir>;
  const pipelines: PrintPipeline[] = [];
  const ledgers: Ledger[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox();
    client = new ServiceClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, retries: 0 });
    cups = await startPrivateCups({
      queues: [
        { name: 'held_sink', kind: 'sink' },
        { name: 'done_sink', kind: 'sink' },
        { name: 'busy_sink', kind: 'sink' },
      ],
    });
    tmp = tempDir('ps-pipeline-withdraw-');
  });
  afterAll(async () => {
    for (const p of pipelines) await p.stop();
    for (const l of ledgers) l.close();
    await client?.close();
    await cups?.stop();
    await sandbox?.close();
    tmp?.cleanup();
  });

  function pipeline(
    queue: string,
    followIntervalMs: number,
    wrap: (target: CupsTarget) => PrinterTarget = (t) => t,
  ): { p: PrintPipeline; ledger: Ledger; target: CupsTarget } {
    const ledger = Ledger.open({ path: path.join(tmp.dir, `${queue}.sqlite`), pruneIntervalMs: 0 });
    // No readiness check before spooling: the queue stops just after the hand-over (the
    // printer went offline), which the test makes happen first.
    const target = new CupsTarget({ uri: `cups:${queue}`, queue, env: cups.env, checkReadiness: false, log: () => undefined });
    const wrapped = wrap(target);
    const p = new PrintPipeline({
      ledger,
      fetcher: client,
      targetFor: () => wrapped,
      route: () => ({ target: `cups:${queue}`, layout: 'printer', media: 'label' }),
      retryBaseMs: 50,
      retryMaxMs: 200,
      followIntervalMs,
    });
    pipelines.push(p);
    ledgers.push(ledger);
    return { p, ledger, target };
  }

  it(
    'withdraws a job a stopped queue still holds: canceled, and nothing prints when the queue runs again',
    { timeout: 60_000 },
    async () => {
      await cups.disable('held_sink', 'printer offline');
      const { p, ledger, target } = pipeline('held_sink', 50);
      await p.start();
      const booked = await sandbox.bookShipment();
      const [job] = p.submitBooking(notice(booked.shipmentId));
      await expect.poll(() => ledger.get(job!.id)?.state, { timeout: 20_000 }).toBe('spooled');
      const spoolerJobId = ledger.get(job!.id)!.spoolerJobId!;
      expect(await target.jobState(spoolerJobId)).toBe('pending');

      const result = p.cancelShipment(booked.shipmentId, 'service');
      expect(result.atPrinter.map((j) => j.id)).toEqual([job!.id]);
      const settled = await result.withdrawn;
      expect(settled.withdrawn.map((j) => [j.id, j.state])).toEqual([[job!.id, 'canceled']]);
      expect(settled.atPrinter).toEqual([]);
      expect(await target.jobState(spoolerJobId)).toBe('canceled');
      expect(ledger.get(job!.id)).toMatchObject({ state: 'canceled', reason: expect.stringMatching(/^shipment canceled at the service/) });

      await cups.enable('held_sink');
      await cups.waitForJobs({ queue: 'held_sink' });
      // Several follow ticks: the follower, which saw the job canceled at CUPS, records nothing over it.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await cups.outputs('held_sink')).toEqual([]);
      expect(ledger.get(job!.id)).toMatchObject({ state: 'canceled', reason: expect.stringMatching(/^shipment canceled at the service/) });
    },
  );

  it('leaves a job CUPS already printed as it is: at the printer, for a person to take off', { timeout: 60_000 }, async () => {
    // The follower does not look again within the test: the ledger still says spooled.
    const { p, ledger } = pipeline('done_sink', 600_000);
    await p.start();
    const booked = await sandbox.bookShipment();
    const [job] = p.submitBooking(notice(booked.shipmentId));
    await expect.poll(() => ledger.get(job!.id)?.state, { timeout: 20_000 }).toBe('spooled');
    await cups.waitForOutputs('done_sink', 1);
    await cups.waitForJobs({ queue: 'done_sink' });

    const settled = await p.cancelShipment(booked.shipmentId, 'station').withdrawn;
    expect(settled.withdrawn).toEqual([]);
    expect(settled.atPrinter.map((j) => j.id)).toEqual([job!.id]);
    expect(ledger.get(job!.id)!.state).toBe('spooled');
    expect(await cups.outputs('done_sink')).toHaveLength(1);
  });

  it('withdraws a label canceled while it was being handed over, once the hand-over is done', { timeout: 60_000 }, async () => {
    await cups.disable('busy_sink', 'printer offline');
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let spooling = false;
    // The hand-over waits at the gate: the cancel arrives while it is under way.
    const gated = (target: CupsTarget): PrinterTarget =>
      Object.assign(Object.create(target) as CupsTarget, {
        spool: async (request: SpoolRequest) => {
          spooling = true;
          await gate;
          return target.spool(request);
        },
      });
    const { p, ledger, target } = pipeline('busy_sink', 50, gated);
    await p.start();
    const booked = await sandbox.bookShipment();
    const [job] = p.submitBooking(notice(booked.shipmentId));
    await expect.poll(() => spooling, { timeout: 20_000 }).toBe(true);

    const result = p.cancelShipment(booked.shipmentId, 'station');
    expect(result.busy.map((j) => j.id)).toEqual([job!.id]);
    open();
    const settled = await result.withdrawn;
    expect(settled.withdrawn.map((j) => [j.id, j.state])).toEqual([[job!.id, 'canceled']]);
    expect(ledger.get(job!.id)).toMatchObject({ state: 'canceled', reason: expect.stringMatching(/^shipment canceled at this station/) });
    const spoolerJobId = ledger.get(job!.id)!.spoolerJobId!;
    expect(await target.jobState(spoolerJobId)).toBe('canceled');

    await cups.enable('busy_sink');
    await cups.waitForJobs({ queue: 'busy_sink' });
    expect(await cups.outputs('busy_sink')).toEqual([]);
  });
});
