import { describe, expect, it } from 'vitest';
import { describeJob, JobLogLines } from '../../../src/main/jobs/job-log';
import { agentMessage } from '../../../src/shared/agent-messages';
import type { JobView } from '../../../src/shared/domain';

describe('job log lines', () => {
  it('keep a huge reference with a newline to one capped line', () => {
    const reference = `ORDER-1\n2026-01-01T00:00:00.000Z job 99 completed${'x'.repeat(200_000)}`;
    const job = {
      id: 7,
      state: 'failed',
      documentType: 'label',
      layout: '4x6',
      shipmentId: 'shp_1',
      reference,
      target: 'folder:/tmp/p',
      trigger: 'webhook',
      reason: `cannot print ${reference}`,
      requestId: 'req_1',
      spoolerJobId: null,
    } as unknown as JobView;
    const line = describeJob(job);
    expect(line).not.toContain('\n');
    expect(line).toContain('ref ORDER-1\\n2026-01-01T00:00:00.000Z job 99 completed');
    expect(line).toMatch(/…\(\+\d+ chars\)/);
    expect(line.length).toBeLessThan(1_200);
  });

  it('tell a wait for a printer that is down once, not at each check, and what ends it', () => {
    const lines = new JobLogLines();
    const waiting = (delayMs: number, adviceMessage = agentMessage('text', { text: 'The disk is full' })): JobView =>
      ({
        id: 'j1',
        state: 'queued',
        documentType: 'label',
        layout: 'printer',
        shipmentId: 's1',
        target: 'folder:/p',
        trigger: 'webhook',
        reason: 'x',
        reasonMessage: agentMessage('job.waitingForPrinter', { advice: adviceMessage, delayMs }),
        requestId: null,
        spoolerJobId: null,
      }) as unknown as JobView;
    const said = [1000, 2000, 4000, 30_000, 30_000].map((d) => lines.line(waiting(d)));
    expect(said.filter((l) => l !== null)).toHaveLength(1);
    // Another reason is a new line; so is what ends the wait.
    expect(lines.line(waiting(30_000, agentMessage('text', { text: 'The folder is gone' })))).not.toBeNull();
    expect(lines.line({ ...waiting(0), state: 'fetching', reason: null, reasonMessage: null })).toMatch(/fetching/);
    expect(lines.line(waiting(1000))).not.toBeNull();
  });
});
