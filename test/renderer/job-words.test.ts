import { describe, expect, it } from 'vitest';
import { JOB_STATES } from '../../src/shared/domain';
import { JOB_STATE_WORDS, describeJob, isActive } from '../../src/renderer/job-words';
import { job } from '../support/fake-agent-client';

describe('job words', () => {
  it('says what "completed" means for each kind of printer', () => {
    expect(describeJob(job({ target: 'folder:/srv/prints' }))).toBe('Label → Folder /srv/prints: saved');
    expect(describeJob(job({ target: 'cups:Labels' }))).toBe('Label → CUPS Labels: printed (the spooler reports it done)');
    expect(describeJob(job({ target: 'windows:Zebra' }))).toBe('Label → Windows Zebra: handed to the Windows spooler');
    expect(describeJob(job({ target: 'service:p1' }))).toBe('Label → Service printer p1: accepted by the service printer');
    expect(describeJob(job({ target: 'lpd:x' }))).toBe('Label → lpd x: completed (printed or saved)');
  });

  it('names the document in words', () => {
    expect(describeJob(job({ documentType: 'customsinvoice', state: 'spooled', target: 'cups:Office' }))).toBe(
      'Customs invoice → CUPS Office: spooled (sent to the printer)',
    );
  });

  it('gives a failure its reason and request id, once', () => {
    const failed = job({ state: 'failed', reason: 'The service refused the print', requestId: 'req-9' });
    expect(describeJob(failed)).toBe('Label → Folder /srv/prints: failed. The service refused the print (request id req-9)');
    const inReason = job({ state: 'failed', reason: 'Refused (request id req-9)', requestId: 'req-9' });
    expect(describeJob(inReason)).toBe('Label → Folder /srv/prints: failed. Refused (request id req-9)');
  });

  it('says why a waiting job waits', () => {
    expect(describeJob(job({ state: 'queued', reason: 'label not ready yet; retrying in 2 s' }))).toBe(
      'Label → Folder /srv/prints: queued: label not ready yet; retrying in 2 s',
    );
  });

  it('has words for every state and knows which are still under way', () => {
    for (const state of JOB_STATES) expect(JOB_STATE_WORDS[state]).toMatch(/\w/);
    expect(JOB_STATES.filter(isActive)).toEqual(['queued', 'fetching', 'spooling']);
  });
});
