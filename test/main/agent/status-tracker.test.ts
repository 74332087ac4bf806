import { describe, expect, it } from 'vitest';
import type { JobState, JobView } from '../../../src/shared/domain';
import { ApiError, API_ERROR_CODES } from '../../../src/main/api/errors';
import { StatusTracker } from '../../../src/main/agent/status-tracker';
import { JobError, JOB_ERROR_CODES } from '../../../src/main/ledger/errors';

const zero = (): Record<JobState, number> => ({ queued: 0, fetching: 0, spooling: 0, spooled: 0, completed: 0, failed: 0, canceled: 0 });

function job(id: string, state: JobState, reason: string | null = null): JobView {
  return {
    id,
    shipmentId: 's',
    reference: null,
    trackingId: null,
    documentType: 'label',
    layout: 'printer',
    target: 'folder:/x',
    copies: 1,
    trigger: 'webhook',
    state,
    reason,
    requestId: reason ? 'req-1' : null,
    attempts: 1,
    spoolerJobId: null,
    createdAt: '2026-11-22T00:00:00Z',
    updatedAt: '2026-11-22T00:00:01Z',
  };
}

const networkError = () =>
  new ApiError(API_ERROR_CODES.NETWORK, 'The service cannot be reached', {
    status: null,
    requestId: null,
    serviceMessage: null,
    fieldErrors: {},
    retryAfterMs: null,
    method: 'POST',
    path: '/shipments/print',
  });

describe('StatusTracker', () => {
  it('shows a failed job as an error until that job is retried and prints', () => {
    const counts = zero();
    let paused = false;
    const tracker = new StatusTracker(
      () => counts,
      () => 'sandbox',
      () => paused,
    );
    tracker.connected('Team A');
    counts.failed = 1;
    tracker.job(job('j1', 'failed', 'queue disabled'));
    expect(tracker.snapshot()).toMatchObject({
      state: 'error',
      failed: 1,
      lastError: { code: 'JOB_FAILED', message: 'queue disabled', requestId: 'req-1' },
    });
    counts.failed = 0;
    tracker.job(job('j2', 'completed'));
    expect(tracker.snapshot().lastError).not.toBeNull(); // another job's success does not hide j1's failure
    tracker.job(job('j1', 'completed'));
    expect(tracker.snapshot()).toMatchObject({ state: 'ok', lastError: null, lastPrintAt: '2026-11-22T00:00:01Z' });
    paused = true;
    expect(tracker.snapshot().state).toBe('paused');
  });

  it('is offline while the service cannot be reached, and recovers when it answers', () => {
    const tracker = new StatusTracker(
      zero,
      () => 'production',
      () => false,
    );
    tracker.serviceFailed(networkError());
    expect(tracker.snapshot()).toMatchObject({ state: 'offline', lastError: { code: 'SERVICE_UNREACHABLE' } });
    tracker.serviceReached();
    expect(tracker.snapshot()).toMatchObject({ state: 'ok', lastError: null });
  });

  it('shows a ledger that cannot be written as the error, over offline and paused, until the ledger takes writes again', () => {
    let paused = true;
    const tracker = new StatusTracker(
      zero,
      () => 'production',
      () => paused,
    );
    const full = new JobError(JOB_ERROR_CODES.LEDGER_WRITE_FAILED, 'Cannot write the job ledger (SQLITE_FULL): free space.');
    tracker.ledgerFailed(full);
    tracker.serviceFailed(networkError());
    expect(tracker.snapshot()).toMatchObject({ state: 'error', paused: true, lastError: { code: 'LEDGER_WRITE_FAILED' } });
    // A print call that goes through does not end it: only the ledger does.
    tracker.serviceReached();
    expect(tracker.snapshot()).toMatchObject({ state: 'error', lastError: { message: full.message } });
    tracker.ledgerBack();
    expect(tracker.snapshot()).toMatchObject({ state: 'paused', lastError: null });
    paused = false;
    expect(tracker.snapshot().state).toBe('ok');
  });

  it('shows error for a recent failure only: an old failed job stays in history and in the count, not in the tray state', () => {
    const counts = zero();
    let now = Date.parse('2026-11-22T08:00:00Z');
    const tracker = new StatusTracker(
      () => counts,
      () => 'production',
      () => false,
      { errorWindowMs: 30 * 60_000, now: () => now },
    );
    tracker.connected('Team A');
    counts.failed = 1;
    tracker.job(job('j1', 'failed', 'queue disabled'));
    expect(tracker.snapshot()).toMatchObject({ state: 'error', failed: 1 });
    now += 29 * 60_000;
    expect(tracker.snapshot().state).toBe('error');
    now += 2 * 60_000;
    expect(tracker.snapshot()).toMatchObject({ state: 'ok', failed: 1, lastError: null });
    // A new failure is the current state again.
    counts.failed = 2;
    tracker.job(job('j2', 'failed', 'out of labels'));
    expect(tracker.snapshot()).toMatchObject({ state: 'error', lastError: { message: 'out of labels' } });
  });

  it('a failed job from history (not failed while this agent ran) is not an error', () => {
    const counts = zero();
    counts.failed = 12;
    const tracker = new StatusTracker(
      () => counts,
      () => 'production',
      () => false,
    );
    tracker.connected('Team A');
    expect(tracker.snapshot()).toMatchObject({ state: 'ok', failed: 12 });
  });
});
