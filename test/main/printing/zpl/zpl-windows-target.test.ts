import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderTestPage } from '../../../../src/main/agent/test-page';
import { createTarget } from '../../../../src/main/printing/create-target';
import { runExecFile, type ExecFileRunner } from '../../../../src/main/process/exec';
import { PRINT_ERROR_CODES, PrintError } from '../../../../src/main/printing/errors';
import type { SpoolRequest } from '../../../../src/main/printing/target';
import { WindowsSpooler } from '../../../../src/main/printing/windows/windows-spooler';
import { WRITE_RAW_SCRIPT } from '../../../../src/main/printing/zpl/zpl-windows-target';
import { FAKE_POWERSHELL, fakePowershell, type FakePowershell } from '../../../support/fake-powershell';

/** A name that would break out of any script it was pasted into. */
const NAME = `Zebra "ZD421" $(Remove-Item C:\\) \`n'; exit 1 #`;
const SYSTEM32_POWERSHELL = 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe';

let ps: FakePowershell;
let ran: string[];
let pdf: Uint8Array;
beforeEach(async () => {
  ps = await fakePowershell();
  ran = [];
  pdf = await renderTestPage('printer', 'zpl-windows:test', new Date('2026-11-26T06:00:00Z'));
});
afterEach(async () => {
  const { rm } = await import('node:fs/promises');
  await rm(ps.dir, { recursive: true, force: true });
});

/** Records which program the target runs, and runs the fake in its place (Windows cannot run here). */
const exec: ExecFileRunner = (file, args, options) => {
  ran.push(file);
  return runExecFile(FAKE_POWERSHELL, args, options);
};

function target(uri = `zpl-windows:${NAME}`) {
  const env = { ...ps.env, SystemRoot: 'C:\\Windows' };
  return createTarget(uri, { platform: 'win32', env, exec, windowsSpooler: new WindowsSpooler({ env, exec }) });
}

const request = (overrides: Partial<SpoolRequest> = {}): SpoolRequest => ({
  jobId: 'job42',
  title: 'Print Station job42 s1 label',
  pdf,
  media: 'label',
  copies: 2,
  shipmentId: 's1',
  documentType: 'label',
  layout: 'printer',
  ...overrides,
});

async function withPrinter(fixture: string, name = NAME): Promise<void> {
  const text = readFileSync(new URL(`../../../fixtures/windows/${fixture}`, import.meta.url), 'utf8').replace(
    'ZDesigner ZD420 (Bench 2)',
    name.replaceAll('\\', '\\\\').replaceAll('"', '\\"'),
  );
  const file = `${ps.dir}/${fixture}`;
  const { writeFile } = await import('node:fs/promises');
  await writeFile(file, text);
  await ps.setState({ printer: file, jobs: 'get-printjob-none.json', rawJobId: 31 });
}

describe('zpl-windows: printers (RAW through the Windows spooler)', () => {
  it('hands the ZPL to one fixed script through stdin, the printer name as data, PowerShell by its System32 path', async () => {
    await withPrinter('get-printer-ready.json');
    const spooled = await target().spool(request());
    expect(spooled).toEqual({ spoolerJobId: `${NAME}-31`, completed: false });
    expect(ran.every((file) => file === SYSTEM32_POWERSHELL)).toBe(true);
    const raw = ps.calls().filter((c) => c.kind === 'raw');
    expect(raw).toHaveLength(1);
    expect(raw[0]!.argv).toEqual(['-NoProfile', '-NonInteractive', '-Command', WRITE_RAW_SCRIPT]);
    // The script is fixed text: the name, title and labels reach it only as data.
    expect(WRITE_RAW_SCRIPT).not.toContain('ZD421');
    expect(WRITE_RAW_SCRIPT).toContain('pDatatype = "RAW"');
    for (const call of ['OpenPrinter', 'StartDocPrinter', 'WritePrinter', 'EndDocPrinter', 'ClosePrinter'])
      expect(WRITE_RAW_SCRIPT).toContain(call);
    expect(raw[0]!.printer).toBe(NAME);
    expect(raw[0]!.document).toBe('Print Station job42 s1 label');
    const zpl = readFileSync(raw[0]!.stdin!, 'latin1');
    expect(zpl).toMatch(/^\^XA\^PW812\^LL1218\^.*\^GFA,.*\^PQ2,0,1,Y\^XZ\n$/s);
  });

  it('renders at the dpi the URI names', async () => {
    await withPrinter('get-printer-ready.json');
    await target(`zpl-windows:${NAME}?dpi=300`).spool(request());
    const raw = ps.calls().find((c) => c.kind === 'raw');
    expect(raw!.printer).toBe(NAME);
    expect(readFileSync(raw!.stdin!, 'latin1')).toMatch(/^\^XA\^PW1200\^LL1800\^/);
  });

  it.each([
    ['get-printer-paper-out.json', /PaperOut|paper/i],
    ['get-printer-paused.json', /Paused|paused/],
  ])('sends nothing while Windows says the printer is not ready (%s)', async (fixture, words) => {
    await withPrinter(fixture);
    const zplTarget = target();
    const error = await zplTarget.spool(request()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PrintError);
    expect((error as PrintError).printerDown).toBe(true);
    expect(ps.calls().filter((c) => c.kind === 'raw')).toEqual([]);
    const readiness = await zplTarget.readiness();
    expect(readiness.ready).toBe(false);
    expect(readiness.detail).toMatch(words);
  });

  it('says the job may have printed when WritePrinter failed, and that it did not when OpenPrinter did', async () => {
    await withPrinter('get-printer-ready.json');
    await ps.setState({
      printer: `${ps.dir}/get-printer-ready.json`,
      rawFail: { code: 1, stderr: 'Exception calling "Send": "WritePrinter failed (Windows error 1167)"\n' },
    });
    const written = (await target()
      .spool(request())
      .catch((e: unknown) => e)) as PrintError;
    expect(written.code).toBe(PRINT_ERROR_CODES.MAY_HAVE_PRINTED);
    await ps.setState({
      printer: `${ps.dir}/get-printer-ready.json`,
      rawFail: { code: 1, stderr: 'Exception calling "Send": "OpenPrinter failed (Windows error 1801)"\n' },
    });
    const opened = (await target()
      .spool(request())
      .catch((e: unknown) => e)) as PrintError;
    expect(opened.code).toBe(PRINT_ERROR_CODES.SPOOL_FAILED);
    expect(opened.message).toContain('OpenPrinter failed');
  });
});
