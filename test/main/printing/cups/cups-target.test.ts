import { promises as fs } from 'node:fs';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CupsTarget } from '../../../../src/main/printing/cups/cups-target';
import { ippGetJobs } from '../../../../src/main/printing/ipp/ipp';
import { PrintError } from '../../../../src/main/printing/errors';
import type { SpoolRequest, SpoolerJobState } from '../../../../src/main/printing/target';
import type { PrinterMedia } from '../../../../src/shared/domain';
import { pdfPageSizes, startPrivateCups, type PrivateCups } from '../../../support/cups';

async function makePdf(width: number, height: number, text: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([width, height]);
  page.drawText(text, { x: 10, y: height - 30, size: 12, font: await doc.embedFont(StandardFonts.Helvetica) });
  return doc.save();
}

let seq = 0;
function request(pdf: Uint8Array, media: PrinterMedia, overrides: Partial<SpoolRequest> = {}): SpoolRequest {
  const jobId = overrides.jobId ?? `job${Date.now().toString(36)}x${++seq}`;
  return {
    jobId,
    title: `ps ${jobId} SHP-${seq}`,
    pdf,
    media,
    copies: 1,
    shipmentId: `SHP-${seq}`,
    documentType: media === 'label' ? 'label' : 'waybill',
    layout: media === 'label' ? 'printer' : 'a4',
    ...overrides,
  };
}

async function waitForState(target: CupsTarget, id: string, wanted: SpoolerJobState, timeoutMs = 20_000): Promise<SpoolerJobState[]> {
  const seen: SpoolerJobState[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = await target.jobState(id);
    if (seen.at(-1) !== state) seen.push(state);
    if (state === wanted) return seen;
    if (Date.now() > deadline) throw new Error(`job ${id} stuck in ${state}, wanted ${wanted}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// Both ways a job reaches the scheduler behave alike: IPP Print-Job (the default) and lp.
describe.each(['ipp', 'lp'] as const)('spool %s', (spool) => {
  describe('CupsTarget on a private cupsd', () => {
    let cups: PrivateCups;
    let label: Uint8Array;
    let a4: Uint8Array;
    let letter: Uint8Array;

    beforeAll(async () => {
      cups = await startPrivateCups({
        queues: [
          { name: 'labels', kind: 'pdf' },
          { name: 'office', kind: 'pdf' },
          { name: 'sink', kind: 'sink' },
          { name: 'Zebra_Bench_1', kind: 'sink', description: 'Zebra Bench 1' },
          { name: 'odd$(touch_x);&|*', kind: 'sink' },
          { name: 'paused', kind: 'sink' },
          { name: 'closed', kind: 'sink' },
          { name: 'ordered', kind: 'sink' },
          { name: 'broken', kind: 'sink' },
        ],
      });
      label = await makePdf(288, 432, 'LABEL');
      a4 = await makePdf(595, 842, 'A4 DOC');
      letter = await makePdf(612, 792, 'LETTER DOC');
    });

    afterAll(async () => {
      await cups?.stop();
    });

    const target = (queue: string, extra: Partial<ConstructorParameters<typeof CupsTarget>[0]> = {}) =>
      new CupsTarget({ spool, uri: `cups:${queue}`, queue, env: cups.env, ...extra });

    it('prints a 4x6 label as 288 x 432 pt through cups-pdf and follows it to completed', async () => {
      const t = target('labels');
      const req = request(label, 'label');
      const result = await t.spool(req);
      expect(result.completed).toBe(false);
      expect(result.spoolerJobId).toMatch(/^labels-\d+$/);
      const states = await waitForState(t, result.spoolerJobId!, 'completed');
      expect(states.at(-1)).toBe('completed');
      const files = await cups.outputs('labels');
      const mine = files.filter((f) => f.includes(req.jobId));
      expect(mine).toHaveLength(1);
      expect(await pdfPageSizes(mine[0]!)).toEqual([{ width: 288, height: 432 }]);
    });

    it('prints an A4 document as 595 x 842 pt, and fits a Letter page onto A4', async () => {
      const t = target('office');
      const reqA4 = request(a4, 'a4');
      const reqLetter = request(letter, 'a4');
      const r1 = await t.spool(reqA4);
      const r2 = await t.spool(reqLetter);
      await waitForState(t, r1.spoolerJobId!, 'completed');
      await waitForState(t, r2.spoolerJobId!, 'completed');
      const files = await cups.outputs('office');
      for (const req of [reqA4, reqLetter]) {
        const file = files.find((f) => f.includes(req.jobId));
        expect(file, req.jobId).toBeDefined();
        expect(await pdfPageSizes(file!)).toEqual([{ width: 595, height: 842 }]);
      }
    });

    it('passes the PDF byte-exact to a raw queue, with the job id in the title and copies honoured', async () => {
      const t = target('sink');
      const req = request(label, 'label', { copies: 2 });
      const result = await t.spool(req);
      await waitForState(t, result.spoolerJobId!, 'completed');
      const files = (await cups.outputs('sink')).filter((f) => f.includes(req.jobId));
      expect(files).toHaveLength(2);
      for (const f of files) expect(Buffer.compare(await fs.readFile(f), Buffer.from(label))).toBe(0);
    });

    it('resolves a printer name with spaces to its queue (CUPS queue names cannot hold spaces)', async () => {
      const t = new CupsTarget({ spool, uri: 'cups:Zebra Bench 1', queue: 'Zebra Bench 1', env: cups.env });
      expect(await t.readiness()).toEqual({ ready: true, detail: null });
      const req = request(label, 'label');
      const result = await t.spool(req);
      expect(result.spoolerJobId).toMatch(/^Zebra_Bench_1-\d+$/);
      await waitForState(t, result.spoolerJobId!, 'completed');
      expect((await cups.outputs('Zebra_Bench_1')).some((f) => f.includes(req.jobId))).toBe(true);
      expect(await t.findSpooled(req.jobId)).toEqual({ spoolerJobId: result.spoolerJobId, state: 'completed' });
    });

    it('passes shell metacharacters in queue names and titles through untouched (no shell)', async () => {
      const queue = 'odd$(touch_x);&|*';
      const t = target(queue);
      const req = request(label, 'label', { jobId: 'j-meta-1', title: `ps j-meta-1 "quoted" $(whoami) ; rm -rf x` });
      const result = await t.spool(req);
      await waitForState(t, result.spoolerJobId!, 'completed');
      expect(await cups.outputs(queue)).toHaveLength(1);
      const found = await t.findSpooled('j-meta-1');
      expect(found?.spoolerJobId).toBe(result.spoolerJobId);
    });

    it('fails a disabled queue with PRINTER_DISABLED, then prints once after cupsenable', async () => {
      const t = target('paused');
      await cups.disable('paused', 'Media empty');
      const readiness = await t.readiness();
      expect(readiness.ready).toBe(false);
      expect(readiness.detail).toContain("cupsenable 'paused'");
      const req = request(label, 'label');
      const error = await t.spool(req).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PrintError);
      expect((error as PrintError).code).toBe('PRINTER_DISABLED');
      expect((error as PrintError).retryable).toBe(true);
      expect((error as PrintError).message).toContain('Media empty');
      expect(await t.findSpooled(req.jobId)).toBeNull();

      await cups.enable('paused');
      const result = await t.spool(req);
      await waitForState(t, result.spoolerJobId!, 'completed');
      const files = await cups.outputs('paused');
      expect(files.filter((f) => f.includes(req.jobId))).toHaveLength(1);
    });

    it('fails a rejecting queue with PRINTER_REJECTING, with and without the readiness check', async () => {
      await cups.reject('closed', 'Maintenance');
      for (const checkReadiness of [true, false]) {
        const t = target('closed', { checkReadiness });
        const error = await t.spool(request(label, 'label')).catch((e: unknown) => e);
        expect((error as PrintError).code).toBe('PRINTER_REJECTING');
        expect((error as PrintError).message).toContain("cupsaccept 'closed'");
      }
      await cups.accept('closed');
      const t = target('closed');
      expect(await t.readiness()).toEqual({ ready: true, detail: null });
      const result = await t.spool(request(label, 'label'));
      await waitForState(t, result.spoolerJobId!, 'completed');
      expect(await cups.outputs('closed')).toHaveLength(1);
    });

    it('reports a missing queue as PRINTER_NOT_FOUND and an unreachable scheduler as SPOOLER_UNAVAILABLE', async () => {
      const missing = await target('no_such_queue')
        .spool(request(label, 'label'))
        .catch((e: unknown) => e);
      expect((missing as PrintError).code).toBe('PRINTER_NOT_FOUND');
      expect((missing as PrintError).retryable).toBe(false);
      const spaced = await new CupsTarget({ spool, uri: 'cups:No Such Printer', queue: 'No Such Printer', env: cups.env }).readiness();
      expect(spaced.ready).toBe(false);
      expect(spaced.detail).toContain('cannot contain spaces');

      const down = new CupsTarget({ spool, uri: 'cups:sink@127.0.0.1:1', queue: 'sink', server: '127.0.0.1:1', env: cups.env });
      const error = await down.spool(request(label, 'label')).catch((e: unknown) => e);
      expect((error as PrintError).code).toBe('SPOOLER_UNAVAILABLE');
      expect((error as PrintError).retryable).toBe(true);
    });

    it('addresses a scheduler by cups:QUEUE@HOST:PORT without CUPS_SERVER', async () => {
      const { CUPS_SERVER: _ignored, ...envWithout } = cups.env;
      const t = new CupsTarget({
        spool,
        uri: `cups:sink@${cups.server}`,
        queue: 'sink',
        server: cups.server,
        env: { ...envWithout, CUPS_SERVER: '127.0.0.1:1' },
      });
      const req = request(label, 'label');
      const result = await t.spool(req);
      await waitForState(t, result.spoolerJobId!, 'completed');
      expect(await t.findSpooled(req.jobId)).toEqual({ spoolerJobId: result.spoolerJobId, state: 'completed' });
    });

    it('findSpooled sees a job that is still pending, and nothing for an unknown job id', async () => {
      const t = target('paused', { checkReadiness: false });
      await cups.disable('paused');
      try {
        const req = request(label, 'label');
        const result = await t.spool(req);
        expect(await t.jobState(result.spoolerJobId!)).toBe('pending');
        expect(await t.findSpooled(req.jobId)).toEqual({ spoolerJobId: result.spoolerJobId, state: 'pending' });
        expect(await t.findSpooled('never-spooled-id')).toBeNull();
        expect(await t.jobState('paused-999999')).toBe('unknown');
      } finally {
        await cups.enable('paused');
        await cups.waitForJobs({ queue: 'paused' });
      }
    });

    it('keeps 50 labels spooled one after another in order', async () => {
      const t = target('ordered');
      const ids: string[] = [];
      for (let i = 0; i < 50; i++) {
        const req = request(label, 'label', { jobId: `ord-${String(i).padStart(2, '0')}` });
        await t.spool(req);
        ids.push(req.jobId);
      }
      const files = await cups.waitForOutputs('ordered', 50);
      await cups.waitForJobs({ queue: 'ordered' });
      expect(files.map((f) => /ord-\d\d/.exec(f)?.[0])).toEqual(ids);
    });

    it('follows a job whose backend fails to aborted', async () => {
      await fs.rm(cups.outputDir('broken'), { recursive: true });
      const t = target('broken');
      const result = await t.spool(request(label, 'label'));
      const states = await waitForState(t, result.spoolerJobId!, 'aborted');
      expect(states.at(-1)).toBe('aborted');
    });
  });

  describe('CupsTarget under CUPS default job privacy', () => {
    it('still finds its own jobs by title: job names are shown to their owner', async () => {
      const cups = await startPrivateCups({ queues: [{ name: 'q', kind: 'sink' }], jobPrivacy: 'default' });
      try {
        const t = new CupsTarget({ spool, uri: 'cups:q', queue: 'q', env: cups.env });
        const req = request(await makePdf(288, 432, 'L'), 'label', { jobId: 'private-1', title: 'ps private-1' });
        const result = await t.spool(req);
        await waitForState(t, result.spoolerJobId!, 'completed');
        expect(await t.findSpooled('private-1')).toEqual({ spoolerJobId: result.spoolerJobId, state: 'completed' });
        const asSomeoneElse = await ippGetJobs({ server: cups.server, user: 'nobody' }, 'q');
        expect(asSomeoneElse.map((j) => j.name)).toEqual(['']);
      } finally {
        await cups.stop();
      }
    });
  });
});
