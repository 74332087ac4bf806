import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobView } from '../../../src/shared/domain';
import { routingSchema } from '../../../src/shared/domain';
import { ServiceClient } from '../../../src/main/api/client';
import { FallbackWatcher } from '../../../src/main/agent/fallback-watcher';
import { Ledger } from '../../../src/main/ledger/ledger';
import { PrintPipeline } from '../../../src/main/jobs/pipeline';
import { createTarget } from '../../../src/main/printing/create-target';
import { findPrinter, mediaOn, routeFor } from '../../../src/main/printing/routing';
import type { PrinterTarget } from '../../../src/main/printing/target';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server';
import { pdfPageSizes, startPrivateCups, type PrivateCups } from '../../support/cups';
import { notice, tempDir } from '../../support/jobs/fakes';
import { shipmentsInPdfs } from '../../support/reliability/pdf-shipments';

/** A stopped label queue in a private cupsd: with auto fallback its waiting labels come out of the A4 queue, once. */
describe('fallback with real CUPS', () => {
  let sandbox: Sandbox;
  let client: ServiceClient;
  let cups: PrivateCups;
  let tmp: ReturnType<typeof tempDir>;

  beforeAll(async () => {
    sandbox = await startSandbox();
    client = new ServiceClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, retries: 0 });
    cups = await startPrivateCups({
      queues: [
        { name: 'zebra', kind: 'sink' },
        { name: 'office', kind: 'sink' },
      ],
    });
    tmp = tempDir('ps-fallback-cups-');
  });
  afterAll(async () => {
    await client?.close();
    await cups?.stop();
    await sandbox?.close();
    tmp?.cleanup();
  });

  it(
    'cupsdisable the label queue: the waiting labels print once on the A4 queue as a4 sheets; re-enabled, nothing more',
    { timeout: 120_000 },
    async () => {
      const routing = routingSchema.parse({
        labelPrinter: 'cups:zebra',
        documentPrinter: 'cups:office',
        printers: [
          { name: 'Zebra', uri: 'cups:zebra', media: '4x6in', fallback: { printer: 'Office', auto: true } },
          { name: 'Office', uri: 'cups:office', media: 'a4' },
        ],
      });
      const ledger = Ledger.open({ path: path.join(tmp.dir, 'ledger.sqlite') });
      const targets = new Map<string, PrinterTarget>();
      const pipeline = new PrintPipeline({
        ledger,
        fetcher: client,
        targetFor: (uri) => {
          let t = targets.get(uri);
          if (!t) targets.set(uri, (t = createTarget(uri, { env: cups.env })));
          return t;
        },
        route: (type, carrier) => routeFor(routing, type, carrier),
        mediaFor: (target, layout) => mediaOn(findPrinter(routing, target), layout),
        retryBaseMs: 50,
        retryMaxMs: 200,
        followIntervalMs: 100,
      });
      const moves: Array<{ printer: string; to: string; jobs: readonly JobView[] }> = [];
      const offers: unknown[] = [];
      const errors: Error[] = [];
      const watcher = new FallbackWatcher({
        pipeline,
        routing: () => routing,
        intervalMs: 100,
        onOffer: (o) => offers.push(o),
        onMoved: (printer, to, jobs) => moves.push({ printer, to, jobs }),
        onError: (e) => errors.push(e),
      });

      await cups.disable('zebra', 'media-empty');
      await pipeline.start();
      watcher.start();
      const booked = [await sandbox.bookShipment(), await sandbox.bookShipment(), await sandbox.bookShipment()];
      const ids = booked.map((b) => b.shipmentId);
      for (const id of ids) pipeline.submitBooking(notice(id));

      // Batched by default: the three labels may share a printer job, so they are counted from the PDFs.
      await expect.poll(() => ledger.counts().completed, { timeout: 60_000 }).toBe(3);
      const outputs = await cups.outputs('office');
      expect((await shipmentsInPdfs(outputs)).sort()).toEqual([...ids].sort());
      expect(moves.flatMap((m) => m.jobs.map((j) => j.shipmentId)).sort()).toEqual([...ids].sort());
      for (const m of moves) expect([m.printer, m.to]).toEqual(['cups:zebra', 'cups:office']);
      for (const file of outputs) {
        const [page] = await pdfPageSizes(file);
        expect([Math.round(page!.width), Math.round(page!.height)]).toEqual([595, 842]);
      }
      for (const job of ledger.open()) expect(job.target).not.toBe('cups:zebra');

      await cups.enable('zebra');
      // The label line comes back and has nothing; the poll sees the same bookings again.
      for (const id of ids) pipeline.submitBooking(notice(id, 'poll'));
      await new Promise((r) => setTimeout(r, 1500));
      await pipeline.idle();
      await cups.waitForJobs();
      expect(await cups.outputs('zebra')).toEqual([]);
      expect(await cups.outputs('office')).toHaveLength(outputs.length);
      expect(offers).toEqual([]);
      expect(errors).toEqual([]);
      await watcher.stop();
      await pipeline.stop();
      ledger.close();
    },
  );
});
