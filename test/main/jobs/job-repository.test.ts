import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IntakeStore } from '../../../src/main/intake/intake-store';
import { JobRepository } from '../../../src/main/jobs/job-repository';
import { openLedgerFile, type LedgerFile } from '../../../src/main/jobs/ledger-file';

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
