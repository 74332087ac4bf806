import { afterEach, describe, expect, it } from 'vitest';
import { SpoolerFollower, type FollowOutcome, type FollowedJob } from '../../../src/main/jobs/spooler-follower';
import type { PrinterTarget, SpoolerJobState } from '../../../src/main/printing/target';

/**
 * An in-memory spooler: each job's state is set by the test. `batch` decides whether the
 * target offers jobStates; every call is recorded so the tests can count spooler requests.
 */
class MemorySpoolerTarget implements PrinterTarget {
  readonly kind = 'cups' as const;
  readonly needsPdf = true;
  readonly states = new Map<string, SpoolerJobState>();
  readonly singleCalls: string[] = [];
  readonly batchCalls: string[][] = [];
  failBatches = 0;
  /** Ids a batch answer leaves out (a target that could not tell). */
  readonly omit = new Set<string>();
  jobStates?: (ids: readonly string[]) => Promise<ReadonlyMap<string, SpoolerJobState>>;

  constructor(
    readonly uri: string,
    batch: boolean,
  ) {
    if (batch) {
      this.jobStates = async (ids) => {
        this.batchCalls.push([...ids]);
        await new Promise((r) => setTimeout(r, 1));
        if (this.failBatches > 0) {
          this.failBatches -= 1;
          throw new Error('scheduler busy');
        }
        const answer = new Map<string, SpoolerJobState>();
        for (const id of ids) if (!this.omit.has(id)) answer.set(id, this.states.get(id) ?? 'unknown');
        return answer;
      };
    }
  }

  async spool(): Promise<never> {
    throw new Error('not used');
  }

  async jobState(id: string): Promise<SpoolerJobState> {
    this.singleCalls.push(id);
    await new Promise((r) => setTimeout(r, 1));
    return this.states.get(id) ?? 'unknown';
  }

  async findSpooled(): Promise<null> {
    return null;
  }

  async readiness() {
    return { ready: true, detail: null };
  }
}

async function until(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('SpoolerFollower', () => {
  let follower: SpoolerFollower | null = null;
  afterEach(async () => {
    await follower?.stop();
    follower = null;
  });

  function start(options: { intervalMs?: number; unknownLimit?: number; maxIntervalMs?: number; backOffAfterMs?: number } = {}) {
    const outcomes = new Map<string, FollowOutcome>();
    follower = new SpoolerFollower({
      intervalMs: options.intervalMs ?? 10,
      maxIntervalMs: options.maxIntervalMs ?? options.intervalMs ?? 10,
      backOffAfterMs: options.backOffAfterMs ?? 0,
      unknownLimit: options.unknownLimit,
      onOutcome: (job, outcome) => {
        expect(outcomes.has(job.jobId)).toBe(false);
        outcomes.set(job.jobId, outcome);
      },
    });
    return { follower, outcomes };
  }

  function jobsOn(target: PrinterTarget, n: number, prefix = 'j'): FollowedJob[] {
    return Array.from({ length: n }, (_, i) => ({ jobId: `${prefix}${i}`, spoolerJobId: `q-${prefix}${i}`, target }));
  }

  it('asks a target with jobStates once per tick for all its jobs, never job by job', async () => {
    const target = new MemorySpoolerTarget('cups:q', true);
    const jobs = jobsOn(target, 200);
    for (const job of jobs) target.states.set(job.spoolerJobId, 'pending');
    const { follower, outcomes } = start();
    for (const job of jobs) follower.follow(job);

    await until(() => target.batchCalls.length >= 3);
    expect(target.singleCalls).toEqual([]);
    for (const call of target.batchCalls.slice(0, 3)) expect(call.sort()).toEqual(jobs.map((j) => j.spoolerJobId).sort());
    expect(outcomes.size).toBe(0);

    jobs.forEach((job, i) => target.states.set(job.spoolerJobId, i % 3 === 0 ? 'completed' : i % 3 === 1 ? 'aborted' : 'canceled'));
    await until(() => outcomes.size === jobs.length);
    jobs.forEach((job, i) => expect(outcomes.get(job.jobId)).toBe(i % 3 === 0 ? 'completed' : i % 3 === 1 ? 'aborted' : 'canceled'));
    expect(follower.size).toBe(0);
    expect(target.singleCalls).toEqual([]);
    // Finished jobs are no longer asked about: the follower went quiet.
    const calls = target.batchCalls.length;
    await sleep(50);
    expect(target.batchCalls.length).toBe(calls);
  });

  it('backs off while nothing moves (a printer that cannot be reached holds the jobs), and asks at once again for a change or a new job', async () => {
    const target = new MemorySpoolerTarget('cups:q', true);
    const [held, next] = jobsOn(target, 2);
    target.states.set(held!.spoolerJobId, 'printing');
    target.states.set(next!.spoolerJobId, 'pending');
    const { follower, outcomes } = start({ intervalMs: 10, maxIntervalMs: 160, backOffAfterMs: 100 });
    follower.follow(held!);
    await sleep(700);
    // Every 10 ms for the first 100 ms, then 20, 40, 80, 160, 160… ms apart: about 15 answers in 700 ms, not 70.
    expect(target.batchCalls.length).toBeGreaterThanOrEqual(8);
    expect(target.batchCalls.length).toBeLessThanOrEqual(20);

    // A new job is asked about at the short interval again.
    const before = target.batchCalls.length;
    follower.follow(next!);
    await until(() => target.batchCalls.length > before, 100);
    target.states.set(held!.spoolerJobId, 'completed');
    target.states.set(next!.spoolerJobId, 'completed');
    await until(() => outcomes.size === 2, 1_000);
  });

  it('asks only about the jobs still followed after some finish', async () => {
    const target = new MemorySpoolerTarget('cups:q', true);
    const jobs = jobsOn(target, 4);
    for (const job of jobs) target.states.set(job.spoolerJobId, 'printing');
    target.states.set('q-j0', 'completed');
    const { follower, outcomes } = start();
    for (const job of jobs) follower.follow(job);
    await until(() => outcomes.has('j0') && target.batchCalls.length >= 2);
    expect(target.batchCalls.at(-1)!.sort()).toEqual(['q-j1', 'q-j2', 'q-j3']);
  });

  it('reports vanished after unknownLimit unknown answers in a row, and a known state resets the count', async () => {
    const target = new MemorySpoolerTarget('cups:q', true);
    const [gone, flaky] = jobsOn(target, 2);
    target.states.set(flaky!.spoolerJobId, 'unknown');
    const { follower, outcomes } = start({ unknownLimit: 3 });
    follower.follow(gone!);
    follower.follow(flaky!);
    await until(() => target.batchCalls.length >= 2);
    target.states.set(flaky!.spoolerJobId, 'pending');
    await until(() => outcomes.has('j0'));
    expect(outcomes.get('j0')).toBe('vanished');
    // gone needed exactly 3 batch answers; flaky's count restarted at the 'pending' answer.
    expect(outcomes.has('j1')).toBe(false);
    target.states.set(flaky!.spoolerJobId, 'unknown');
    await until(() => outcomes.has('j1'));
    expect(outcomes.get('j1')).toBe('vanished');
  });

  it('treats a failed jobStates call and an id left out of the answer as "not asked", not as unknown', async () => {
    const target = new MemorySpoolerTarget('cups:q', true);
    const [job] = jobsOn(target, 1);
    target.failBatches = 5;
    target.omit.add(job!.spoolerJobId);
    const { follower, outcomes } = start({ unknownLimit: 1 });
    follower.follow(job!);
    await until(() => target.batchCalls.length >= 8);
    expect(outcomes.size).toBe(0);
    target.omit.clear();
    target.states.set(job!.spoolerJobId, 'completed');
    await until(() => outcomes.has('j0'));
    expect(outcomes.get('j0')).toBe('completed');
  });

  it('groups by target: one jobStates call per batch target, jobState per job for the others', async () => {
    const a = new MemorySpoolerTarget('cups:a', true);
    const b = new MemorySpoolerTarget('cups:b', true);
    const plain = new MemorySpoolerTarget('folder:/x', false);
    const jobs = [...jobsOn(a, 5, 'a'), ...jobsOn(b, 3, 'b'), ...jobsOn(plain, 3, 'p')];
    for (const job of jobs) (job.target as MemorySpoolerTarget).states.set(job.spoolerJobId, 'pending');
    const { follower, outcomes } = start({ intervalMs: 30 });
    for (const job of jobs) follower.follow(job);
    await until(() => a.batchCalls.length >= 1 && b.batchCalls.length >= 1 && plain.singleCalls.length >= 3);
    await until(() => a.batchCalls.length >= 2);
    // One call per tick each: after the second tick of a, b and plain have had at most two.
    expect(b.batchCalls.length).toBeLessThanOrEqual(a.batchCalls.length + 1);
    expect(plain.singleCalls.length).toBeLessThanOrEqual(3 * (a.batchCalls.length + 1));
    expect(a.batchCalls[0]!.length).toBe(5);
    expect(b.batchCalls[0]!.length).toBe(3);
    expect(a.singleCalls).toEqual([]);
    expect(b.singleCalls).toEqual([]);

    for (const job of jobs) (job.target as MemorySpoolerTarget).states.set(job.spoolerJobId, 'completed');
    await until(() => outcomes.size === jobs.length);
    expect([...outcomes.values()].every((o) => o === 'completed')).toBe(true);
  });

  it('reports nothing after stop(), even for an answer that arrives during it', async () => {
    const target = new MemorySpoolerTarget('cups:q', true);
    const jobs = jobsOn(target, 3);
    for (const job of jobs) target.states.set(job.spoolerJobId, 'pending');
    const { follower, outcomes } = start();
    for (const job of jobs) follower.follow(job);
    await until(() => target.batchCalls.length >= 1);
    for (const job of jobs) target.states.set(job.spoolerJobId, 'completed');
    await follower.stop();
    const calls = target.batchCalls.length;
    await sleep(50);
    expect(outcomes.size).toBe(0);
    expect(target.batchCalls.length).toBe(calls);
    follower.follow(jobsOn(target, 1, 'late')[0]!);
    expect(follower.size).toBe(3);
  });
});
