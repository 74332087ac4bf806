import { afterEach, describe, expect, it } from 'vitest';
import type { JobState } from '../../../src/shared/domain';
import type { JobPatch } from '../../../src/main/ledger/job-record';
import type { Ledger } from '../../../src/main/ledger/ledger';
import { start, stop } from '../../../src/main/jobs/commands/start';
import { submitBooking } from '../../../src/main/jobs/commands/submit';
import { Engine } from '../../../src/main/jobs/engine';
import type { Entry } from '../../../src/main/jobs/lane';
import type { StepOutcome } from '../../../src/main/jobs/outcomes';
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

/**
 * A step that always fails, put in the engine's place of the real one: it throws at once, its
 * promise rejects, or it returns a fault, as a bug in it would. With a backoff far longer than
 * the test, the line must be parked after the first failure: each job started at most once, then no
 * turns at all.
 */
describe('scheduler: a step that always fails', () => {
  let h: Harness;
  let engine: Engine;
  afterEach(async () => {
    await stop(engine);
    await h.close();
  });

  const failures = {
    throws: (): Promise<StepOutcome> => {
      throw new TypeError('a bug in the step');
    },
    rejects: (): Promise<StepOutcome> => Promise.reject(new TypeError('a bug in the step')),
    'returns a fault': (): Promise<StepOutcome> => Promise.resolve({ kind: 'fault', error: new TypeError('a bug in the step') }),
  };
  const cases = (['fetch', 'spool'] as const).flatMap((step) =>
    (Object.keys(failures) as (keyof typeof failures)[]).map((how) => [step, how] as const),
  );

  it.each(cases)('a %s step that %s is started at most once, its job back in line, and the loop goes idle', async (step, how) => {
    h = new Harness(new Map([[LABELS, new MemoryTarget(LABELS)]]), LABELS);
    const errors: string[] = [];
    engine = h.engine({ retryBaseMs: 60_000, retryMaxMs: 60_000, onError: (e) => errors.push(e.code) });
    const starts: { job: string; turn: number }[] = [];
    engine.steps[step] = (entry: Entry) => {
      starts.push({ job: entry.id, turn: engine.scheduler.turns });
      return failures[how]();
    };
    await start(engine);
    const jobs = ['s1', 's2', 's3'].map((id) => submitBooking(engine, notice(id), ['label'])[0]!);
    await until(() => errors.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const turns = engine.scheduler.turns;
    await new Promise((resolve) => setTimeout(resolve, 300));

    // One turn started it, each job at most once: the head to its spooler, or the jobs fetched
    // ahead (the head first) before the first failure came back; none was started again.
    expect(starts[0]!.job).toBe(jobs[0]!.id);
    expect(new Set(starts.map((s) => s.job)).size).toBe(starts.length);
    expect(new Set(starts.map((s) => s.turn))).toEqual(new Set([starts[0]!.turn]));
    if (step === 'spool') expect(starts).toHaveLength(1);
    // No spin: not one turn more while the line waits out its backoff.
    expect(engine.scheduler.turns).toBe(turns);
    expect(turns).toBeLessThan(10);
    const lane = engine.lanes.get(LABELS)!;
    expect(lane.down?.fault).toBe(true);
    // The job is back in line as it was before the step (not left mid-step), at its head.
    expect(lane.entries.map((e) => e.id)).toEqual(jobs.map((j) => j.id));
    // (The jobs behind a head that cannot be spooled were fetched ahead meanwhile.)
    const phase = step === 'fetch' ? 'waiting' : 'ready';
    expect(lane.entries.map((e) => e.phase)).toEqual([phase, phase, phase]);
    expect(errors).toEqual(['PIPELINE_STEP_FAILED']);
    for (const job of jobs) expect(h.ledger.get(job.id)!.state).not.toBe('failed');
  });
});
