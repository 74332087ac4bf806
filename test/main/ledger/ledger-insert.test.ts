import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// L14: ids are time + counter + 3 random characters; force a clash to see what createJob does.
const ids = vi.hoisted(() => ({ queue: [] as string[] }));
vi.mock('../../../src/main/ledger/job-id', async (original) => {
  const real = await original<typeof import('../../../src/main/ledger/job-id')>();
  return { newJobId: (now?: number) => ids.queue.shift() ?? real.newJobId(now) };
});
const { Ledger } = await import('../../../src/main/ledger/ledger');

const spec = (shipmentId: string) => ({
  shipmentId,
  documentType: 'label',
  layout: 'printer' as const,
  target: 'mem:x',
  trigger: 'reprint' as const,
});

describe('Ledger job insert when a new id clashes with an existing job (L14)', () => {
  let dir: string;
  let ledger: ReturnType<typeof Ledger.open>;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'print-station-insert-'));
    ledger = Ledger.open({ path: join(dir, 'ledger.sqlite') });
  });
  afterEach(async () => {
    ledger.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('createJob never returns a job that is not in the ledger: it takes a fresh id', () => {
    ids.queue.push('clash0000000001', 'clash0000000001');
    const first = ledger.createJob(spec('s1'));
    const second = ledger.createJob(spec('s2'));
    expect(first.id).toBe('clash0000000001');
    expect(second.id).not.toBe(first.id);
    expect(ledger.get(second.id)).toMatchObject({ shipmentId: 's2' });
    expect(ledger.get(first.id)).toMatchObject({ shipmentId: 's1' });
  });

  it('createAutoJob creates the job under a fresh id instead of failing', () => {
    ids.queue.push('clash0000000002', 'clash0000000002');
    ledger.createJob(spec('s1'));
    const { job, created } = ledger.createAutoJob({ ...spec('s3'), trigger: 'webhook' });
    expect(created).toBe(true);
    expect(ledger.get(job.id)).toMatchObject({ shipmentId: 's3' });
  });
});
