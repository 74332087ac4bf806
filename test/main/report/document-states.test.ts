/**
 * A document's state from its jobs: a job at a printer that still follows it is printing;
 * "may have printed" only when the printer cannot say (no printer job id) or lost it.
 */
import { describe, expect, it } from 'vitest';
import { documentStates } from '../../../src/main/report/shipment-documents';
import { jobRecord } from '../../support/jobs/records';

describe('documentStates', () => {
  it('shows a reprinted label the printer is printing as printing, not may have printed', () => {
    const jobs = [jobRecord({ documentType: 'waybill', state: 'spooled', spoolerJobId: 'ipp-42', target: 'ipp://p/ipp/print' })];
    expect(documentStates(jobs, ['waybill'])).toEqual([
      { documentType: 'waybill', state: 'printing', detail: null, printedAt: null, printer: 'ipp://p/ipp/print' },
    ]);
  });

  it('keeps may have printed for a job handed to a printer that cannot be asked, and for one the printer lost', () => {
    const unfollowed = [jobRecord({ documentType: 'label', state: 'spooled', spoolerJobId: null })];
    expect(documentStates(unfollowed, ['label'])[0]!.state).toBe('may_have_printed');
    const lost = [
      jobRecord({
        documentType: 'label',
        state: 'failed',
        spoolerJobId: 'ipp-7',
        reason: 'the printer lost job ipp-7; it may have printed',
      }),
    ];
    expect(documentStates(lost, ['label'])[0]!.state).toBe('may_have_printed');
  });

  it('shows printed once the printer said so', () => {
    const jobs = [jobRecord({ documentType: 'label', state: 'completed', spoolerJobId: 'ipp-1' })];
    expect(documentStates(jobs, ['label'])[0]!.state).toBe('printed');
  });
});
