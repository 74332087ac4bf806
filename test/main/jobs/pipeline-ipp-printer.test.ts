import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobView } from '../../../src/shared/domain';
import { ServiceClient } from '../../../src/main/api/client';
import { createTarget } from '../../../src/main/printing/create-target';
import type { PrinterTarget } from '../../../src/main/printing/target';
import { Ledger } from '../../../src/main/ledger/ledger';
import { PrintPipeline, type PrintPipelineOptions } from '../../../src/main/jobs/pipeline';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server';
import { startPrivateCups, type PrivateCups } from '../../support/cups';
import { startIppEvePrinter, type IppEvePrinter } from '../../support/ippeveprinter';
import { notice, tempDir } from '../../support/jobs/fakes';
import { shipmentsInPdfs } from '../../support/reliability/pdf-shipments';

/**
 * Printer truth through CUPS: the pipeline against the real sandbox, a private cupsd and
 * behind it ippeveprinter, CUPS's reference IPP Everywhere printer, as a 4x6 label printer.
 * The printer is killed to be unreachable, killed mid-job to lose a job, and started
 * without 4x6 media to refuse one.
 */
describe('PrintPipeline through CUPS to an IPP printer (ippeveprinter)', () => {
  let sandbox: Sandbox;
  let client: ServiceClient;
  let cups: PrivateCups;
  let tmp: ReturnType<typeof tempDir>;
  const printers: IppEvePrinter[] = [];
  let tries = 0;

  beforeAll(async () => {
    sandbox = await startSandbox();
    client = new ServiceClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, retries: 0 });
    cups = await startPrivateCups();
    tmp = tempDir('ps-pipeline-ipp-');
  });
  afterAll(async () => {
    await client?.close();
    await cups?.stop();
    for (const printer of printers) await printer.stop();
    await sandbox?.close();
    tmp?.cleanup();
  });

  async function printerQueue(queue: string, media?: readonly string[]): Promise<{ eve: IppEvePrinter; target: PrinterTarget }> {
    const eve = await startIppEvePrinter(media ? { media } : {});
    printers.push(eve);
    await cups.addIppQueue(queue, eve.uri);
    return { eve, target: createTarget(`cups:${queue}`, { env: cups.env }) };
  }

  function pipeline(name: string, target: PrinterTarget, extra: Partial<PrintPipelineOptions> = {}) {
    const ledger = Ledger.open({ path: path.join(tmp.dir, `${name}.sqlite`) });
    const changes: JobView[] = [];
    const p = new PrintPipeline({
      ledger,
      fetcher: client,
      targetFor: () => target,
      route: () => ({ target: target.uri, layout: 'printer', media: 'label' }),
      retryBaseMs: 100,
      retryMaxMs: 500,
      followIntervalMs: 100,
      onJobChange: (job) => changes.push(job),
      ...extra,
    });
    return { p, ledger, changes };
  }

  it(
    'a printer CUPS cannot reach is not ready in its own words, the labels wait, and each prints once when it is back',
    // Alone, and with this folder's other CUPS tests, it passes in seconds; in the whole unit
    // suite (dozens of private servers on loopback) it has failed waiting for the labels'
    // reasons: retried, and the poll names each job's state and reason when it fails.
    { timeout: 120_000, retry: 2 },
    async () => {
      // A queue and ledger of its own each try: a retry must not inherit the jobs an earlier try
      // left at CUPS or in its ledger (they would print on this try's printer, counted twice).
      const name = `gone-${(tries += 1)}`;
      const { eve, target } = await printerQueue(name);
      const { p, ledger, changes } = pipeline(name, target);
      try {
        await p.start();
        await eve.kill();
        const booked = [await sandbox.bookShipment(), await sandbox.bookShipment(), await sandbox.bookShipment()];
        const ids = booked.map((b) => b.shipmentId);
        const jobs = ids.map((id) => p.submitBooking(notice(id))[0]!);

        // Readiness (what Settings, the state bar and the tray show) says it, with CUPS's words.
        await expect.poll(async () => (await target.readiness()).ready, { timeout: 20_000 }).toBe(false);
        const readiness = await target.readiness();
        expect(readiness.detail).toMatch(/^The printer of CUPS queue "gone-\d+" cannot be reached: check that it is on and connected/);
        expect(readiness.detail).toContain('The printer may not exist or is unavailable at this time.');
        // Every label waits visibly, in the printer's words, and none is called printed: those
        // already at CUPS (spooled) and any the agent holds back (queued, waiting for the printer).
        const waiting = (id: string) =>
          /cannot be reached.*(waiting for the printer|when the printer is back)/.test(ledger.get(id)!.reason ?? '');
        // CUPS notices an unreachable printer only when its backend tries to connect: slower on a loaded machine.
        await expect
          .poll(() => jobs.map((j) => (waiting(j.id) ? 'waiting' : `${ledger.get(j.id)!.state}: ${ledger.get(j.id)!.reason}`)), {
            timeout: 45_000,
          })
          .toEqual(jobs.map(() => 'waiting'));
        expect(ledger.get(jobs[0]!.id)!.reason).toMatch(
          /^at the spooler, waiting for the printer: cannot be reached: check that it is on and connected \(the printer says: "The printer may not exist or is unavailable at this time\."\); it prints when the printer is back$/,
        );
        for (const job of jobs) expect(['completed', 'failed']).not.toContain(ledger.get(job.id)!.state);
        expect(changes.some((c) => c.state === 'completed')).toBe(false);

        await eve.restart();
        await expect.poll(() => jobs.every((j) => ledger.get(j.id)!.state === 'completed'), { timeout: 60_000 }).toBe(true);
        for (const job of jobs) expect(ledger.get(job.id)!.reason).toBeNull();
        expect((await target.readiness()).ready).toBe(true);
        // Each label once (the two waiting behind the first may go as one batch job).
        await expect.poll(async () => (await shipmentsInPdfs(await eve.outputs())).sort(), { timeout: 20_000 }).toEqual([...ids].sort());
      } finally {
        await p.stop();
        ledger.close();
      }
    },
  );

  it(
    'a printer killed mid-job and restarted: the label may have printed, never "completed" unless it came out',
    { timeout: 120_000 },
    async () => {
      const { eve, target } = await printerQueue('killed');
      const { p, ledger } = pipeline('killed', target);
      try {
        await p.start();
        await eve.setPrintSeconds(5);
        const [job] = p.submitBooking(notice((await sandbox.bookShipment()).shipmentId));
        await expect.poll(() => eve.printing(), { timeout: 30_000 }).toBe(true);
        await eve.kill();
        await eve.setPrintSeconds(0.2);
        await eve.restart();
        const ended = () => ['failed', 'completed'].includes(ledger.get(job!.id)!.state);
        await expect.poll(ended, { timeout: 60_000 }).toBe(true);
        if (ledger.get(job!.id)!.state === 'completed') {
          // CUPS's ipp backend sometimes sends the job again to the restarted printer (it lost
          // the connection while following it): then it printed there, and completed is true.
          await eve.waitForOutputs(1);
          return;
        }
        // Usually CUPS completes it with cups-ipp-missing-job-history: the printer forgot it.
        expect(ledger.get(job!.id)!.reason).toMatch(
          /^the printer lost job killed-\d+ before saying it had printed it .*; it may have printed: check the printer, then retry by hand$/,
        );
        expect(await eve.outputs()).toEqual([]);
      } finally {
        await p.stop();
        ledger.close();
      }
    },
  );

  it(
    "a printer without 4x6 media refuses the label: the job fails with the printer's own words, not as a cancel",
    { timeout: 120_000 },
    async () => {
      const { eve, target } = await printerQueue('a4only', ['iso_a4_210x297mm', 'na_letter_8.5x11in']);
      // Settings and the start-up line say it before any label is sent.
      const labels = await target.readiness('label');
      expect(labels.ready).toBe(false);
      expect(labels.detail).toMatch(
        /does not list 4x6 in labels in the media it supports \(it offers: iso_a4_210x297mm, na_letter_8\.5x11in\)/,
      );
      expect((await target.readiness('a4')).ready).toBe(true);

      const { p, ledger } = pipeline('a4only', target);
      try {
        await p.start();
        const [job] = p.submitBooking(notice((await sandbox.bookShipment()).shipmentId));
        await expect.poll(() => ledger.get(job!.id)!.state, { timeout: 60_000 }).toBe('failed');
        expect(ledger.get(job!.id)!.reason).toMatch(
          /^the printer refused job a4only-\d+: "Printer cannot print with supplied options\."; check the printer's media and settings, then retry$/,
        );
        expect(await eve.outputs()).toEqual([]);
      } finally {
        await p.stop();
        ledger.close();
      }
    },
  );

  it(
    'prints straight to an ipp:// printer and follows it there; killed mid-job, the next label may have printed',
    { timeout: 120_000 },
    async () => {
      const eve = await startIppEvePrinter();
      printers.push(eve);
      const target = createTarget(eve.uri);
      const { p, ledger } = pipeline('direct', target);
      try {
        await p.start();
        const first = (await sandbox.bookShipment()).shipmentId;
        const [printed] = p.submitBooking(notice(first));
        await expect.poll(() => ledger.get(printed!.id)!.state, { timeout: 30_000 }).toBe('completed');
        expect(await shipmentsInPdfs(await eve.outputs())).toEqual([first]);

        await eve.setPrintSeconds(5);
        const [cut] = p.submitBooking(notice((await sandbox.bookShipment()).shipmentId));
        await expect.poll(() => eve.printing(), { timeout: 30_000 }).toBe(true);
        await eve.kill();
        await eve.setPrintSeconds(0.2);
        await eve.restart();
        await expect.poll(() => ledger.get(cut!.id)!.state, { timeout: 60_000 }).toBe('failed');
        expect(ledger.get(cut!.id)!.reason).toMatch(
          /^the printer lost job \d+ before saying it had printed it .*; it may have printed: check the printer, then retry by hand$/,
        );
        expect(await eve.outputs()).toHaveLength(1);
      } finally {
        await p.stop();
        ledger.close();
      }
    },
  );
});
