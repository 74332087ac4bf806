import { promises as fs } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JobRecord } from '../../../../src/main/ledger/job-record';
import type { PrinterTarget } from '../../../../src/main/printing/target';
import { WindowsSpooler } from '../../../../src/main/printing/windows/windows-spooler';
import { WindowsTarget, type PdfToPrinterModule } from '../../../../src/main/printing/windows/windows-target';
import { FAKE_POWERSHELL, fakePowershell, recordingFor, type FakePowershell } from '../../../support/fake-powershell';
import { Harness, until } from '../../../support/jobs/harness';

const WIN = 'windows:ZDesigner ZD420 (Bench 2)';

/**
 * The pipeline with a Windows printer whose spooler can be asked (recorded Get-PrintJob
 * outputs through a fake powershell): a job is followed until the spooler is done with it,
 * and a crash mid-spool is reconciled by the document name, never resent on a guess.
 */
describe('PrintPipeline with a Windows printer and its spooler', () => {
  let ps: FakePowershell;
  let printed: string[];
  let h: Harness;

  beforeEach(async () => {
    ps = await fakePowershell();
    printed = [];
    const sumatra: PdfToPrinterModule = {
      print: async (file) => void printed.push(file),
      getPrinters: async () => [{ deviceId: 'ZD420', name: 'ZDesigner ZD420 (Bench 2)' }],
    };
    const spooler = new WindowsSpooler({ powershellPath: FAKE_POWERSHELL, env: ps.env });
    const target = new WindowsTarget({ uri: WIN, name: 'ZDesigner ZD420 (Bench 2)', pdfToPrinter: sumatra, spooler, listEveryMs: 0 });
    h = new Harness(new Map<string, PrinterTarget>([[WIN, target]]), WIN);
  });
  afterEach(async () => {
    await h.close();
    await fs.rm(ps.dir, { recursive: true, force: true });
  });

  function queued(shipmentId: string): JobRecord {
    return h.ledger.createAutoJob({ shipmentId, documentType: 'label', layout: 'printer', target: WIN, trigger: 'webhook' }).job;
  }

  function leftByCrash(shipmentId: string): JobRecord {
    const job = h.ledger.createAutoJob({ shipmentId, documentType: 'label', layout: 'printer', target: WIN, trigger: 'webhook' }).job;
    h.ledger.transition(job.id, 'fetching', { incrementAttempts: true });
    return h.ledger.transition(job.id, 'spooling', { spoolAttempted: true });
  }

  it('is spooled while the spooler lists the job, completed once it printed', async () => {
    // Queued before the start (as a booking recorded earlier), so the recordings can carry its id.
    const job = queued('s1');
    await ps.setState({
      printer: 'get-printer-ready.json',
      jobs: [
        await recordingFor(ps, 'get-printjob-printing.json', job.id),
        await recordingFor(ps, 'get-printjob-printing.json', job.id),
        await recordingFor(ps, 'get-printjob-printed.json', job.id),
      ],
    });
    await h.pipeline().start();
    await until(() => h.ledger.get(job.id)?.state === 'completed');
    expect(h.changes.filter((c) => c.id === job.id).map((c) => c.state)).toContain('spooled');
    expect(h.ledger.get(job.id)).toMatchObject({ spoolerJobId: 'ZDesigner ZD420 (Bench 2)-42' });
    expect(printed).toHaveLength(1);
    expect(printed[0]).toContain(job.id);
  });

  it('fails a job whose paper ran out and that was then deleted from the queue', async () => {
    const job = queued('s2');
    await ps.setState({
      printer: 'get-printer-ready.json',
      jobs: [await recordingFor(ps, 'get-printjob-paper-out.json', job.id), 'get-printjob-none.json'],
    });
    await h.pipeline().start();
    await until(() => h.ledger.get(job.id)?.state === 'failed');
    expect(h.ledger.get(job.id)!.reason).toContain('the printer aborted job ZDesigner ZD420 (Bench 2)-42');
  });

  it('after a crash: adopts the job the spooler lists by its document name and follows it, without printing again', async () => {
    const job = leftByCrash('s-adopt');
    await ps.setState({
      jobs: [await recordingFor(ps, 'get-printjob-printing.json', job.id), await recordingFor(ps, 'get-printjob-printed.json', job.id)],
    });
    const p = h.pipeline();
    await p.start();
    await until(() => h.ledger.get(job.id)?.state === 'completed');
    expect(printed).toEqual([]);
  });

  it('after a crash: a job the queue no longer lists may have printed: failed for a person to check, not resent', async () => {
    const job = leftByCrash('s-gone');
    await ps.setState({ jobs: 'get-printjob-none.json', printer: 'get-printer-ready.json' });
    const p = h.pipeline();
    await p.start();
    await until(() => h.ledger.get(job.id)?.state === 'failed');
    expect(h.ledger.get(job.id)!.reason).toContain('may have printed: check the printer, then retry by hand');
    expect(printed).toEqual([]);
  });

  it('after a crash: on a printer that keeps printed documents, an unlisted job was never sent: sent once', async () => {
    const job = leftByCrash('s-resend');
    await ps.setState({ jobs: 'get-printjob-none.json', printer: 'get-printer-keeps-printed.json' });
    const p = h.pipeline();
    await p.start();
    await until(() => h.ledger.get(job.id)?.state === 'completed');
    expect(printed).toHaveLength(1);
  });
});
