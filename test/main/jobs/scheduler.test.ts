import { afterEach, describe, expect, it } from 'vitest';
import type { JobState } from '../../../src/shared/domain';
import type { JobPatch } from '../../../src/main/ledger/job-record';
import type { Ledger } from '../../../src/main/ledger/ledger';
import { Harness, until } from '../../support/jobs/harness';
import { MemoryTarget, notice } from '../../support/jobs/fakes';

const LABELS = 'memory:labels';

/** The real ledger, except that a job's `fetching` write throws a bug (not a ledger failure) for the shipments given. */
function failingFetchWrites(ledger: Ledger, shipments: ReadonlySet<string>, onAttempt: (id: string) => void): Ledger {
  return new Proxy(ledger, {
    get(target, property, receiver) {
      if (property === 'transition') {
        return (id: string, state: JobState, patch?: JobPatch) => {
          const job = target.get(id);
          if (state === 'fetching' && job && shipments.has(job.shipmentId)) {
            onAttempt(id);
            throw new TypeError('a bug in the fetch step');
          }
          return target.transition(id, state, patch);
        };
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

describe('scheduler', () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it('attempts a step that fails at once once per turn, and the turns it causes are bounded by its backoff', async () => {
    h = new Harness(new Map([[LABELS, new MemoryTarget(LABELS)]]), LABELS);
    const attemptTurns: number[] = [];
    const ledger = failingFetchWrites(h.ledger, new Set(['s1', 's2']), () => attemptTurns.push(p.turns));
    const errors: string[] = [];
    const p = h.pipeline({ ledger, retryBaseMs: 20, retryMaxMs: 40, onError: (e) => errors.push(e.code) });
    await p.start();
    p.submitBooking(notice('s1'));
    p.submitBooking(notice('s2'));
    await until(() => attemptTurns.length > 0);
    // The first turn that picked a failing job picked it once, and no other job of its line.
    expect(attemptTurns).toEqual([attemptTurns[0]]);

    await new Promise((resolve) => setTimeout(resolve, 400));
    // Never two attempts in one turn…
    expect(new Set(attemptTurns).size).toBe(attemptTurns.length);
    // …and the line waits out its backoff (20 ms doubling to 40 ms): about ten tries in 400 ms, not thousands.
    expect(attemptTurns.length).toBeGreaterThan(1);
    expect(attemptTurns.length).toBeLessThan(30);
    expect(p.turns).toBeLessThan(200);
    expect(errors).toEqual(['PIPELINE_STEP_FAILED']);
  });
});
