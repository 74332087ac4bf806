import { describe, expect, it } from 'vitest';
import { describeJob } from '../../../src/main/agent/job-log';
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
});
