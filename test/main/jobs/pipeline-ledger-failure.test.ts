import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JobState } from '../../../src/shared/domain';
import type { JobError } from '../../../src/main/ledger/errors';
import type { Ledger } from '../../../src/main/ledger/ledger';
import { MemoryTarget, notice } from '../../support/jobs/fakes';
import { Harness, until } from '../../support/jobs/harness';

const LABELS = 'mem:labels';

/**
 * A ledger whose transition() throws the real SQLite error while `failWhen` says so; the
 * write does not happen, as with a full disk.
 */
function injectFailures(ledger: Ledger, code = 'SQLITE_FULL'): { failWhen: ((state: JobState) => boolean) | null; refused: number } {
  const control = { failWhen: null as ((state: JobState) => boolean) | null, refused: 0 };
  const real = ledger.transition.bind(ledger);
  ledger.transition = (id, state, patch) => {
    if (control.failWhen?.(state)) {
      control.refused += 1;
      throw new Database.SqliteError(code === 'SQLITE_FULL' ? 'database or disk is full' : 'database is locked', code);
    }
    return real(id, state, patch);
  };
  return control;
}

/** Review M2: a ledger that cannot be written pauses printing; it never crashes the agent. */
describe('PrintPipeline when the ledger cannot be written', () => {
  let h: Harness;
  let target: MemoryTarget;
  let errors: JobError[];
  let unhandled: unknown[];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  beforeEach(() => {
    target = new MemoryTarget(LABELS);
    h = new Harness(new Map([[LABELS, target]]), LABELS);
    errors = [];
    unhandled = [];
    process.on('unhandledRejection', onUnhandled);
  });
  afterEach(async () => {
    process.off('unhandledRejection', onUnhandled);
    await h.close();
  });

  const make = () => h.pipeline({ onError: (e) => errors.push(e), ledgerRetryBaseMs: 20, ledgerRetryMaxMs: 40 });

  it('does not spool a job whose `spooling` row could not be written; prints it once when the disk has room again', async () => {
    const control = injectFailures(h.ledger);
    const p = make();
    await p.start();
    control.failWhen = (state) => state === 'spooling';
    const jobs = ['s1', 's2', 's3'].map((s) => p.submitBooking(notice(s))[0]!);
    await until(() => control.refused >= 3); // the first try and at least two retries
    expect(target.spooled).toHaveLength(0);
    expect(errors[0]!.code).toBe('LEDGER_WRITE_FAILED');
    expect(errors[0]!.message).toContain(
      `the disk holding ${h.tmp.dir} is full or read-only: free space, then the agent resumes by itself`,
    );
    control.failWhen = null;
    await p.idle();
    expect(target.shipments()).toEqual(['s1', 's2', 's3']);
    for (const job of jobs) expect(h.ledger.get(job.id)).toMatchObject({ state: 'completed' });
    expect(unhandled).toEqual([]);
  });

  it('records a hand-over it could not write once the ledger is back, without printing again', async () => {
    const control = injectFailures(h.ledger, 'SQLITE_BUSY');
    const p = make();
    await p.start();
    control.failWhen = (state) => state === 'spooled' || state === 'completed';
    const [job] = p.submitBooking(notice('s1'));
    await until(() => target.spooled.length === 1 && control.refused >= 2);
    expect(h.ledger.get(job!.id)).toMatchObject({ state: 'spooling', spoolAttempted: true });
    expect(errors[0]!.message).toContain('another process holds ledger.sqlite locked');
    control.failWhen = null;
    await until(() => h.ledger.get(job!.id)!.state === 'completed');
    // Later work goes on as usual.
    p.submitBooking(notice('s2'));
    await p.idle();
    expect(target.shipments()).toEqual(['s1', 's2']);
    expect(unhandled).toEqual([]);
  });

  it('survives failing writes on every step (fetch, retry, failure) and ends with each label printed once', async () => {
    const control = injectFailures(h.ledger);
    const p = make();
    await p.start();
    let n = 0;
    control.failWhen = () => ++n % 3 === 0; // every third write fails, whatever it is
    for (let i = 0; i < 8; i++) p.submitBooking(notice(`s${i}`));
    await until(() => target.spooled.length === 8, 10_000);
    control.failWhen = null;
    await until(() => h.ledger.counts().completed === 8, 10_000);
    expect([...target.shipments()].sort()).toEqual(Array.from({ length: 8 }, (_, i) => `s${i}`).sort());
    expect(unhandled).toEqual([]);
  });
});

/** Every failed step takes one path; one that threw something unexpected parks its line, it never spins or escapes. */
describe('PrintPipeline when a step throws something unexpected', () => {
  let h: Harness;
  let target: MemoryTarget;
  let unhandled: unknown[];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  beforeEach(() => {
    target = new MemoryTarget(LABELS);
    h = new Harness(new Map([[LABELS, target]]), LABELS);
    unhandled = [];
    process.on('unhandledRejection', onUnhandled);
  });
  afterEach(async () => {
    process.off('unhandledRejection', onUnhandled);
    await h.close();
  });

  it('parks the line with backoff, says so once, and prints the label once when the step works again', async () => {
    let thrown = 0;
    const real = h.ledger.transition.bind(h.ledger);
    h.ledger.transition = (id, state, patch) => {
      if (state === 'fetching' && thrown < 4) {
        thrown += 1;
        throw new TypeError('a bug in a ledger write');
      }
      return real(id, state, patch);
    };
    const errors: JobError[] = [];
    const p = h.pipeline({ onError: (e) => errors.push(e), retryBaseMs: 100, retryMaxMs: 400 });
    await p.start();
    const [job] = p.submitBooking(notice('s1'));
    await until(() => thrown >= 1);
    // Parked: no second try in the same turn, nor before the backoff.
    await new Promise((r) => setTimeout(r, 10));
    expect(thrown).toBe(1);
    expect(p.downPrinters()).toEqual([expect.objectContaining({ target: LABELS, advice: 'a bug in a ledger write' })]);
    await until(() => target.spooled.length === 1, 5000);
    await p.idle();
    expect(thrown).toBe(4);
    expect(target.shipments()).toEqual(['s1']);
    expect(h.ledger.get(job!.id)).toMatchObject({ state: 'completed' });
    expect(errors.map((e) => e.code)).toEqual(['PIPELINE_STEP_FAILED']); // once, not at every try
    expect(errors[0]!.message).toMatch(/^Printing stopped on an unexpected error \(a bug in a ledger write\); it tries again by itself\./);
    expect(unhandled).toEqual([]);
  });
});
