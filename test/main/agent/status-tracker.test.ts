import { describe, expect, it } from 'vitest';
import type { JobState, JobView } from '../../../src/shared/domain';
import { ApiError, API_ERROR_CODES } from '../../../src/main/api/errors';
import { StatusTracker } from '../../../src/main/agent/status-tracker';

const zero = (): Record<JobState, number> => ({ queued: 0, fetching: 0, spooling: 0, spooled: 0, completed: 0, failed: 0, canceled: 0 });

function job(id: string, state: JobState, reason: string | null = null): JobView {
  return {
    id, shipmentId: 's', reference: null, trackingId: null, documentType: 'label', layout: 'printer', target: 'folder:/x',
    copies: 1, trigger: 'webhook', state, reason, requestId: reason ? 'req-1' : null, attempts: 1, spoolerJobId: null,
    createdAt: '2026-11-22T00:00:00Z', updatedAt: '2026-11-22T00:00:01Z',
  };
}

const networkError = () =>
  new ApiError(API_ERROR_CODES.NETWORK, 'The service cannot be reached', {
    status: null, requestId: null, serviceMessage: null, fieldErrors: {}, retryAfterMs: null, method: 'POST', path: '/shipments/print',
  });

describe('StatusTracker', () => {
  it('shows a failed job as an error until that job is retried and prints', () => {
    const counts = zero();
    let paused = false;
    const tracker = new StatusTracker(() => counts, () => 'sandbox', () => paused);
    tracker.connected('Team A');
    counts.failed = 1;
    tracker.job(job('j1', 'failed', 'queue disabled'));
    expect(tracker.snapshot()).toMatchObject({ state: 'error', failed: 1, lastError: { code: 'JOB_FAILED', message: 'queue disabled', requestId: 'req-1' } });
    counts.failed = 0;
    tracker.job(job('j2', 'completed'));
    expect(tracker.snapshot().lastError).not.toBeNull(); // another job's success does not hide j1's failure
    tracker.job(job('j1', 'completed'));
    expect(tracker.snapshot()).toMatchObject({ state: 'ok', lastError: null, lastPrintAt: '2026-11-22T00:00:01Z' });
    paused = true;
    expect(tracker.snapshot().state).toBe('paused');
  });

  it('is offline while the service cannot be reached, and recovers when it answers', () => {
    const tracker = new StatusTracker(zero, () => 'production', () => false);
    tracker.serviceFailed(networkError());
    expect(tracker.snapshot()).toMatchObject({ state: 'offline', lastError: { code: 'SERVICE_UNREACHABLE' } });
    tracker.serviceReached();
    expect(tracker.snapshot()).toMatchObject({ state: 'ok', lastError: null });
  });
});
