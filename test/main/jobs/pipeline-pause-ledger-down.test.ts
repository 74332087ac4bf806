import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JobState } from '../../../src/shared/domain';
import { MemoryTarget, ScriptedFetcher, notice } from '../../support/jobs/fakes';
import { Harness, until } from '../../support/jobs/harness';

const LABELS = 'mem:labels';

/** N10: a pause made while the ledger could not be written must not hold a job after the resume. */
describe('PrintPipeline pause and resume while the ledger cannot be written', () => {
  let h: Harness;
  let target: MemoryTarget;
  beforeEach(() => {
    target = new MemoryTarget(LABELS);
    target.spoolDelayMs = 40;
    h = new Harness(new Map([[LABELS, target]]), LABELS);
  });
  afterEach(async () => h.close());

  it('prints every job once after the ledger is back, none left held', async () => {
    const control = { failWhen: null as ((state: JobState) => boolean) | null, refused: 0 };
    const real = h.ledger.transition.bind(h.ledger);
    h.ledger.transition = (id, state, patch) => {
      if (control.failWhen?.(state)) {
        control.refused += 1;
        throw new Database.SqliteError('database or disk is full', 'SQLITE_FULL');
      }
      return real(id, state, patch);
    };
    const fetcher = new ScriptedFetcher();
    const p = h.pipeline({ fetcher, lookahead: 8, onError: () => undefined, ledgerRetryBaseMs: 20, ledgerRetryMaxMs: 40 });
    await p.start();
    const jobs = Array.from({ length: 10 }, (_, i) => p.submitBooking(notice(`s${i}`))[0]!);
    await until(() => target.spooled.length >= 1 && fetcher.calls.length >= 5);
    control.failWhen = () => true; // the disk fills up
    await until(() => control.refused >= 1);
    p.pause(); // the fetched-ahead jobs' `held` rows cannot be written now: they wait for the retry
    p.resume();
    control.failWhen = null; // room again: the deferred writes are replayed after the resume
    await until(() => target.spooled.length === 10, 10_000);
    await p.idle();
    expect(target.shipments()).toEqual(Array.from({ length: 10 }, (_, i) => `s${i}`));
    for (const job of jobs) expect(h.ledger.get(job.id)).toMatchObject({ state: 'completed', held: false });
  });
});
