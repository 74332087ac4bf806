import fs from 'node:fs';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobView } from '../../../src/shared/domain';
import { ServiceClient } from '../../../src/main/api/client';
import { FolderTarget } from '../../../src/main/printing/folder/folder-target';
import { createTarget } from '../../../src/main/printing/create-target';
import { Ledger } from '../../../src/main/ledger/ledger';
import { PrintPipeline, type PrintPipelineOptions } from '../../../src/main/jobs/pipeline';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server';
import { notice, tempDir } from '../../support/jobs/fakes';

/** The pipeline against the real sandbox, the real client and the real folder target. */
describe('PrintPipeline with the sandbox and a folder printer', () => {
  let sandbox: Sandbox;
  let client: ServiceClient;
  let tmp: ReturnType<typeof tempDir>;

  beforeAll(async () => {
    sandbox = await startSandbox();
    // The pipeline owns retries (backoff visible in the job's reason), so the client does not retry.
    client = new ServiceClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, retries: 0 });
    tmp = tempDir();
  });
  afterAll(async () => {
    await client.close();
    await sandbox.close();
    tmp.cleanup();
  });

  async function run(
    name: string,
    body: (ctx: { pipeline: PrintPipeline; ledger: Ledger; dir: string; changes: JobView[] }) => Promise<void>,
    extra: Partial<PrintPipelineOptions> = {},
  ): Promise<void> {
    const dir = path.join(tmp.dir, name, 'prints');
    const ledger = Ledger.open({ path: path.join(tmp.dir, name, 'ledger.sqlite') });
    const labels = new FolderTarget({ uri: `folder:${dir}`, dir });
    const docs = new FolderTarget({ uri: `folder:${dir}-a4`, dir: `${dir}-a4` });
    const changes: JobView[] = [];
    const pipeline = new PrintPipeline({
      ledger,
      fetcher: client,
      targetFor: (uri) => (uri === labels.uri ? labels : docs),
      route: (type) =>
        type === 'label' ? { target: labels.uri, layout: 'printer', media: 'label' } : { target: docs.uri, layout: 'a4', media: 'a4' },
      retryBaseMs: 50,
      retryMaxMs: 400,
      onJobChange: (job) => changes.push(job),
      ...extra,
    });
    try {
      await pipeline.start();
      await body({ pipeline, ledger, dir, changes });
    } finally {
      await pipeline.stop();
      ledger.close();
    }
  }

  it('prints each booked shipment once as a 4x6 label, whichever way and however often the booking arrives', async () => {
    await run('once', async ({ pipeline, ledger, dir }) => {
      const booked = await Promise.all(Array.from({ length: 6 }, () => sandbox.bookShipment({ source: 'API' })));
      for (const b of booked) {
        const n = notice(b.shipmentId, 'webhook', { referenceId: b.referenceId, trackingId: b.trackingId });
        pipeline.submitBooking(n);
        pipeline.submitBooking({ ...n, trigger: 'poll' });
        pipeline.submitBooking(n);
      }
      await pipeline.idle();
      const files = fs.readdirSync(dir).filter((f) => f.endsWith('.pdf'));
      expect(files).toHaveLength(6);
      for (const b of booked) expect(files.filter((f) => f.startsWith(`${b.shipmentId}_label_printer_`))).toHaveLength(1);
      const pdf = await PDFDocument.load(fs.readFileSync(path.join(dir, files[0]!)));
      const { width, height } = pdf.getPage(0).getSize();
      expect([Math.round(width), Math.round(height)]).toEqual([288, 432]);
      expect(ledger.counts()).toMatchObject({ completed: 6, failed: 0, queued: 0 });
      expect(ledger.search({ text: booked[0]!.referenceId })).toHaveLength(1);
    });
  });

  it('waits for a label that is not ready yet, saying so, then prints it once', async () => {
    sandbox.setFaults({ labelDelayMs: 600 });
    try {
      await run('not-ready', async ({ pipeline, ledger, dir, changes }) => {
        const b = await sandbox.bookShipment({ source: 'APP' });
        const [job] = pipeline.submitBooking(notice(b.shipmentId));
        await pipeline.idle();
        expect(fs.readdirSync(dir).filter((f) => f.startsWith(b.shipmentId))).toHaveLength(1);
        const waits = changes.filter((c) => c.id === job!.id && c.state === 'queued' && c.reason);
        expect(waits.length).toBeGreaterThan(0);
        expect(waits[0]!.reason).toMatch(/not ready yet; retrying in/);
        expect(waits[0]!.requestId).toBeTruthy();
        const done = ledger.get(job!.id)!;
        expect(done.state).toBe('completed');
        expect(done.attempts).toBeGreaterThan(1);
      });
    } finally {
      sandbox.setFaults({ labelDelayMs: 0 });
    }
  });

  // Review M8: customsinvoice switched into auto-print, an EU shipment has none.
  for (const [how, extra] of [
    ['from the service answer', {}],
    [
      "from the shipment's available_documents_types",
      { availableDocuments: async (id: string) => (await client.getShipment(id)).available_documents_types },
    ],
  ] as const) {
    it(`cancels (not fails) an auto-print document type the shipment does not have, told ${how}`, async () => {
      const b = await sandbox.bookShipment();
      expect((await client.getShipment(b.shipmentId)).available_documents_types).not.toContain('customsinvoice');
      await run(
        `no-invoice-${Object.keys(extra).length}`,
        async ({ pipeline, ledger, dir, changes }) => {
          const jobs = pipeline.submitBooking(notice(b.shipmentId));
          await pipeline.idle();
          const [label, invoice] = jobs.map((j) => ledger.get(j.id)!);
          expect(label).toMatchObject({ documentType: 'label', state: 'completed' });
          expect(invoice).toMatchObject({
            documentType: 'customsinvoice',
            state: 'canceled',
            reason: 'this shipment has no customsinvoice',
            attempts: 1,
          });
          expect(changes.some((c) => c.state === 'failed')).toBe(false);
          expect(ledger.counts()).toMatchObject({ failed: 0, completed: 1, canceled: 1 });
          expect(fs.readdirSync(dir).filter((f) => f.endsWith('.pdf'))).toHaveLength(1);
          // Asked for by a person, the same document is a failure that says why.
          const [byHand] = pipeline.reprint({ shipmentId: b.shipmentId, documentType: 'customsinvoice' });
          await pipeline.idle();
          expect(ledger.get(byHand!.id)).toMatchObject({ state: 'failed' });
          expect(ledger.get(byHand!.id)!.reason).toContain('customsinvoice');
        },
        {
          autoPrintTypes: () => ['label', 'customsinvoice'],
          fetcher: Object.assign({ printFile: (req: Parameters<ServiceClient['printFile']>[0]) => client.printFile(req) }, extra),
        },
      );
    });
  }

  it('fails a print of an unknown shipment with the service message and request id', async () => {
    await run('unknown', async ({ pipeline, ledger }) => {
      const [job] = pipeline.reprint({ shipmentId: 'does-not-exist' });
      await pipeline.idle();
      const failed = ledger.get(job!.id)!;
      expect(failed.state).toBe('failed');
      expect(failed.requestId).toMatch(/\S/);
      expect(failed.reason).toContain(failed.requestId!);
    });
  });

  it('prints every label once through a flaky service (503s, 429s, dropped connections)', async () => {
    const booked = await Promise.all(Array.from({ length: 20 }, () => sandbox.bookShipment()));
    sandbox.setFaults({ errorRate: 0.2, rateLimitRate: 0.1, retryAfterSeconds: 0, dropRate: 0.05 });
    try {
      await run('flaky', async ({ pipeline, ledger, dir }) => {
        for (const b of booked) pipeline.submitBooking(notice(b.shipmentId));
        await pipeline.idle();
        const files = fs.readdirSync(dir).filter((f) => f.endsWith('.pdf'));
        expect(files.map((f) => f.split('_label_')[0]).sort()).toEqual(booked.map((b) => b.shipmentId).sort());
        expect(ledger.counts().completed).toBe(20);
      });
    } finally {
      sandbox.setFaults({ errorRate: 0, rateLimitRate: 0, dropRate: 0 });
    }
  });

  it('prints through a service printer without fetching a PDF', async () => {
    const uri = 'service:5b3a2f0e-6f0c-4c5e-9a51-0d4c6f1e7a01';
    const target = createTarget(uri, { service: client });
    const ledger = Ledger.open({ path: path.join(tmp.dir, 'service', 'ledger.sqlite') });
    const fetches: string[] = [];
    const pipeline = new PrintPipeline({
      ledger,
      fetcher: { printFile: async (req) => (fetches.push(req.shipment_ids[0]!), client.printFile(req)) },
      targetFor: () => target,
      route: () => ({ target: uri, layout: 'printer', media: 'label' }),
    });
    try {
      await pipeline.start();
      const b = await sandbox.bookShipment();
      const [job] = pipeline.submitBooking(notice(b.shipmentId));
      pipeline.submitBooking(notice(b.shipmentId, 'poll'));
      await pipeline.idle();
      expect(ledger.get(job!.id)!.state).toBe('completed');
      expect(fetches).toEqual([]);
      expect(sandbox.printerJobs('5b3a2f0e-6f0c-4c5e-9a51-0d4c6f1e7a01').filter((j) => j.shipmentIds.includes(b.shipmentId))).toMatchObject(
        [{ documentType: 'label', layout: 'printer' }],
      );
    } finally {
      await pipeline.stop();
      ledger.close();
    }
  });
});
