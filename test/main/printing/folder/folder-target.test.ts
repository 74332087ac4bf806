import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTarget } from '../../../../src/main/printing/create-target';
import { PrintError } from '../../../../src/main/printing/errors';
import { FolderTarget, folderFileName, type FolderFs } from '../../../../src/main/printing/folder/folder-target';
import type { SpoolRequest } from '../../../../src/main/printing/target';

const pdf = new TextEncoder().encode('%PDF-1.7\n' + 'x'.repeat(200_000) + '\n%%EOF\n');

function request(overrides: Partial<SpoolRequest> = {}): SpoolRequest {
  return {
    jobId: 'j_01HXYZ',
    title: 'ps j_01HXYZ',
    pdf,
    media: 'label',
    copies: 1,
    shipmentId: 'shp-42',
    documentType: 'label',
    layout: 'printer',
    ...overrides,
  };
}

function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: simulated`), { code });
}

describe('FolderTarget', () => {
  let tmp: string;
  beforeEach(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'ps-folder-'));
  });
  afterEach(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  it('creates the folder and writes <shipment>_<type>_<layout>_<job>.pdf with the exact bytes', async () => {
    const dir = path.join(tmp, 'nested', 'prints');
    const target = new FolderTarget({ uri: `folder:${dir}`, dir });
    const result = await target.spool(request());
    expect(result).toEqual({ spoolerJobId: path.join(dir, 'shp-42_label_printer_j_01HXYZ.pdf'), completed: true });
    expect(Buffer.compare(await fs.readFile(result.spoolerJobId!), Buffer.from(pdf))).toBe(0);
    expect(await fs.readdir(dir)).toEqual(['shp-42_label_printer_j_01HXYZ.pdf']);
    expect(await target.jobState(result.spoolerJobId!)).toBe('completed');
    expect(await target.jobState(path.join(dir, 'gone.pdf'))).toBe('unknown');
  });

  it('keeps what it saves private by default (0600 files, 0700 folders it creates), readable by others with ?shared', async () => {
    const mode = async (p: string): Promise<number> => (await fs.stat(p)).mode & 0o777;
    const own = path.join(tmp, 'private', 'prints');
    const saved = (await new FolderTarget({ uri: `folder:${own}`, dir: own }).spool(request())).spoolerJobId!;
    expect(await mode(saved)).toBe(0o600);
    expect(await mode(own)).toBe(0o700);
    expect(await mode(path.dirname(own))).toBe(0o700);

    const hot = path.join(tmp, 'hot');
    const target = createTarget(`folder:${hot}?shared`, { platform: 'linux' }) as FolderTarget;
    expect(target.dir).toBe(hot);
    const shared = (await target.spool(request())).spoolerJobId!;
    expect(await mode(shared)).toBe(0o644);
    expect(await mode(hot)).toBe(0o755);
  });

  it('keeps file names safe when ids contain separators', () => {
    expect(folderFileName({ shipmentId: '../x/y', documentType: 'customs invoice', layout: '2x2', jobId: 'a:b' })).toBe(
      '..-x-y_customs-invoice_2x2_a-b.pdf',
    );
  });

  it("names the file by the shipment's reference too, so a person finds an order's label", () => {
    const named = (reference: string | null) =>
      folderFileName({ shipmentId: 'shp-42', reference, documentType: 'label', layout: 'printer', jobId: 'j1' });
    expect(named('DEMO-0001')).toBe('shp-42_label_printer_DEMO-0001_j1.pdf');
    // Its own separators and path characters cannot shift the fields or leave the folder; a long one is cut.
    expect(named('A_B/../C')).toBe('shp-42_label_printer_A-B-..-C_j1.pdf');
    expect(named('R'.repeat(300))).toBe(`shp-42_label_printer_${'R'.repeat(40)}_j1.pdf`);
    expect(named(null)).toBe('shp-42_label_printer_j1.pdf');
    expect(named('')).toBe('shp-42_label_printer_j1.pdf');
  });

  it('never shows a half-written file: only the temp name exists until the rename', async () => {
    const seen: string[][] = [];
    const spyFs: FolderFs = {
      ...fs,
      rename: async (from, to) => {
        seen.push(await fs.readdir(tmp));
        expect(path.basename(String(from)).startsWith('.')).toBe(true);
        expect((await fs.stat(from)).size).toBe(pdf.byteLength);
        return fs.rename(from, to);
      },
    };
    const target = new FolderTarget({ uri: `folder:${tmp}`, dir: tmp, fs: spyFs });
    await target.spool(request());
    expect(seen).toHaveLength(1);
    expect(seen[0]!.every((n) => n.startsWith('.') && n.endsWith('.tmp'))).toBe(true);
    expect(await fs.readdir(tmp)).toEqual(['shp-42_label_printer_j_01HXYZ.pdf']);
  });

  it('maps ENOSPC to DISK_FULL and removes the temp file', async () => {
    const fullFs: FolderFs = {
      ...fs,
      open: (async (file: string, flags: string, mode: number) => {
        const handle = await fs.open(file, flags, mode);
        return {
          writeFile: async () => {
            throw errno('ENOSPC');
          },
          sync: () => handle.sync(),
          close: () => handle.close(),
        };
      }) as unknown as FolderFs['open'],
    };
    const target = new FolderTarget({ uri: `folder:${tmp}`, dir: tmp, fs: fullFs });
    const error = await target.spool(request()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PrintError);
    expect((error as PrintError).code).toBe('DISK_FULL');
    expect((error as PrintError).retryable).toBe(false);
    expect((error as PrintError).message).toMatch(/full: free some space/);
    expect(await fs.readdir(tmp)).toEqual([]);
    expect(await target.findSpooled('j_01HXYZ')).toBeNull();
  });

  it('is not ready while its disk has less free space than it needs: the minimum, then room for twice a save that failed for lack of it', async () => {
    let free = 10 * 1024 * 1024;
    let full = false;
    const statFs: FolderFs = {
      ...fs,
      statfs: (async () => ({ bavail: free / 4096, bsize: 4096 })) as unknown as FolderFs['statfs'],
      open: (async (file: string, flags: string, mode: number) => {
        const handle = await fs.open(file, flags, mode);
        return {
          writeFile: async (data: Uint8Array) => {
            if (full && data.byteLength > 1000) throw errno('ENOSPC');
            return handle.writeFile(data);
          },
          sync: () => handle.sync(),
          close: () => handle.close(),
        };
      }) as unknown as FolderFs['open'],
    };
    const target = new FolderTarget({ uri: `folder:${tmp}`, dir: tmp, fs: statFs, minFreeBytes: 100 * 1024 });
    expect(await target.readiness()).toEqual({ ready: true, detail: null });
    free = 50 * 1024;
    expect(await target.readiness()).toMatchObject({
      ready: false,
      detail: `The disk holding ${tmp} is full: free some space or choose another folder.`,
    });
    free = 150 * 1024;
    full = true; // the PDF (200 kB) does not fit although the minimum is free
    const error = await target.spool(request()).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'DISK_FULL', printerDown: true });
    free = 2 * pdf.byteLength - 4096;
    expect((await target.readiness()).ready).toBe(false);
    free = 2 * pdf.byteLength + 4096;
    full = false;
    expect(await target.readiness()).toEqual({ ready: true, detail: null });
    await target.spool(request());
    free = 150 * 1024; // a save went through: back to the minimum
    expect(await target.readiness()).toEqual({ ready: true, detail: null });
    expect((await fs.readdir(tmp)).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it('takes an I/O error or a folder that vanished while saving for a printer that is down, saying what to do', async () => {
    for (const code of ['EIO', 'ENOENT']) {
      const brokenFs: FolderFs = {
        ...fs,
        open: async () => {
          throw errno(code);
        },
      };
      const target = new FolderTarget({ uri: `folder:${tmp}`, dir: tmp, fs: brokenFs });
      const error = (await target.spool(request()).catch((e: unknown) => e)) as PrintError;
      expect(error).toMatchObject({ code: 'SPOOL_FAILED', printerDown: true });
      expect(error.message).toMatch(
        new RegExp(`cannot reach .*\\(${code}\\).*gone or not answering\\. Reconnect it or choose another folder\\.$`),
      );
      // Readiness writes a file for real, so it sees the same failure.
      expect(await target.readiness()).toMatchObject({ ready: false });
    }
  });

  it('maps EACCES to PERMISSION_DENIED, for spool and readiness', async () => {
    const deniedFs: FolderFs = {
      ...fs,
      open: async () => {
        throw errno('EACCES');
      },
      access: async () => {
        throw errno('EACCES');
      },
    };
    const target = new FolderTarget({ uri: `folder:${tmp}`, dir: tmp, fs: deniedFs });
    const error = await target.spool(request()).catch((e: unknown) => e);
    expect((error as PrintError).code).toBe('PERMISSION_DENIED');
    const readiness = await target.readiness();
    expect(readiness.ready).toBe(false);
    expect(readiness.detail).toContain('write access');
    expect(await new FolderTarget({ uri: `folder:${tmp}`, dir: tmp }).readiness()).toEqual({ ready: true, detail: null });
  });

  it('findSpooled finds a saved job by its id and ignores temp files left by a crash', async () => {
    const target = new FolderTarget({ uri: `folder:${tmp}`, dir: tmp });
    await fs.writeFile(path.join(tmp, '.shp-1_label_printer_crashed.pdf.abcd.tmp'), 'half');
    expect(await target.findSpooled('crashed')).toBeNull();
    const a = await target.spool(request({ jobId: 'job-a' }));
    await target.spool(request({ jobId: 'job-ab', shipmentId: 'shp-43' }));
    expect(await target.findSpooled('job-a')).toEqual({ spoolerJobId: a.spoolerJobId, state: 'completed' });
    expect(await target.findSpooled('job-b')).toBeNull();
    expect(await new FolderTarget({ uri: 'folder:x', dir: path.join(tmp, 'missing') }).findSpooled('job-a')).toBeNull();
  });

  it('refuses a request without a PDF', async () => {
    const target = new FolderTarget({ uri: `folder:${tmp}`, dir: tmp });
    const error = await target.spool(request({ pdf: null })).catch((e: unknown) => e);
    expect((error as PrintError).code).toBe('PRINT_UNSUPPORTED');
  });
});
