import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IntakeStore } from '../../../src/main/ledger/intake-store';
import { JobRepository } from '../../../src/main/ledger/job-repository';
import { openLedgerFile, type LedgerFile } from '../../../src/main/ledger/ledger-file';

// The ledger's parts on their own, without the agent's Ledger facade: what a caller that
// needs only the jobs (or only intake) is handed.
describe('ledger file and repositories', () => {
  let dir: string;
  let file: LedgerFile | null = null;
  const now = () => new Date('2026-03-01T10:00:00.000Z');
  const spec = { shipmentId: 'S1', documentType: 'label', layout: 'printer' as const, target: 'mem:a', trigger: 'webhook' as const };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'print-station-repo-'));
  });
  afterEach(async () => {
    file?.close();
    file = null;
    await rm(dir, { recursive: true, force: true });
  });

  it('opens a migrated file the job repository and the intake store share, and one agent holds it', () => {
    const path = join(dir, 'ledger.sqlite');
    file = openLedgerFile({ path, now });
    expect(file.dir).toBe(dir);
    expect(file.recovered).toBe(false);
    expect(() => openLedgerFile({ path, openBusyTimeoutMs: 50 })).toThrow(expect.objectContaining({ code: 'LEDGER_LOCKED' }));

    const jobs = new JobRepository(file.db, now, file.dir);
    const intake = new IntakeStore(file.db, now);
    const first = jobs.createAutoJob(spec);
    expect(first.created).toBe(true);
    expect(jobs.createAutoJob(spec)).toEqual({ job: first.job, created: false });
    expect(jobs.transition(first.job.id, 'fetching', { incrementAttempts: true })).toMatchObject({ state: 'fetching', attempts: 1 });
    expect(jobs.counts()).toMatchObject({ queued: 0, fetching: 1 });
    jobs.setPaused('*', true);
    expect(jobs.pausedScopes()).toEqual(['*']);
    intake.setCursor('poll:x', '2026-03-01T09:00:00.000Z');

    file.close();
    file = openLedgerFile({ path, now });
    expect(new JobRepository(file.db, now, file.dir).get(first.job.id)).toMatchObject({ state: 'fetching', attempts: 1 });
    expect(new JobRepository(file.db, now, file.dir).pausedScopes()).toEqual(['*']);
    expect(new IntakeStore(file.db, now).getCursor('poll:x')).toBe('2026-03-01T09:00:00.000Z');
  });

  it('records a booking made here (pack and ship) as booked here, also when its webhook made the job first', () => {
    file = openLedgerFile({ path: join(dir, 'ledger.sqlite'), now });
    const jobs = new JobRepository(file.db, now, file.dir);
    const fromWebhook = jobs.createAutoJob(spec);
    const packed = jobs.createAutoJob({ ...spec, trigger: 'scan' });
    expect(packed).toEqual({ job: { ...fromWebhook.job, trigger: 'scan' }, created: false });
    expect(jobs.get(fromWebhook.job.id)?.trigger).toBe('scan');
    // A poll that sees the booking later leaves it as booked here.
    expect(jobs.createAutoJob({ ...spec, trigger: 'poll' }).job.trigger).toBe('scan');
    expect(jobs.get(fromWebhook.job.id)?.trigger).toBe('scan');
  });

  it('a transition sets what the patch gives, keeps what it leaves out, and returns the row as stored', () => {
    file = openLedgerFile({ path: join(dir, 'ledger.sqlite'), now });
    const jobs = new JobRepository(file.db, now, file.dir);
    const { job } = jobs.createAutoJob(spec);
    const coded = { code: 'job.canceledByHand', params: {} } as const;
    const steps: [Parameters<JobRepository['transition']>[1], Parameters<JobRepository['transition']>[2]][] = [
      ['fetching', { incrementAttempts: true, batchId: 'B1', requestId: 'rq-1', nextAttemptAt: '2026-03-01T11:00:00.000Z' }],
      ['spooling', { spoolAttempted: true, held: true, reason: coded }],
      ['spooled', { spoolerJobId: 'q-7', target: 'mem:b', layout: '2x2' }],
      // Back in line after a spool attempt: the batch stays (the spooler may hold it); everything else is kept.
      ['queued', {}],
      ['failed', { reason: 'paper out', attempts: 5, requestId: null, spoolerJobId: null, nextAttemptAt: null, held: false }],
    ];
    const expected = [
      { attempts: 1, batchId: 'B1', requestId: 'rq-1', nextAttemptAt: '2026-03-01T11:00:00.000Z', spoolAttempted: false, held: false },
      { attempts: 1, batchId: 'B1', requestId: 'rq-1', spoolAttempted: true, held: true, reason: 'canceled by hand', reasonMessage: coded },
      { spoolerJobId: 'q-7', target: 'mem:b', layout: '2x2', reasonMessage: coded, batchId: 'B1' },
      { state: 'queued', spoolerJobId: 'q-7', batchId: 'B1', spoolAttempted: true, reasonMessage: coded, attempts: 1 },
      { reason: 'paper out', attempts: 5, requestId: null, spoolerJobId: null, nextAttemptAt: null, held: false, batchId: 'B1' },
    ];
    steps.forEach(([state, patch], i) => {
      const moved = jobs.transition(job.id, state, patch);
      expect(moved).toEqual(jobs.get(job.id));
      expect(moved).toMatchObject({ ...expected[i], state, id: job.id, seq: job.seq, createdAt: job.createdAt, copies: 1 });
    });
    expect(jobs.get(job.id)).not.toHaveProperty('reasonMessage');

    // Queued again with no spool attempt, the job leaves its batch unless the patch names one.
    const other = jobs.createJob({ ...spec, shipmentId: 'S9', trigger: 'reprint' });
    jobs.transition(other.id, 'fetching', { batchId: 'B2' });
    expect(jobs.transition(other.id, 'queued')).toMatchObject({ batchId: null, state: 'queued' });
    jobs.transition(other.id, 'fetching', { batchId: 'B3' });
    expect(jobs.transition(other.id, 'queued', { batchId: 'B4' })).toMatchObject({ batchId: 'B4' });
    expect(jobs.transition(other.id, 'queued', { spoolAttempted: true })).toMatchObject({ batchId: 'B4', spoolAttempted: true });
    expect(jobs.transition(other.id, 'queued', { spoolAttempted: false })).toMatchObject({ batchId: null, spoolAttempted: false });
    expect(jobs.get(other.id)).toMatchObject({ batchId: null, spoolAttempted: false });
    expect(() => jobs.transition('nope', 'queued')).toThrow(expect.objectContaining({ code: 'JOB_NOT_FOUND' }));
  });

  it('keeps a webhook booking and its message id together, once', () => {
    file = openLedgerFile({ path: join(dir, 'ledger.sqlite'), now });
    const intake = new IntakeStore(file.db, now);
    const notice = {
      shipmentId: 'S2',
      referenceId: 'R2',
      trackingId: null,
      carrier: null,
      source: 'API',
      senderReference: null,
      system: null,
      bookedAt: null,
      trigger: 'webhook' as const,
    };
    expect(intake.rememberBooking('m1', notice, { id: 'S2' })).toBe(true);
    expect(intake.rememberBooking('m1', notice, { id: 'S2' })).toBe(false);
    expect(intake.pendingBookings()).toEqual([
      expect.objectContaining({ notice, data: { id: 'S2' }, attempts: 0, receivedAt: now().toISOString() }),
    ]);
  });
});
