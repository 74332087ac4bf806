import childProcess from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PrintError } from '../../../../src/main/printing/errors';
import type { SpoolRequest } from '../../../../src/main/printing/target';
import {
  packagedSumatraPdfPath,
  windowsPrintOptions,
  WindowsTarget,
  type PdfToPrinterModule,
  type WindowsPrintOptions,
} from '../../../../src/main/printing/windows/windows-target';

const pdf = new TextEncoder().encode('%PDF-1.7\n%%EOF\n');
function request(overrides: Partial<SpoolRequest> = {}): SpoolRequest {
  return {
    jobId: 'j1',
    title: 'ps j1',
    pdf,
    media: 'label',
    copies: 1,
    shipmentId: 's1',
    documentType: 'label',
    layout: 'printer',
    ...overrides,
  };
}

describe('windowsPrintOptions', () => {
  it('prints labels unscaled on explicit 4x6 paper and documents fitted to A4', () => {
    expect(windowsPrintOptions('ZDesigner ZD420', 'label', 1)).toEqual({
      printer: 'ZDesigner ZD420',
      scale: 'noscale',
      paperSize: '4x6',
      copies: 1,
      silent: true,
    });
    expect(windowsPrintOptions('HP LaserJet', 'a4', 2)).toEqual({
      printer: 'HP LaserJet',
      scale: 'fit',
      paperSize: 'A4',
      copies: 2,
      silent: true,
    });
    expect(windowsPrintOptions('Z', 'label', 1, { labelPaperSize: '4.00x6.00"', sumatraPdfPath: 'C:\\s.exe' })).toEqual({
      printer: 'Z',
      scale: 'noscale',
      paperSize: '4.00x6.00"',
      copies: 1,
      silent: true,
      sumatraPdfPath: 'C:\\s.exe',
    });
  });
});

describe('packagedSumatraPdfPath', () => {
  it('points into app.asar.unpacked in a packaged app', () => {
    const dir = 'C:\\Program Files\\Print Station\\resources\\app.asar\\node_modules\\pdf-to-printer\\dist';
    const seen: string[] = [];
    const result = packagedSumatraPdfPath(dir, (d) => {
      seen.push(d);
      return ['bundle.js', 'SumatraPDF-3.5.2-64.exe'];
    });
    expect(seen).toEqual(['C:\\Program Files\\Print Station\\resources\\app.asar.unpacked\\node_modules\\pdf-to-printer\\dist']);
    expect(result).toBe(
      'C:\\Program Files\\Print Station\\resources\\app.asar.unpacked\\node_modules\\pdf-to-printer\\dist\\SumatraPDF-3.5.2-64.exe',
    );
  });

  it('falls back to the shipped exe name, and leaves unpackaged or already-unpacked paths alone', () => {
    expect(
      packagedSumatraPdfPath('/opt/app/resources/app.asar/node_modules/pdf-to-printer/dist', () => {
        throw new Error('ENOENT');
      }),
    ).toBe('/opt/app/resources/app.asar.unpacked/node_modules/pdf-to-printer/dist/SumatraPDF-3.4.6-32.exe');
    expect(packagedSumatraPdfPath('/work/main/node_modules/pdf-to-printer/dist')).toBeUndefined();
    expect(packagedSumatraPdfPath('C:\\x\\resources\\app.asar.unpacked\\node_modules\\pdf-to-printer\\dist')).toBeUndefined();
  });
});

describe('WindowsTarget with an injected pdf-to-printer', () => {
  let tmp: string;
  beforeEach(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'ps-win-'));
  });
  afterEach(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  function fakeModule(
    calls: Array<{ file: string; options: WindowsPrintOptions | undefined; existed: boolean; bytes: Buffer | null }>,
    failWith?: Error,
  ): PdfToPrinterModule {
    return {
      print: async (file, options) => {
        const existed = existsSync(file);
        calls.push({ file, options, existed, bytes: existed ? await fs.readFile(file) : null });
        if (failWith) throw failWith;
      },
      getPrinters: async () => [{ deviceId: 'ZD420', name: 'ZDesigner ZD420 (Label)', paperSizes: ['4x6'] }],
    };
  }

  it('writes the PDF to a temp file, passes the exact options, then deletes the file', async () => {
    const calls: Parameters<typeof fakeModule>[0] = [];
    const target = new WindowsTarget({
      uri: 'windows:ZDesigner ZD420 (Label)',
      name: 'ZDesigner ZD420 (Label)',
      pdfToPrinter: fakeModule(calls),
      tempDir: tmp,
      sumatraPdfPath: 'C:\\app.asar.unpacked\\S.exe',
    });
    // Nothing more can be followed once SumatraPDF handed the job to Windows: it is done.
    expect(await target.spool(request({ copies: 3 }))).toEqual({ spoolerJobId: null, completed: true });
    await target.spool(request({ jobId: 'j2', media: 'a4', layout: 'a4', documentType: 'waybill' }));
    expect(calls.map((c) => c.options)).toEqual([
      {
        printer: 'ZDesigner ZD420 (Label)',
        scale: 'noscale',
        paperSize: '4x6',
        copies: 3,
        silent: true,
        sumatraPdfPath: 'C:\\app.asar.unpacked\\S.exe',
      },
      {
        printer: 'ZDesigner ZD420 (Label)',
        scale: 'fit',
        paperSize: 'A4',
        copies: 1,
        silent: true,
        sumatraPdfPath: 'C:\\app.asar.unpacked\\S.exe',
      },
    ]);
    for (const call of calls) {
      expect(call.existed).toBe(true);
      expect(Buffer.compare(call.bytes!, Buffer.from(pdf))).toBe(0);
      expect(path.dirname(call.file)).toBe(tmp);
    }
    expect(await fs.readdir(tmp)).toEqual([]);
    expect(target.reconcilable).toBe(false);
    expect(await target.findSpooled('j1')).toBeNull();
  });

  it('wraps a print failure as SPOOL_FAILED and still deletes the temp file', async () => {
    const calls: Parameters<typeof fakeModule>[0] = [];
    const target = new WindowsTarget({
      uri: 'windows:X',
      name: 'X',
      pdfToPrinter: fakeModule(calls, new Error('Printer offline')),
      tempDir: tmp,
    });
    const error = await target.spool(request()).catch((e: unknown) => e);
    expect((error as PrintError).code).toBe('SPOOL_FAILED');
    expect((error as PrintError).message).toContain('Printer offline');
    expect(await fs.readdir(tmp)).toEqual([]);
  });

  it('gives up on a print that never settles as "may have printed", and removes the file once SumatraPDF lets go', async () => {
    let release: () => void = () => undefined;
    const hung: PdfToPrinterModule = {
      print: () => new Promise<void>((resolve) => (release = resolve)),
      getPrinters: async () => [],
    };
    const target = new WindowsTarget({ uri: 'windows:X', name: 'X', pdfToPrinter: hung, tempDir: tmp, timeoutMs: 50 });
    const error = await target.spool(request()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PrintError);
    expect((error as PrintError).code).toBe('PRINT_MAY_HAVE_PRINTED');
    expect((error as PrintError).retryable).toBe(false);
    expect((error as PrintError).message).toContain('may have printed: check the printer, then retry by hand');
    expect(await fs.readdir(tmp)).toHaveLength(1); // SumatraPDF may still be reading it
    release();
    await new Promise((r) => setTimeout(r, 20));
    expect(await fs.readdir(tmp)).toEqual([]);
  });

  it('is ready only when Windows lists the printer under its exact name', async () => {
    const module = fakeModule([]);
    expect(
      await new WindowsTarget({
        uri: 'windows:ZDesigner ZD420 (Label)',
        name: 'ZDesigner ZD420 (Label)',
        pdfToPrinter: module,
      }).readiness(),
    ).toEqual({ ready: true, detail: null });
    const missing = await new WindowsTarget({ uri: 'windows:ZDesigner ZD420', name: 'ZDesigner ZD420', pdfToPrinter: module }).readiness();
    expect(missing.ready).toBe(false);
    expect(missing.detail).toContain('"ZDesigner ZD420" does not exist');
  });
});

// The real pdf-to-printer, with only what cannot run here replaced: the platform check
// and the SumatraPDF process. This pins the SumatraPDF command line our options produce.
describe('SumatraPDF command line through the real pdf-to-printer', () => {
  const require = createRequire(import.meta.url);
  const calls: Array<{ file: string; args: string[] }> = [];
  const originalExecFile = childProcess.execFile;
  const originalPlatform = os.platform;
  let realModule: PdfToPrinterModule;
  let tmp: string;

  beforeAll(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'ps-sumatra-'));
    (childProcess as { execFile: unknown }).execFile = (
      file: string,
      args: string[],
      cb: (e: Error | null, out: { stdout: string; stderr: string }) => void,
    ) => {
      calls.push({ file, args });
      cb(null, { stdout: '', stderr: '' });
    };
    (os as { platform: unknown }).platform = () => 'win32';
    delete require.cache[require.resolve('pdf-to-printer')];
    realModule = require('pdf-to-printer') as PdfToPrinterModule;
  });

  afterAll(async () => {
    (childProcess as { execFile: unknown }).execFile = originalExecFile;
    (os as { platform: unknown }).platform = originalPlatform;
    delete require.cache[require.resolve('pdf-to-printer')];
    await fs.rm(tmp, { recursive: true, force: true });
  });

  it('runs SumatraPDF with -print-to NAME -silent -print-settings noscale,paper=4x6 for labels and fit,paper=A4 for documents', async () => {
    const sumatra = 'C:\\PS\\resources\\app.asar.unpacked\\node_modules\\pdf-to-printer\\dist\\SumatraPDF-3.4.6-32.exe';
    const target = new WindowsTarget({
      uri: 'windows:Zebra ZD420 (Bench 2)',
      name: 'Zebra ZD420 (Bench 2)',
      pdfToPrinter: realModule,
      tempDir: tmp,
      sumatraPdfPath: sumatra,
    });
    await target.spool(request({ copies: 2 }));
    await target.spool(request({ jobId: 'j2', media: 'a4', layout: 'a4', documentType: 'waybill' }));
    expect(calls).toHaveLength(2);
    expect(calls[0]!.file).toBe(sumatra);
    expect(calls[0]!.args.slice(0, -1)).toEqual([
      '-print-to',
      'Zebra ZD420 (Bench 2)',
      '-silent',
      '-print-settings',
      'noscale,paper=4x6,2x',
    ]);
    expect(calls[1]!.args.slice(0, -1)).toEqual(['-print-to', 'Zebra ZD420 (Bench 2)', '-silent', '-print-settings', 'fit,paper=A4,1x']);
    for (const call of calls) expect(path.dirname(call.args.at(-1)!)).toBe(tmp);
  });
});
