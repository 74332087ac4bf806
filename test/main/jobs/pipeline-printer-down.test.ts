import fs from 'node:fs';
import path from 'node:path';
import { FolderTarget } from '../../../src/main/printing/folder/folder-target';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JobView } from '../../../src/shared/domain';
import { PrintError } from '../../../src/main/printing/errors';
import { Ledger } from '../../../src/main/ledger/ledger';
import type { PrintPipeline, PrintPipelineOptions } from '../../../src/main/jobs/pipeline';
import { buildPipeline } from '../../support/jobs/builder';
import { MemoryTarget, notice, tempDir } from '../../support/jobs/fakes';

const LABELS = 'mem:labels';
const ADVICE = 'Cannot reach 127.0.0.1:631 to print to cups:zebra: start CUPS (systemctl start cups) or check the server address.';

/** A printer whose readiness says what its spool says: down with advice, or ready. */
class DownTarget extends MemoryTarget {
  probes = 0;
  spoolCalls = 0;
  override async spool(request: Parameters<MemoryTarget['spool']>[0]) {
    this.spoolCalls += 1;
    return super.spool(request);
  }
  override async readiness(): Promise<{ ready: boolean; detail: string | null }> {
    this.probes += 1;
    return this.offlineError ? { ready: false, detail: (this.offlineError as Error).message } : { ready: true, detail: null };
  }
}

describe('PrintPipeline: a printer that is down as a whole', () => {
  let tmp: ReturnType<typeof tempDir>;
  let ledger: Ledger;
  let target: DownTarget;
  let changes: JobView[];
  let pipelines: PrintPipeline[];

  beforeEach(() => {
    tmp = tempDir();
    ledger = Ledger.open({ path: path.join(tmp.dir, 'ledger.sqlite') });
    target = new DownTarget(LABELS);
    changes = [];
    pipelines = [];
  });
  afterEach(async () => {
    for (const p of pipelines) await p.stop();
    ledger.close();
    tmp.cleanup();
  });

  const make = (extra: Partial<PrintPipelineOptions> = {}, targetFor?: PrintPipelineOptions['targetFor']): PrintPipeline =>
    buildPipeline(
      { ledger, targets: new Map([[LABELS, target]]), labels: LABELS },
      { maxAttempts: 3, onJobChange: (job) => changes.push(job), ...(targetFor ? { targetFor } : {}), ...extra },
      pipelines,
    );

  it('waits on one probe while the scheduler is down: no attempt spent, the advice on every wait, then each label once, in order', async () => {
    target.offlineError = new PrintError('SPOOLER_UNAVAILABLE', ADVICE, { target: LABELS });
    const p = make();
    await p.start();
    const ids = ['s1', 's2', 's3', 's4'];
    const jobs = ids.map((id) => p.submitBooking(notice(id))[0]!);
    // Far longer than maxAttempts (3) retries of 5-20 ms would take: nothing fails.
    await expect.poll(() => target.probes, { timeout: 5000 }).toBeGreaterThanOrEqual(8);
    for (const job of jobs) expect(ledger.get(job.id)!.state).not.toBe('failed');
    // Only the head was ever offered to the printer; the lane waited on readiness probes.
    expect(target.spoolCalls).toBe(1);
    expect(target.spooled).toEqual([]);
    const waits = changes.filter((c) => c.id === jobs[0]!.id && c.state === 'queued' && c.reason);
    expect(waits.length).toBeGreaterThanOrEqual(5);
    for (const wait of waits) {
      expect(wait.reason).toMatch(
        /^Cannot reach 127\.0\.0\.1:631 to print to cups:zebra: start CUPS \(systemctl start cups\) or check the server address; waiting for the printer \(checking again in \d+ ms\)$/,
      );
    }
    expect(ledger.get(jobs[0]!.id)!.attempts).toBe(1);

    target.offlineError = null;
    await p.idle();
    expect(target.shipments()).toEqual(ids);
    for (const job of jobs) expect(ledger.get(job.id)).toMatchObject({ state: 'completed', attempts: 1 });
  });

  it('waits on a disabled queue the same way, the lane resuming once it is enabled', async () => {
    target.offlineError = new PrintError('PRINTER_DISABLED', `CUPS queue "zebra" is disabled: run \`cupsenable 'zebra'\`.`, {
      target: LABELS,
    });
    const p = make();
    await p.start();
    const jobs = ['a', 'b'].map((id) => p.submitBooking(notice(id))[0]!);
    await expect.poll(() => target.probes, { timeout: 5000 }).toBeGreaterThanOrEqual(5);
    expect(ledger.get(jobs[0]!.id)).toMatchObject({ state: 'queued', attempts: 1 });
    expect(ledger.get(jobs[0]!.id)!.reason).toMatch(/cupsenable.*waiting for the printer/);
    target.offlineError = null;
    await p.idle();
    expect(target.shipments()).toEqual(['a', 'b']);
  });

  it('waits on a folder that cannot be written (a file in the way) and saves each label once when it can', async () => {
    const dir = path.join(tmp.dir, 'prints');
    fs.writeFileSync(dir, 'in the way');
    const folder = new FolderTarget({ uri: `folder:${dir}`, dir });
    const p = make({}, () => folder);
    await p.start();
    const jobs = ['f1', 'f2', 'f3'].map((id) => p.submitBooking(notice(id))[0]!);
    await expect
      .poll(() => changes.filter((c) => c.id === jobs[0]!.id && /waiting for the printer/.test(c.reason ?? '')).length, { timeout: 5000 })
      .toBeGreaterThanOrEqual(4);
    for (const c of changes.filter((c) => c.reason)) {
      expect(c.reason).toMatch(
        new RegExp(
          `^${dir.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is not a folder \\(a file is in the way\\): move it or choose another folder; waiting for the printer`,
        ),
      );
    }
    for (const job of jobs) expect(ledger.get(job.id)!.state).not.toBe('failed');
    fs.rmSync(dir);
    await p.idle();
    for (const job of jobs) expect(ledger.get(job.id)).toMatchObject({ state: 'completed', attempts: 1 });
    const saved = fs.readdirSync(dir).sort();
    expect(saved.map((name) => name.split('_')[0])).toEqual(['f1', 'f2', 'f3']);
  });

  it('spends the try as before when the printer says it is ready (the error was about this job)', async () => {
    const error = new PrintError('SPOOLER_UNAVAILABLE', 'lp failed for mem:labels: killed', { target: LABELS });
    const p = make();
    // The spool fails, yet readiness (no offlineError) says the printer is fine.
    target.spool = async () => {
      target.spoolCalls += 1;
      throw error;
    };
    await p.start();
    const [job] = p.submitBooking(notice('x'));
    await p.idle();
    expect(ledger.get(job!.id)).toMatchObject({ state: 'failed', attempts: 3 });
    expect(ledger.get(job!.id)!.reason).toContain('gave up after 3 attempts');
  });

  it('after a restart, fails a job that may already be at a printer that cannot be set up with "may have printed" (N9)', async () => {
    const spec = { shipmentId: 'n9', documentType: 'label', layout: 'printer' as const, target: 'cups:gone', trigger: 'webhook' as const };
    const spooling = ledger.createJob(spec);
    ledger.transition(spooling.id, 'spooling', { spoolAttempted: true, incrementAttempts: true });
    const spooled = ledger.createJob({ ...spec, shipmentId: 'n9b' });
    ledger.transition(spooled.id, 'spooled', { spoolAttempted: true, incrementAttempts: true });
    const fresh = ledger.createJob({ ...spec, shipmentId: 'n9c' });
    const p = make({}, (uri) => {
      throw new PrintError('INVALID_PRINTER_URI', `${uri}: no such printer kind here.`);
    });
    await p.start();
    await p.idle();
    for (const id of [spooling.id, spooled.id]) {
      expect(ledger.get(id)).toMatchObject({ state: 'failed' });
      expect(ledger.get(id)!.reason).toBe(
        'cups:gone: no such printer kind here; it may have printed: check the printer, then retry by hand',
      );
    }
    // Never handed over: no reason to think it printed.
    expect(ledger.get(fresh.id)).toMatchObject({ state: 'failed', reason: 'cups:gone: no such printer kind here.' });
  });
});
