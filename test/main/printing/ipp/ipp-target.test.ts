import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTarget } from '../../../../src/main/printing/create-target';
import { PRINT_ERROR_CODES, PrintError } from '../../../../src/main/printing/errors';
import { TAG, baseAttrs, decodeIppResponse, encodeIppRequest, ippUriRef, type Value } from '../../../../src/main/printing/ipp/ipp';
import type { IppCollection } from '../../../../src/main/printing/ipp/ipp-codec';
import { ippPost } from '../../../../src/main/printing/ipp/ipp-connection';
import { ippPrintJobAt } from '../../../../src/main/printing/ipp/ipp-print';
import { IppTarget } from '../../../../src/main/printing/ipp/ipp-target';
import { checkPrintersAtStart } from '../../../../src/main/printing/startup-check';
import type { SpoolRequest } from '../../../../src/main/printing/target';
import { labelSpoolRequest } from '../../../support/cups';
import { startIppEvePrinter, type IppEvePrinter } from '../../../support/ippeveprinter';
import { startIppProxy } from '../../../support/ipp-proxy';

/** What the printer itself recorded for a job (Get-Job-Attributes, all). */
async function jobAttrs(eve: IppEvePrinter, id: string): Promise<Map<string, Value[]>> {
  const body = encodeIppRequest(0x0009, 1, [
    ...baseAttrs(),
    { tag: TAG.uri, name: 'printer-uri', values: [eve.uri] },
    { tag: TAG.integer, name: 'job-id', values: [Number(id)] },
    { tag: TAG.keyword, name: 'requested-attributes', values: ['all'] },
  ]);
  const res = decodeIppResponse(await ippPost(eve.host, '/ipp/print', body));
  return res.groups.find((g) => g.tag === TAG.job)!.attrs;
}

describe('ipp:// printers: an IPP Everywhere printer (ippeveprinter) addressed directly', () => {
  let eve: IppEvePrinter;
  let pdf: Uint8Array;
  const started: IppEvePrinter[] = [];

  beforeAll(async () => {
    // A label printer that also has an A4 tray, for the sheet.
    eve = await startIppEvePrinter({ printSeconds: 0.5, media: ['na_index-4x6_4x6in', 'oe_4x6-label_4x6in', 'iso_a4_210x297mm'] });
    started.push(eve);
    const doc = await PDFDocument.create();
    doc.addPage([288, 432]);
    pdf = await doc.save();
  });
  afterAll(async () => {
    for (const printer of started) await printer.stop();
  });

  const target = (printer: IppEvePrinter = eve) => createTarget(printer.uri) as IppTarget;
  const label = (): SpoolRequest => labelSpoolRequest('ipp', pdf);

  it('prints a label at its exact size with zero margins and no scaling, and a sheet fitted to A4', async () => {
    const t = target();
    expect(t).toBeInstanceOf(IppTarget);
    const labelJob = (await t.spool(label())).spoolerJobId!;
    const sheetJob = (await t.spool({ ...label(), media: 'a4', layout: 'a4', documentType: 'waybill' })).spoolerJobId!;

    const asked = await jobAttrs(eve, labelJob);
    const col = asked.get('media-col')![0] as IppCollection;
    expect(Object.fromEntries(col.get('media-size')![0] as IppCollection)).toEqual({ 'x-dimension': [10160], 'y-dimension': [15240] });
    for (const side of ['bottom', 'left', 'right', 'top']) expect(col.get(`media-${side}-margin`), side).toEqual([0]);
    expect(asked.get('print-scaling')).toEqual(['none']);

    const sheet = await jobAttrs(eve, sheetJob);
    const sheetCol = sheet.get('media-col')![0] as IppCollection;
    expect(Object.fromEntries(sheetCol.get('media-size')![0] as IppCollection)).toEqual({ 'x-dimension': [21000], 'y-dimension': [29700] });
    expect(sheet.get('print-scaling')).toEqual(['fit']);
  });

  it("prints over ipps:// (TLS), accepting the printer's self-signed certificate", async () => {
    const uri = eve.uri.replace(/^ipp:/, 'ipps:');
    expect(ippUriRef(uri)!.server).toBe(`https://localhost:${eve.port}`);
    const t = createTarget(uri);
    expect(await t.readiness('label')).toEqual({ ready: true, detail: null });
    const id = (await t.spool(label())).spoolerJobId!;
    await expect.poll(() => t.jobState(id), { timeout: 15_000 }).toBe('completed');
    // ippeveprinter names each document after its job id.
    expect((await eve.outputs()).filter((file) => file.split('/').at(-1)!.startsWith(`${id}-`))).toHaveLength(1);
  });

  it('calls a job completed only when the printer says so', async () => {
    const t = target();
    await eve.setPrintSeconds(1.5);
    const id = (await t.spool(label())).spoolerJobId!;
    expect(['pending', 'printing']).toContain(await t.jobState(id));
    await expect.poll(() => t.jobState(id), { timeout: 15_000 }).toBe('completed');
    await eve.setPrintSeconds(0.5);
    // The printer's job list has it, by the title that carries the ledger job id.
    const request = label();
    const again = (await t.spool(request)).spoolerJobId!;
    expect(await t.findSpooled(request.jobId)).toEqual({ spoolerJobId: again, state: expect.stringMatching(/pending|printing|completed/) });
    expect(await t.findSpooled('no-such-job')).toBeNull();
  });

  it('says a printer killed mid-job lost the job (may have printed), and is not ready until it answers again', async () => {
    const printer = await startIppEvePrinter({ printSeconds: 5 });
    started.push(printer);
    const t = target(printer);
    const id = (await t.spool(label())).spoolerJobId!;
    await expect.poll(() => printer.printing(), { timeout: 10_000 }).toBe(true);
    await printer.kill();

    const down = await t.readiness();
    expect(down.ready).toBe(false);
    expect(down.detail).toMatch(
      new RegExp(`^The printer ${printer.uri.replace(/[/.]/g, '\\$&')} cannot be reached \\(ECONNREFUSED\\): check that it is on`),
    );
    const error = await t.spool(label()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PrintError);
    expect((error as PrintError).code).toBe(PRINT_ERROR_CODES.PRINTER_OFFLINE);
    expect((error as PrintError).printerDown).toBe(true);
    // While it is down the job cannot be asked about: not an answer, an error (asked again later).
    await expect(t.jobStates([id])).rejects.toThrow(PrintError);

    await printer.restart();
    expect(await t.readiness()).toEqual({ ready: true, detail: null });
    expect(await t.jobState(id)).toBe('lost');
    expect(await printer.outputs()).toEqual([]);
  });

  it('shows the printer state reasons in words (media empty, cover open, paused), and clears them', async () => {
    const printer = await startIppEvePrinter({ printSeconds: 0.1 });
    started.push(printer);
    const t = target(printer);
    // ippeveprinter takes the keywords its print command reports and says them as `-report`.
    await printer.setStateReasons(['+media-empty', '+cover-open', '+paused', '+marker-supply-low']);
    await t.spool(label());
    await expect.poll(async () => (await t.readiness()).ready, { timeout: 10_000 }).toBe(false);
    const { detail } = await t.readiness();
    expect(detail).toContain('out of paper (media empty): load labels');
    expect(detail).toContain('the cover or print head is open: close it');
    expect(detail).toContain('paused: resume the printer');
    expect(detail).not.toContain('marker');
    // Reads as a sentence whichever reason comes first ("… is the cover … is open" did not).
    expect(detail).toMatch(/^The printer \S+ reports: /);
    const refused = (await t.spool(label()).catch((e: unknown) => e)) as PrintError;
    expect(refused.code).toBe(PRINT_ERROR_CODES.PRINTER_OFFLINE);

    // Cleared by the printer (the next job's report), it is ready; a low ribbon is said, not blocking.
    await printer.setStateReasons(['-media-empty', '-cover-open', '-paused']);
    await ippPrintJobAt(ippUriRef(printer.uri)!, { name: 'clear', pdf, copies: 1, media: 'oe_4x6-label_4x6in', printScaling: 'none' });
    await expect.poll(async () => (await t.readiness()).ready, { timeout: 10_000 }).toBe(true);
    expect((await t.readiness()).detail).toMatch(/ribbon or ink is low \(marker supply low\)/);
  });

  it('warns at start about a printer without 4x6 media or without PDF, with what it offers; a wrong path stops the start', async () => {
    const a4 = await startIppEvePrinter({ media: ['iso_a4_210x297mm'] });
    const noPdf = await startIppEvePrinter({ pdf: false });
    started.push(a4, noPdf);
    const lines: string[] = [];
    await checkPrintersAtStart(
      [a4.uri, noPdf.uri, eve.uri],
      {},
      (line) => lines.push(line),
      () => 'label',
    );
    expect(lines).toEqual([
      `printer ${a4.uri}: The printer ${a4.uri} does not list 4x6 in labels in the media it supports (it offers: iso_a4_210x297mm): load and configure 4x6 in labels on the printer, or route them to another printer.`,
      expect.stringMatching(
        new RegExp(
          `^printer ${noPdf.uri.replace(/[/.]/g, '\\$&')}: The printer .* does not take PDF \\(it takes: image/pwg-raster, image/urf, application/octet-stream\\)`,
        ),
      ),
    ]);
    expect((await target(a4).readiness('label')).ready).toBe(false);
    expect((await target(a4).readiness('a4')).ready).toBe(true);
    await expect(checkPrintersAtStart([`ipp://localhost:${eve.port}/ipp/nothing-here`], {}, () => undefined)).rejects.toThrow(
      /no printer at that path|answered HTTP/,
    );
  });

  it('waits on a printer that answers busy (one job at a time) instead of failing the label', async () => {
    const proxy = await startIppProxy(`127.0.0.1:${eve.port}`);
    let busy = 2;
    proxy.decide = (r) => (r.operation === 0x0002 && busy-- > 0 ? { ipp: 0x0507, message: 'busy' } : 'pass');
    try {
      const ref = ippUriRef(`ipp://${proxy.server}/ipp/print`)!;
      const t = new IppTarget({
        uri: `ipp://${proxy.server}/ipp/print`,
        ref: { ...ref, printerUri: eve.uri },
        sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.min(ms, 20))),
      });
      const id = (await t.spool(label())).spoolerJobId;
      expect(id).toMatch(/^\d+$/);
      // Two busy answers from the proxy, then the printer's own (ippeveprinter also answers
      // busy while it prints an earlier job): asked again until it took the job.
      expect(proxy.requests.filter((r) => r.operation === 0x0002).length).toBeGreaterThanOrEqual(3);
      busy = 1_000;
      const waited = new IppTarget({
        uri: `ipp://${proxy.server}/ipp/print`,
        ref: { ...ref, printerUri: eve.uri },
        sleep: async () => undefined,
        busyWaitMs: 0,
      });
      const error = (await waited.spool(label()).catch((e: unknown) => e)) as PrintError;
      expect(error.code).toBe(PRINT_ERROR_CODES.PRINTER_OFFLINE);
      expect(error.printerDown).toBe(true);
    } finally {
      await proxy.close();
    }
  });
});
