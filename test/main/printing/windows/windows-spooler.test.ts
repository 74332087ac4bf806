import { chmodSync, promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PrintError } from '../../../../src/main/printing/errors';
import { withSpoolerPrinterList } from '../../../../src/main/printing/create-target';
import type { ExecFileRunner } from '../../../../src/main/process/exec';
import {
  defaultPowershellPath,
  LIST_PRINTERS_SCRIPT,
  parsePrintJobs,
  WindowsSpooler,
} from '../../../../src/main/printing/windows/windows-spooler';
import {
  EXPECTED_GET_PRINT_JOBS,
  EXPECTED_GET_PRINTER,
  FAKE_POWERSHELL,
  fakePowershell,
  PRINTER,
  type FakePowershell,
} from '../../../support/fake-powershell';

describe('WindowsSpooler through a fake powershell executable', () => {
  let ps: FakePowershell;
  let spooler: WindowsSpooler;
  beforeAll(() => chmodSync(FAKE_POWERSHELL, 0o755));
  beforeEach(async () => {
    ps = await fakePowershell();
    spooler = new WindowsSpooler({ powershellPath: FAKE_POWERSHELL, env: ps.env });
  });
  afterEach(async () => {
    await fs.rm(ps.dir, { recursive: true, force: true });
  });

  it('runs Get-Printer with -NoProfile -NonInteractive and the name only in the environment', async () => {
    await ps.setState({ printer: 'get-printer-paused.json' });
    expect(await spooler.printer(PRINTER)).toEqual({
      name: PRINTER,
      status: 'Paused',
      workOffline: false,
      keepPrintedJobs: false,
      jobCount: 3,
    });
    expect(ps.calls()).toEqual([
      { argv: ['-NoProfile', '-NonInteractive', '-Command', EXPECTED_GET_PRINTER], printer: PRINTER, kind: 'printer' },
    ]);
  });

  it('never puts a printer name on the command line, whatever it contains', async () => {
    await ps.setState({ printer: 'get-printer-none.json' });
    const hostile = `Label'; Remove-Item C:\\ -Recurse; '$(calc)\``;
    expect(await spooler.printer(hostile)).toBeNull();
    const [call] = ps.calls();
    expect(call!.argv).toEqual(['-NoProfile', '-NonInteractive', '-Command', EXPECTED_GET_PRINTER]);
    expect(call!.printer).toBe(hostile);
  });

  it('runs Get-PrintJob and reads JobStatus flags and both PowerShell date formats', async () => {
    await ps.setState({ jobs: 'get-printjob-queued.json' });
    const jobs = await spooler.jobs(PRINTER);
    expect(ps.calls()[0]!.argv).toEqual(['-NoProfile', '-NonInteractive', '-Command', EXPECTED_GET_PRINT_JOBS]);
    expect(jobs).toEqual([
      { id: 41, printerName: PRINTER, documentName: 'label-older.pdf', status: 16, submittedAt: '2025-11-24T15:59:50.000Z' },
      {
        id: 42,
        printerName: PRINTER,
        documentName: 'print-station-mifk3x7c0000a1b-3f9c2e.pdf',
        status: 0,
        submittedAt: '2025-11-24T16:00:00.000Z',
      },
    ]);
    const iso = parsePrintJobs(readFileSync(new URL('../../../fixtures/windows/get-printjob-full-path.json', import.meta.url), 'utf8'));
    expect(iso[0]).toMatchObject({ id: 7, status: 8208, submittedAt: '2026-11-24T04:20:00.000Z' });
    expect(parsePrintJobs('{"Id":3,"DocumentName":"x","JobStatus":"Printing, Retained"}')[0]!.status).toBe(0x10 | 0x2000);
  });

  it('says what went wrong when PowerShell fails, is missing or hangs', async () => {
    await ps.setState({ fail: { code: 1, stderr: 'Get-PrintJob : The specified printer was not found.\r\nAt line:1 char:1\r\n' } });
    const failed = await spooler.jobs(PRINTER).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(PrintError);
    expect((failed as PrintError).code).toBe('SPOOLER_UNAVAILABLE');
    expect((failed as PrintError).message).toBe(
      `Cannot list the print jobs of Windows printer "${PRINTER}" through PowerShell: Get-PrintJob : The specified printer was not found.`,
    );

    const missing = await new WindowsSpooler({ powershellPath: path.join(ps.dir, 'no-such-powershell.exe'), env: ps.env })
      .printer(PRINTER)
      .catch((e: unknown) => e);
    expect((missing as PrintError).code).toBe('SPOOLER_UNAVAILABLE');
    expect((missing as PrintError).message).toContain('was not found (Windows PowerShell 5.1 ships with Windows 10 and 11)');

    await ps.setState({ printer: 'get-printer-ready.json', sleepMs: 5000 });
    const hung = await new WindowsSpooler({ powershellPath: FAKE_POWERSHELL, env: ps.env, timeoutMs: 300 })
      .printer(PRINTER)
      .catch((e: unknown) => e);
    expect((hung as PrintError).code).toBe('SPOOLER_UNAVAILABLE');
    expect((hung as PrintError).message).toContain('timed out');
  });

  it('runs Windows PowerShell by its full path under SystemRoot, never by name from PATH', async () => {
    expect(defaultPowershellPath({ SystemRoot: 'D:\\Win' })).toBe('D:\\Win\\System32\\WindowsPowerShell\\v1.0\\powershell.exe');
    expect(defaultPowershellPath({ SYSTEMROOT: 'C:\\WINDOWS' })).toBe('C:\\WINDOWS\\System32\\WindowsPowerShell\\v1.0\\powershell.exe');
    expect(defaultPowershellPath({ PATH: 'C:\\Users\\Public' })).toBe('C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe');
    const ran: string[] = [];
    const exec: ExecFileRunner = async (file) => (ran.push(file), { code: 0, stdout: '[]', stderr: '' });
    await new WindowsSpooler({ env: { SystemRoot: 'C:\\Windows', PATH: 'C:\\evil' }, exec }).printer(PRINTER);
    await new WindowsSpooler({ env: { SystemRoot: 'C:\\Windows' }, exec }).listPrinters();
    expect(ran).toEqual(Array(2).fill('C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe'));
  });

  it("lists the printers as pdf-to-printer's getPrinters does, through this PowerShell", async () => {
    await ps.setState({ list: 'win32-printer-list.json' });
    const pdfToPrinter = withSpoolerPrinterList(
      {
        print: async () => undefined,
        getPrinters: async () => {
          throw new Error("pdf-to-printer's own getPrinters runs Powershell.exe from PATH");
        },
      },
      spooler,
    );
    expect(await pdfToPrinter.getPrinters()).toEqual([
      { deviceId: PRINTER, name: PRINTER, paperSizes: ['4x6', '100 x 150 mm', 'User defined'] },
      { deviceId: 'Kontor A4 på lager', name: 'Kontor A4 på lager', paperSizes: ['A4', 'Letter'] },
    ]);
    expect(ps.calls()).toEqual([{ argv: ['-NoProfile', '-NonInteractive', '-Command', LIST_PRINTERS_SCRIPT], printer: '', kind: 'list' }]);
    expect(LIST_PRINTERS_SCRIPT).toBe(
      "$ErrorActionPreference = 'Stop'; [Console]::OutputEncoding = [Text.Encoding]::UTF8; $n = $env:PRINT_STATION_PRINTER; " +
        'ConvertTo-Json -Compress -Depth 3 -InputObject @(Get-CimInstance Win32_Printer -Property DeviceID, Name, PrinterPaperNames | ' +
        'Select-Object DeviceID, Name, PrinterPaperNames)',
    );
  });
});
