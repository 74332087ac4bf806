import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobView } from '../../../src/shared/domain';
import { ServiceClient } from '../../../src/main/api/client';
import { createTarget } from '../../../src/main/printing/create-target';
import type { PrinterTarget } from '../../../src/main/printing/target';
import { Ledger } from '../../../src/main/ledger/ledger';
import { PrintPipeline, type PrintPipelineOptions } from '../../../src/main/jobs/pipeline';
import type { PdfFetcher } from '../../../src/main/jobs/ports';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server';
import { pdfPageSizes, startPrivateCups, type PrivateCups } from '../../support/cups';
import { startTcpGate } from '../../support/tcp-gate';
import { notice, tempDir } from '../../support/jobs/fakes';
import { pdfPages, shipmentsInPdf, shipmentsInPdfs } from '../../support/reliability/pdf-shipments';

// Both ways a job reaches the scheduler: IPP Print-Job (the default) and lp.
describe.each(['ipp', 'lp'] as const)('spool %s', (spool) => {
  /** The pipeline against the real sandbox and a private CUPS scheduler. */
  describe('PrintPipeline with real CUPS', () => {
    let sandbox: Sandbox;
    let client: ServiceClient;
    let cups: PrivateCups;
    let tmp: ReturnType<typeof tempDir>;
    const targets = new Map<string, PrinterTarget>();

    beforeAll(async () => {
      sandbox = await startSandbox();
      client = new ServiceClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, retries: 0 });
      cups = await startPrivateCups({
        queues: [
          { name: 'order_sink', kind: 'sink' },
          { name: 'offline_sink', kind: 'sink' },
          { name: 'label_pdf', kind: 'pdf' },
          { name: 'a4_pdf', kind: 'pdf' },
          { name: 'batch_sink', kind: 'sink' },
          { name: 'sheet_sink', kind: 'sink' },
        ],
      });
      tmp = tempDir('ps-pipeline-cups-');
    });
    afterAll(async () => {
      await client?.close();
      await cups?.stop();
      await sandbox?.close();
      tmp?.cleanup();
    });

    function pipeline(
      name: string,
      extra: Partial<PrintPipelineOptions> & { fetcher?: PdfFetcher } = {},
    ): { p: PrintPipeline; ledger: Ledger; changes: JobView[] } {
      const ledger = Ledger.open({ path: path.join(tmp.dir, `${name}.sqlite`) });
      const changes: JobView[] = [];
      const p = new PrintPipeline({
        ledger,
        fetcher: client,
        targetFor: (uri) => {
          let t = targets.get(uri);
          if (!t) targets.set(uri, (t = createTarget(uri, { env: cups.env, cupsSpool: spool })));
          return t;
        },
        route: (type) =>
          type === 'label'
            ? { target: 'cups:order_sink', layout: 'printer', media: 'label' }
            : { target: 'cups:a4_pdf', layout: 'a4', media: 'a4' },
        retryBaseMs: 50,
        retryMaxMs: 200,
        followIntervalMs: 100,
        onJobChange: (job) => changes.push(job),
        ...extra,
      });
      return { p, ledger, changes };
    }

    it('prints 50 labels to one queue in booking order although some PDFs arrive late', { timeout: 120_000 }, async () => {
      const booked = [];
      for (let i = 0; i < 50; i++) booked.push(await sandbox.bookShipment());
      const ids = booked.map((b) => b.shipmentId);
      const slow = new Set(ids.filter((_, i) => i % 7 === 0));
      const fetcher: PdfFetcher = {
        printFile: async (req) => {
          if (req.shipment_ids.some((id) => slow.has(id))) await new Promise((r) => setTimeout(r, 150));
          return client.printFile(req);
        },
      };
      const { p, ledger } = pipeline('order', { fetcher });
      await p.start();
      for (const id of ids) p.submitBooking(notice(id));
      await p.idle();
      await expect.poll(() => ledger.counts().completed, { timeout: 60_000 }).toBe(50);
      await p.stop();
      ledger.close();
      const outputs = await cups.outputs('order_sink'); // oldest CUPS job first
      // Batched by default: the labels are read from the PDFs, in job order then page order.
      expect(await shipmentsInPdfs(outputs)).toEqual(ids);
    });

    it(
      'batches a burst (first label alone): each label once, in booking order, fewer spooler jobs, one title per batch',
      { timeout: 120_000 },
      async () => {
        const booked = [];
        for (let i = 0; i < 40; i++) booked.push(await sandbox.bookShipment());
        const ids = booked.map((b) => b.shipmentId);
        const calls: string[][] = [];
        const fetcher: PdfFetcher = {
          printFile: async (req) => {
            calls.push([...req.shipment_ids]);
            return client.printFile(req);
          },
        };
        const { p, ledger } = pipeline('batch', {
          fetcher,
          batchMax: 10,
          route: () => ({ target: 'cups:batch_sink', layout: 'printer', media: 'label' }),
        });
        await p.start();
        p.submitBooking(notice(ids[0]!));
        await new Promise((r) => setImmediate(r));
        for (const id of ids.slice(1)) p.submitBooking(notice(id));
        await p.idle();
        await expect.poll(() => ledger.counts().completed, { timeout: 60_000 }).toBe(40);
        await p.stop();
        ledger.close();
        expect(calls[0]).toEqual([ids[0]]);
        expect(Math.max(...calls.map((c) => c.length))).toBe(10);
        const outputs = await cups.outputs('batch_sink');
        expect(outputs.length).toBe(calls.length);
        expect(outputs.length).toBeLessThan(10);
        expect(await shipmentsInPdfs(outputs)).toEqual(ids);
        // Batch jobs carry the batch id (what crash recovery looks up), single ones the job id and shipment.
        expect(outputs.slice(1).every((f) => /_B[0-9a-z]{15}_/.test(path.basename(f)))).toBe(true);
      },
    );

    it('fills 2x2 sheets with batches: 9 labels on 3 pages instead of 9, whole sheets first', { timeout: 120_000 }, async () => {
      const booked = [];
      for (let i = 0; i < 9; i++) booked.push(await sandbox.bookShipment());
      const ids = booked.map((b) => b.shipmentId);
      const { p, ledger } = pipeline('sheets', {
        batchMax: 25,
        firstAlone: false,
        route: () => ({ target: 'cups:sheet_sink', layout: '2x2', media: 'a4' }),
      });
      await p.start();
      for (const id of ids) p.submitBooking(notice(id));
      await p.idle();
      await expect.poll(() => ledger.counts().completed, { timeout: 60_000 }).toBe(9);
      await p.stop();
      ledger.close();
      // Two whole sheets in one job, then the label left over (nothing else arrived) alone.
      const sheets = await cups.outputs('sheet_sink'); // in spooler job order
      expect(await Promise.all(sheets.map((f) => pdfPages(f)))).toEqual([2, 1]);
      const [eight, one] = await Promise.all(sheets.map((f) => shipmentsInPdf(f)));
      expect(eight!.sort()).toEqual(ids.slice(0, 8).sort());
      expect(one).toEqual([ids[8]]);
    });

    it('prints a label as 288 x 432 pt and a waybill as 595 x 842 pt', { timeout: 120_000 }, async () => {
      const { p, ledger } = pipeline('geometry', {
        autoPrintTypes: () => ['label', 'waybill'],
        route: (type) =>
          type === 'label'
            ? { target: 'cups:label_pdf', layout: 'printer', media: 'label' }
            : { target: 'cups:a4_pdf', layout: 'a4', media: 'a4' },
      });
      await p.start();
      const b = await sandbox.bookShipment();
      const jobs = p.submitBooking(notice(b.shipmentId));
      await p.idle();
      await expect.poll(() => jobs.map((j) => ledger.get(j.id)!.state), { timeout: 60_000 }).toEqual(['completed', 'completed']);
      await p.stop();
      ledger.close();
      const [label] = await cups.waitForOutputs('label_pdf', 1);
      const [a4] = await cups.waitForOutputs('a4_pdf', 1);
      const round = (s: { width: number; height: number }[]) => s.map((x) => [Math.round(x.width), Math.round(x.height)]);
      expect(round(await pdfPageSizes(label!))[0]).toEqual([288, 432]);
      expect(round(await pdfPageSizes(a4!))[0]).toEqual([595, 842]);
    });

    it(
      'holds the line on a disabled queue without spending attempts or failing, then prints each label once, in order',
      { timeout: 120_000 },
      async () => {
        await cups.disable('offline_sink', 'out of labels');
        const { p, ledger, changes } = pipeline('offline', {
          maxAttempts: 3,
          route: () => ({ target: 'cups:offline_sink', layout: 'printer', media: 'label' }),
        });
        await p.start();
        const booked = [await sandbox.bookShipment(), await sandbox.bookShipment(), await sandbox.bookShipment()];
        const ids = booked.map((b) => b.shipmentId);
        const jobs = ids.map((id) => p.submitBooking(notice(id))[0]!);
        // Far more than maxAttempts (3) retries' worth of time at 50-200 ms.
        await expect
          .poll(() => changes.filter((c) => c.id === jobs[0]!.id && /waiting for the printer/.test(c.reason ?? '')).length, {
            timeout: 20_000,
          })
          .toBeGreaterThanOrEqual(6);
        for (const job of jobs) expect(ledger.get(job.id)!.state).not.toBe('failed');
        expect(ledger.get(jobs[0]!.id)!.attempts).toBe(1);
        for (const c of changes.filter((c) => c.reason)) {
          expect(c.reason).toMatch(
            /^CUPS queue "offline_sink" is disabled \(out of labels\): run `cupsenable 'offline_sink'` or enable it in printer settings; waiting for the printer \(checking again in \d+ ms\)$/,
          );
        }
        expect(await cups.outputs('offline_sink')).toEqual([]);

        await cups.enable('offline_sink');
        await p.idle();
        await expect.poll(() => ledger.counts().completed, { timeout: 30_000 }).toBe(3);
        for (const job of jobs) expect(ledger.get(job.id)!.attempts).toBe(1);
        await p.stop();
        ledger.close();
        await cups.waitForJobs({ queue: 'offline_sink' });
        expect(await shipmentsInPdfs(await cups.outputs('offline_sink'))).toEqual(ids);
      },
    );

    it(
      'waits on a scheduler that is down with its advice on every wait (never the socket error), then prints each label once, in order',
      { timeout: 120_000 },
      async () => {
        const gate = await startTcpGate(cups.server);
        const uri = 'cups:gated_sink';
        await cups.addQueue('gated_sink', 'sink');
        const gated = createTarget(uri, { env: { ...cups.env, CUPS_SERVER: gate.address }, cupsSpool: spool });
        const { p, ledger, changes } = pipeline('gated', {
          maxAttempts: 3,
          targetFor: () => gated,
          route: () => ({ target: uri, layout: 'printer', media: 'label' }),
        });
        try {
          await p.start();
          const first = await sandbox.bookShipment();
          const [warmup] = p.submitBooking(notice(first.shipmentId));
          await expect.poll(() => ledger.get(warmup!.id)!.state, { timeout: 30_000 }).toBe('completed');

          await gate.close();
          const booked = [await sandbox.bookShipment(), await sandbox.bookShipment(), await sandbox.bookShipment()];
          const ids = booked.map((b) => b.shipmentId);
          const jobs = ids.map((id) => p.submitBooking(notice(id))[0]!);
          const waits = () => changes.filter((c) => c.id === jobs[0]!.id && /waiting for the printer/.test(c.reason ?? ''));
          await expect.poll(() => waits().length, { timeout: 20_000 }).toBeGreaterThanOrEqual(6);
          for (const job of jobs) expect(ledger.get(job.id)!.state).not.toBe('failed');
          expect(ledger.get(jobs[0]!.id)!.attempts).toBe(1);
          const advice = `Cannot reach ${gate.address} to print to ${uri}: start CUPS (systemctl start cups) or check the server address`;
          for (const c of changes.filter((c) => c.reason && jobs.some((j) => j.id === c.id))) {
            expect(c.reason).not.toMatch(/ECONNREFUSED/);
            expect(c.reason!.startsWith(`${advice}; waiting for the printer (checking again in `)).toBe(true);
          }

          await gate.open();
          await expect.poll(() => jobs.every((j) => ledger.get(j.id)!.state === 'completed'), { timeout: 30_000 }).toBe(true);
          for (const job of jobs) expect(ledger.get(job.id)!.attempts).toBe(1);
          await cups.waitForJobs({ queue: 'gated_sink' });
          expect(await shipmentsInPdfs(await cups.outputs('gated_sink'))).toEqual([first.shipmentId, ...ids]);
        } finally {
          await p.stop();
          ledger.close();
          await gate.close();
        }
      },
    );
  });
});
