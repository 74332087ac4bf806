import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SpoolerFollower, type FollowOutcome } from '../../../../src/main/jobs/spooler-follower';
import { createTarget } from '../../../../src/main/printing/create-target';
import type { ExecFileRunner } from '../../../../src/main/process/exec';
import { PrintError } from '../../../../src/main/printing/errors';
import type { SpoolRequest } from '../../../../src/main/printing/target';
import { WindowsSpooler } from '../../../../src/main/printing/windows/windows-spooler';
import { WindowsTarget, type PdfToPrinterModule } from '../../../../src/main/printing/windows/windows-target';
import {
  EXPECTED_GET_PRINT_JOBS,
  EXPECTED_GET_PRINTER,
  FAKE_POWERSHELL,
  fakePowershell,
  PRINTER,
  type FakePowershell,
} from '../../../support/fake-powershell';

// The job id the recorded outputs carry in their document names.
const JOB_ID = 'mifk3x7c0000a1b';
const pdf = new TextEncoder().encode('%PDF-1.7\n%%EOF\n');
const request = (overrides: Partial<SpoolRequest> = {}): SpoolRequest => ({
  jobId: JOB_ID,
  title: `Print Station ${JOB_ID} s1 label`,
  pdf,
  media: 'label',
  copies: 1,
  shipmentId: 's1',
  documentType: 'label',
  layout: 'printer',
  ...overrides,
});
const PRINTER_CALL = ['-NoProfile', '-NonInteractive', '-Command', EXPECTED_GET_PRINTER];
const JOBS_CALL = ['-NoProfile', '-NonInteractive', '-Command', EXPECTED_GET_PRINT_JOBS];

describe('WindowsTarget following the Windows spooler (recorded Get-Printer / Get-PrintJob outputs)', () => {
  let ps: FakePowershell;
  let tmp: string;
  let printed: string[];
  let printFails: Error | null;
  const pdfToPrinter: PdfToPrinterModule = {
    print: async (file) => {
      printed.push(path.basename(file));
      if (printFails) throw printFails;
    },
    getPrinters: async () => [{ deviceId: PRINTER, name: PRINTER }],
  };
  const target = (overrides: Partial<ConstructorParameters<typeof WindowsTarget>[0]> = {}): WindowsTarget =>
    new WindowsTarget({
      uri: `windows:${PRINTER}`,
      name: PRINTER,
      pdfToPrinter,
      tempDir: tmp,
      spooler: new WindowsSpooler({ powershellPath: FAKE_POWERSHELL, env: ps.env }),
      listEveryMs: 0,
      ...overrides,
    });

  beforeEach(async () => {
    ps = await fakePowershell();
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'ps-win-spool-'));
    printed = [];
    printFails = null;
  });
  afterEach(async () => {
    await fs.rm(ps.dir, { recursive: true, force: true });
    await fs.rm(tmp, { recursive: true, force: true });
  });

  it.each([
    ['get-printer-ready.json', true, null],
    ['get-printer-busy-printing.json', true, null],
    ['get-printer-paused.json', false, `Windows printer "${PRINTER}" is paused: resume it in Windows`],
    ['get-printer-offline.json', false, `Windows printer "${PRINTER}" is offline: switch it on and check its cable or network.`],
    ['get-printer-paper-out.json', false, `Windows printer "${PRINTER}" is out of paper (labels): load the label roll.`],
    ['get-printer-door-open.json', false, `Windows printer "${PRINTER}" has its door (cover) open: close it.`],
    ['get-printer-error.json', false, `Windows printer "${PRINTER}" reports an error`],
    ['get-printer-work-offline.json', false, `Windows printer "${PRINTER}" is set to "Use Printer Offline"`],
    ['get-printer-none.json', false, `Windows printer "${PRINTER}" does not exist: check the exact name`],
  ])('readiness from %s', async (fixture, ready, detail) => {
    await ps.setState({ printer: fixture });
    const readiness = await target().readiness();
    expect(readiness.ready).toBe(ready);
    if (detail === null) expect(readiness.detail).toBeNull();
    else expect(readiness.detail).toContain(detail);
    expect(ps.calls().map((c) => c.argv)).toEqual([PRINTER_CALL]);
  });

  it('falls back to "does the printer exist" when PowerShell cannot answer', async () => {
    const t = target({ spooler: new WindowsSpooler({ powershellPath: path.join(ps.dir, 'missing.exe'), env: ps.env }) });
    expect(await t.readiness()).toEqual({ ready: true, detail: null });
  });

  it('refuses a job while the printer is paused, without starting SumatraPDF', async () => {
    await ps.setState({ printer: 'get-printer-paused.json' });
    const error = await target()
      .spool(request())
      .catch((e: unknown) => e);
    expect((error as PrintError).code).toBe('PRINTER_DISABLED');
    expect((error as PrintError).retryable).toBe(true);
    expect(printed).toEqual([]);
  });

  it('names the document after the job id, finds the job by it, and follows it queued -> printing -> printed', async () => {
    await ps.setState({
      printer: 'get-printer-ready.json',
      jobs: ['get-printjob-spooling.json', 'get-printjob-queued.json', 'get-printjob-printing.json', 'get-printjob-printed.json'],
    });
    const t = target();
    const result = await t.spool(request());
    expect(printed).toHaveLength(1);
    expect(printed[0]).toMatch(new RegExp(`^print-station-${JOB_ID}-[0-9a-f]{6}\\.pdf$`));
    expect(result).toEqual({ spoolerJobId: `${PRINTER}-42`, completed: false });
    expect(ps.calls().map((c) => c.argv)).toEqual([PRINTER_CALL, JOBS_CALL]);
    expect(ps.calls().every((c) => c.printer === PRINTER)).toBe(true);
    expect(await t.jobState(`${PRINTER}-42`)).toBe('pending');
    expect(await t.jobState(`${PRINTER}-42`)).toBe('printing');
    expect(await t.jobState(`${PRINTER}-42`)).toBe('completed');
  });

  it('a job that leaves the queue without an error is printed (after the follower sees it stay gone)', async () => {
    await ps.setState({ jobs: ['get-printjob-printing.json', 'get-printjob-none.json'] });
    const outcome = await follow(target(), `${PRINTER}-42`);
    expect(outcome).toBe('vanished');
  });

  it('a job seen in error (paper out) that then leaves the queue was not printed: aborted', async () => {
    await ps.setState({ jobs: ['get-printjob-paper-out.json', 'get-printjob-none.json'] });
    expect(await follow(target(), `${PRINTER}-42`)).toBe('aborted');
  });

  it('a job deleted from the queue is canceled', async () => {
    await ps.setState({ jobs: ['get-printjob-printing.json', 'get-printjob-deleting.json'] });
    expect(await follow(target(), `${PRINTER}-42`)).toBe('canceled');
  });

  it('a job in error stays followed until it prints (the spooler keeps it queued)', async () => {
    await ps.setState({ jobs: ['get-printjob-error.json', 'get-printjob-error.json', 'get-printjob-printed.json'] });
    const t = target();
    expect(await t.jobState(`${PRINTER}-42`)).toBe('printing');
    expect(await t.jobState(`${PRINTER}-42`)).toBe('printing');
    expect(await t.jobState(`${PRINTER}-42`)).toBe('completed');
  });

  it('is completed at once when the job has already left the queue, or the spooler cannot be asked', async () => {
    await ps.setState({ printer: 'get-printer-ready.json', jobs: 'get-printjob-none.json' });
    expect(await target().spool(request())).toEqual({ spoolerJobId: null, completed: true });
    await ps.setState({ printer: 'get-printer-ready.json', fail: { code: 1, stderr: 'Get-PrintJob : Access denied' } });
    expect(await target().spool(request())).toEqual({ spoolerJobId: null, completed: true });
    expect(printed).toHaveLength(2);
  });

  describe('findSpooled after a crash (reconcilable)', () => {
    it('finds the job by its document name (base name or full path), preferring one that was not deleted', async () => {
      const t = target();
      expect(t.reconcilable).toBe(true);
      await ps.setState({ jobs: 'get-printjob-full-path.json' });
      expect(await t.findSpooled(JOB_ID)).toEqual({ spoolerJobId: `${PRINTER}-7`, state: 'printing' });
      await ps.setState({ jobs: 'get-printjob-retried.json' });
      expect(await t.findSpooled(JOB_ID)).toEqual({ spoolerJobId: `${PRINTER}-43`, state: 'printing' });
      expect(ps.calls()[0]!.argv).toEqual(JOBS_CALL);
    });

    it('a job not listed may have printed (Windows removes printed jobs): a person decides', async () => {
      await ps.setState({ jobs: 'get-printjob-none.json', printer: 'get-printer-ready.json' });
      const error = await target()
        .findSpooled(JOB_ID)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PrintError);
      expect((error as PrintError).code).toBe('PRINT_MAY_HAVE_PRINTED');
      expect((error as PrintError).retryable).toBe(false);
      expect((error as PrintError).message).toContain('may have printed: check the printer, then retry by hand');
      expect(ps.calls().map((c) => c.argv)).toEqual([JOBS_CALL, PRINTER_CALL]);
    });

    it('a job not listed was never sent when the printer keeps printed documents, or this run saw it refused', async () => {
      await ps.setState({ jobs: 'get-printjob-none.json', printer: 'get-printer-keeps-printed.json' });
      expect(await target().findSpooled(JOB_ID)).toBeNull();

      await ps.setState({ jobs: 'get-printjob-none.json', printer: 'get-printer-ready.json' });
      const t = target();
      printFails = new Error('SumatraPDF exited with code 1');
      expect(((await t.spool(request()).catch((e: unknown) => e)) as PrintError).code).toBe('SPOOL_FAILED');
      expect(await t.findSpooled(JOB_ID)).toBeNull();

      await ps.setState({ printer: 'get-printer-offline.json', jobs: 'get-printjob-none.json' });
      const refused = target();
      expect(((await refused.spool(request()).catch((e: unknown) => e)) as PrintError).code).toBe('PRINTER_DISABLED');
      expect(await refused.findSpooled(JOB_ID)).toBeNull();
    });

    it('cannot tell when PowerShell cannot answer: throws, so nothing is resent on a guess', async () => {
      await ps.setState({ fail: { code: 1, stderr: 'The spooler service is not running.' } });
      const error = await target()
        .findSpooled(JOB_ID)
        .catch((e: unknown) => e);
      expect((error as PrintError).code).toBe('SPOOLER_UNAVAILABLE');
    });
  });

  it('asks PowerShell sparingly: a printer found ready is trusted for readyForMs, listings are listEveryMs apart', async () => {
    let now = 1_000_000;
    await ps.setState({ printer: 'get-printer-ready.json', jobs: 'get-printjob-printing.json' });
    const t = target({ readyForMs: 5000, listEveryMs: 2000, now: () => now });
    await t.spool(request());
    now += 4000;
    await t.spool(request({ jobId: 'mifk3x7c0000a1c' }));
    // One Get-Printer for both labels, one Get-PrintJob after each hand-over.
    expect(ps.calls().map((c) => c.kind)).toEqual(['printer', 'jobs', 'jobs']);
    now += 1500; // 5.5 s after the readiness check
    await t.spool(request({ jobId: 'mifk3x7c0000a1d' }));
    expect(ps.calls().map((c) => c.kind)).toEqual(['printer', 'jobs', 'jobs', 'printer', 'jobs']);

    await ps.setState({ jobs: 'get-printjob-printing.json' });
    const id = `${PRINTER}-42`;
    expect(await t.jobStates([id])).toEqual(new Map([[id, 'printing']]));
    now += 1000;
    // Too soon: nothing is said about the job (the follower takes no answer as no evidence).
    expect(await t.jobStates([id])).toEqual(new Map());
    now += 1000;
    expect(await t.jobStates([id])).toEqual(new Map([[id, 'printing']]));
    expect(ps.calls().map((c) => c.kind)).toEqual(['jobs', 'jobs']);
  });

  it('a printer found not ready is asked again at the next job', async () => {
    await ps.setState({ printer: 'get-printer-paused.json' });
    const t = target({ readyForMs: 60_000 });
    await t.spool(request()).catch(() => undefined);
    await t.spool(request()).catch(() => undefined);
    expect(ps.calls().map((c) => c.kind)).toEqual(['printer', 'printer']);
    expect(printed).toEqual([]);
  });

  it('without a spooler it behaves as before: completed on hand-over, not reconcilable', async () => {
    const t = target({ spooler: null });
    expect(t.reconcilable).toBe(false);
    expect(await t.spool(request())).toEqual({ spoolerJobId: null, completed: true });
    expect(await t.findSpooled(JOB_ID)).toBeNull();
    expect(ps.calls()).toEqual([]);
  });
});

/** Follow one job with the real follower until it ends. */
function follow(target: WindowsTarget, spoolerJobId: string): Promise<FollowOutcome> {
  return new Promise((resolve) => {
    const follower = new SpoolerFollower({
      intervalMs: 1,
      onOutcome: (_job, outcome) => {
        void follower.stop();
        resolve(outcome);
      },
    });
    follower.follow({ jobId: JOB_ID, spoolerJobId, target });
  });
}

describe('createTarget wires the spooler for windows: printers', () => {
  it('runs Windows PowerShell by its full path through the exec runner, the printer name in the environment', async () => {
    const calls: Array<{ file: string; args: readonly string[]; printer: string | undefined; timeoutMs: number | undefined }> = [];
    const exec: ExecFileRunner = async (file, args, options) => {
      calls.push({ file, args, printer: options?.env?.PRINT_STATION_PRINTER, timeoutMs: options?.timeoutMs });
      return {
        code: 0,
        stdout: '[{"Name":"Zebra (Bench 1)","PrinterStatus":23,"WorkOffline":false,"KeepPrintedJobs":false,"JobCount":0}]',
        stderr: '',
      };
    };
    const target = createTarget('windows:Zebra (Bench 1)', {
      platform: 'win32',
      env: { SystemRoot: 'C:\\WINDOWS' },
      exec,
      pdfToPrinter: { print: async () => undefined, getPrinters: async () => [] },
    });
    expect(target.reconcilable).toBe(true);
    expect(await target.readiness()).toEqual({
      ready: false,
      detail: 'Windows printer "Zebra (Bench 1)" has its door (cover) open: close it.',
      message: { code: 'printer.windowsState', params: { printer: 'Zebra (Bench 1)', state: 'DoorOpen' } },
    });
    expect(calls).toEqual([
      {
        file: 'C:\\WINDOWS\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
        args: ['-NoProfile', '-NonInteractive', '-Command', EXPECTED_GET_PRINTER],
        printer: 'Zebra (Bench 1)',
        timeoutMs: 15000,
      },
    ]);
  });
});
