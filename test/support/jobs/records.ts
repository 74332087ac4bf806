import type { JobRecord } from '../../../src/main/ledger/job-record';

/**
 * A job row as the ledger returns it: a label printed on a folder printer from a webhook
 * (`completed`, one attempt, spool attempted), with the fields a test gives instead. For
 * tests of what reads jobs (reports, logs) without a ledger.
 */
export function jobRecord(overrides: Partial<JobRecord> = {}): JobRecord {
  const at = overrides.createdAt ?? '2026-11-24T09:00:00.000Z';
  return {
    id: 'job-1',
    shipmentId: 'S',
    reference: null,
    trackingId: null,
    documentType: 'label',
    layout: 'printer',
    target: 'folder:/prints',
    copies: 1,
    trigger: 'webhook',
    state: 'completed',
    reason: null,
    requestId: null,
    attempts: 1,
    spoolerJobId: null,
    createdAt: at,
    updatedAt: at,
    seq: 1,
    idempotencyKey: 'k',
    bookedAt: at,
    nextAttemptAt: null,
    held: false,
    spoolAttempted: true,
    ...overrides,
  };
}
