import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentMessage } from '../../../src/shared/agent-messages';
import type { JobError } from '../../../src/main/ledger/errors';
import { ledgerWriteError } from '../../../src/main/ledger/errors';
import { submitBooking } from '../../../src/main/jobs/commands/submit';
import { Engine } from '../../../src/main/jobs/engine';
import type { Entry, Lane } from '../../../src/main/jobs/lane';
import type { StepOutcome } from '../../../src/main/jobs/outcomes';
import { Harness } from '../../support/jobs/harness';
import { MemoryTarget, notice } from '../../support/jobs/fakes';

const LABELS = 'memory:labels';
/** A reason in plain words: the ledger stores its English as it is. */
const text = (words: string) => agentMessage('text', { text: words });
const PDF = new TextEncoder().encode('%PDF s1');

/**
 * An engine over a real ledger whose scheduler never turns (it is loading, not started):
 * each test hands the runner one outcome, as a step would, and reads what it settled.
 */
describe('runner: settle(outcome)', () => {
  let h: Harness;
  let engine: Engine;
  let errors: JobError[];
  let lane: Lane;
  let entry: Entry;

  beforeEach(() => {
    h = new Harness(new Map([[LABELS, new MemoryTarget(LABELS)]]), LABELS);
    errors = [];
    engine = h.engine({ retryBaseMs: 1000, retryMaxMs: 4000, onError: (e) => errors.push(e) });
    engine.loading = true;
    const [job] = submitBooking(engine, notice('s1'), ['label']);
    entry = engine.entries.get(job!.id)!;
    lane = engine.lanes.get(LABELS)!;
  });

  afterEach(async () => {
    engine.stopped = true;
    engine.scheduler.stop();
    await h.close();
  });

  const settle = (outcome: StepOutcome, withEntry = true): void => engine.runner.settle(outcome, lane, withEntry ? entry : undefined);
  const row = () => h.ledger.get(entry.id)!;

  it('fetched: the job is ready with its PDF in memory; its row is untouched', () => {
    settle({ kind: 'fetched', pdf: PDF, at: 1234 });
    expect(entry.phase).toBe('ready');
    expect(entry.pdf).toBe(PDF);
    expect(entry.checkedAt).toBe(1234);
    expect(lane.entries).toContain(entry);
    expect(row().state).toBe('queued');
  });

  it('handedOver: the job leaves its line and the queue, its row says spooled with the spooler id', () => {
    entry.pdf = PDF;
    entry.phase = 'spooling';
    settle({ kind: 'handedOver', spoolerJobId: 'spool-7', completed: false, note: null, found: false });
    expect(lane.entries).not.toContain(entry);
    expect(engine.entries.has(entry.id)).toBe(false);
    expect(entry.pdf).toBeNull();
    expect(row().state).toBe('spooled');
    expect(row().spoolerJobId).toBe('spool-7');
  });

  it('handedOver, completed at once (a folder): the row says completed', () => {
    settle({ kind: 'handedOver', spoolerJobId: null, completed: true, note: null, found: true });
    expect(lane.entries).not.toContain(entry);
    expect(row().state).toBe('completed');
  });

  it('retryAt: back in line until the time, the row queued with the reason, request id and next attempt', () => {
    entry.pdf = PDF;
    entry.phase = 'spooling';
    entry.tryCounted = true;
    const at = Date.parse('2030-01-01T00:00:00.000Z');
    settle({ kind: 'retryAt', at, reason: text('label not ready'), requestId: 'req-1' });
    expect(entry.phase).toBe('ready');
    expect(entry.notBefore).toBe(at);
    expect(entry.tryCounted).toBe(false);
    expect(lane.entries).toContain(entry);
    expect(row().state).toBe('queued');
    expect(row().reason).toBe('label not ready');
    expect(row().requestId).toBe('req-1');
    expect(row().nextAttemptAt).toBe('2030-01-01T00:00:00.000Z');
  });

  it('retryAt with no time (automatic printing paused): the job leaves its line, held', () => {
    settle({ kind: 'retryAt', at: null, reason: text('held'), requestId: null });
    expect(lane.entries).not.toContain(entry);
    expect(row().state).toBe('queued');
    expect(row().held).toBe(true);
  });

  it('printerDown: the line waits on a probe, the head keeps its place and PDF and shows the advice', () => {
    entry.pdf = PDF;
    entry.phase = 'spooling';
    entry.notBefore = 99;
    settle({ kind: 'printerDown', advice: text('paper out') });
    expect(lane.down?.advice).toBe('paper out');
    expect(lane.down?.fault).toBeFalsy();
    expect(entry.phase).toBe('ready');
    expect(entry.notBefore).toBe(0);
    expect(lane.entries[0]).toBe(entry);
    expect(row().state).toBe('queued');
    expect(row().reason).toContain('paper out');
    expect(row().nextAttemptAt).toBe(new Date(lane.down!.nextProbeAt).toISOString());
  });

  it('printerDown from a probe (no job): the head shows the advice, unchanged otherwise', () => {
    entry.notBefore = 99;
    settle({ kind: 'printerDown', advice: text('cover open') }, false);
    expect(lane.down?.advice).toBe('cover open');
    expect(entry.notBefore).toBe(99);
    expect(row().reason).toContain('cover open');
  });

  it('printerUp: the line moves again', () => {
    settle({ kind: 'printerDown', advice: text('paper out') }, false);
    settle({ kind: 'printerUp' }, false);
    expect(lane.down).toBeNull();
  });

  it('fault: the line is parked as a fault, the job back in line, reported once a streak', () => {
    entry.phase = 'fetching';
    settle({ kind: 'fault', error: new TypeError('a bug') });
    settle({ kind: 'fault', error: new TypeError('a bug') });
    expect(lane.down?.fault).toBe(true);
    expect(lane.faults).toBe(2);
    expect(entry.phase).toBe('waiting');
    expect(errors.map((e) => e.code)).toEqual(['PIPELINE_STEP_FAILED']);
    expect(row().state).toBe('queued');
  });

  it('failed: the job leaves its line, its row failed with the reason and request id', () => {
    settle({ kind: 'failed', reason: text('no such shipment'), requestId: 'req-9' });
    expect(lane.entries).not.toContain(entry);
    expect(engine.entries.has(entry.id)).toBe(false);
    expect(row().state).toBe('failed');
    expect(row().reason).toBe('no such shipment');
    expect(row().requestId).toBe('req-9');
  });

  it('canceled (no such document): the job leaves its line, its row canceled with the reason', () => {
    settle({ kind: 'canceled', reason: text('no label'), requestId: 'req-3', by: null });
    expect(lane.entries).not.toContain(entry);
    expect(row().state).toBe('canceled');
    expect(row().reason).toBe('no label');
    expect(h.ledger.cancelOf(entry.shipmentId)).toBeNull();
  });

  it('canceled by the service: the row canceled and the shipment cancel recorded', () => {
    settle({ kind: 'canceled', reason: null, requestId: 'req-4', by: 'service' });
    expect(lane.entries).not.toContain(entry);
    expect(row().state).toBe('canceled');
    expect(row().requestId).toBe('req-4');
    expect(h.ledger.cancelOf(entry.shipmentId)?.source).toBe('service');
  });

  it('ledgerDown: nothing changes but the job goes back in line, and the guard parks every line', () => {
    entry.phase = 'fetching';
    settle({ kind: 'ledgerDown', error: ledgerWriteError(new Error('SQLITE_FULL'), '/data') });
    expect(entry.phase).toBe('waiting');
    expect(engine.guard.down).not.toBeNull();
    expect(lane.entries).toContain(entry);
    expect(row().state).toBe('queued');
  });

  it('stopped: the job goes back in line as it was (ready with its PDF)', () => {
    entry.pdf = PDF;
    entry.phase = 'spooling';
    settle({ kind: 'stopped' });
    expect(entry.phase).toBe('ready');
    expect(lane.entries).toContain(entry);
    expect(row().state).toBe('queued');
  });

  it('disowned: nothing at all changes', () => {
    entry.phase = 'fetching';
    settle({ kind: 'disowned' });
    expect(entry.phase).toBe('fetching');
    expect(lane.entries).toContain(entry);
    expect(row().state).toBe('queued');
  });
});
