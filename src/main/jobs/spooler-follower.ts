import type { PrinterTarget, SpoolerJobState } from '../printing/target';
import { backoffDelay } from '../retry/backoff';
import { SPOOLER_FOLLOW } from '../retry/policies';

export interface FollowedJob {
  readonly jobId: string;
  readonly spoolerJobId: string;
  readonly target: PrinterTarget;
}

export type FollowOutcome = 'completed' | 'aborted' | 'canceled' | 'lost' | 'vanished';

export interface SpoolerFollowerOptions {
  /** @default 500 */
  readonly intervalMs?: number;
  /**
   * While jobs are in flight but none moves (a printer that cannot be reached holds them),
   * the interval doubles up to this; any change, or a new job to follow, brings it back to
   * intervalMs. @default 5000
   */
  readonly maxIntervalMs?: number;
  /**
   * How long nothing must move before the interval starts doubling: a label printing for a
   * few seconds is still seen completed within intervalMs. @default 10000
   */
  readonly backOffAfterMs?: number;
  /** Spooler requests in flight at once (jobState per job, or jobStates per target). @default 4 */
  readonly concurrency?: number;
  /** Consecutive `unknown` answers after which the spooler has forgotten the job. @default 3 */
  readonly unknownLimit?: number;
  readonly onOutcome: (job: FollowedJob, outcome: FollowOutcome) => void;
  /** The outcomes one answer (a Get-Jobs for a queue) settled, in one call. @default each through onOutcome */
  readonly onOutcomes?: (outcomes: ReadonlyArray<{ readonly job: FollowedJob; readonly outcome: FollowOutcome }>) => void;
  /**
   * What holds up a job still at the spooler changed (target.jobNote: the printer cannot be
   * reached…), or cleared (null). Called on changes only.
   */
  readonly onNote?: (job: FollowedJob, note: string | null) => void;
}

/**
 * Follows spooled jobs until the spooler says completed or aborted. One timer polls every
 * followed job per tick (not a timer per job), with bounded concurrency.
 */
export class SpoolerFollower {
  private readonly jobs = new Map<string, FollowedJob & { unknown: number; note: string | null; last: SpoolerJobState | null }>();
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private stopped = false;
  private readonly intervalMs: number;
  private readonly concurrency: number;
  private readonly unknownLimit: number;
  private readonly maxIntervalMs: number;
  /** The wait before the next tick: intervalMs, doubled after each tick in which nothing moved (after backOffAfterMs). */
  private delayMs: number;
  /** Ticks in a row in which nothing moved, after backOffAfterMs: SPOOLER_FOLLOW's retry index. */
  private stillTicks = 0;
  private readonly backOffAfterMs: number;
  /** When a followed job last changed state, or a job was added. */
  private lastMoveAt = Date.now();
  /** Whether any followed job's state changed in the current tick. */
  private moved = false;

  constructor(private readonly options: SpoolerFollowerOptions) {
    this.intervalMs = options.intervalMs ?? 500;
    this.concurrency = Math.max(1, options.concurrency ?? 4);
    this.unknownLimit = Math.max(1, options.unknownLimit ?? 3);
    this.maxIntervalMs = Math.max(this.intervalMs, options.maxIntervalMs ?? 5_000);
    this.delayMs = this.intervalMs;
    this.backOffAfterMs = Math.max(0, options.backOffAfterMs ?? 10_000);
  }

  follow(job: FollowedJob): void {
    if (this.stopped) return;
    this.jobs.set(job.jobId, { ...job, unknown: 0, note: null, last: null });
    // A new job is followed at the short interval, also when a long wait was armed.
    this.delayMs = this.intervalMs;
    this.stillTicks = 0;
    this.lastMoveAt = Date.now();
    if (this.timer && !this.ticking) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.arm();
  }

  /** Stop following a job (withdrawn from the spooler): no outcome is told for it any more. */
  forget(jobId: string): void {
    this.jobs.delete(jobId);
  }

  get size(): number {
    return this.jobs.size;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.ticking;
  }

  private arm(): void {
    if (this.timer || this.ticking || this.stopped || this.jobs.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.moved = false;
      this.ticking = this.tick().finally(() => {
        this.ticking = null;
        // Backs off while nothing moves: 2,198 Get-Jobs in 20 minutes for labels held by an
        // unreachable printer before.
        if (this.moved) this.lastMoveAt = Date.now();
        const still = Date.now() - this.lastMoveAt >= this.backOffAfterMs;
        this.stillTicks = still ? this.stillTicks + 1 : 0;
        this.delayMs = backoffDelay({ ...SPOOLER_FOLLOW, baseMs: this.intervalMs, maxMs: this.maxIntervalMs }, this.stillTicks);
        this.arm();
      });
    }, this.delayMs);
  }

  /**
   * A target with jobStates is asked once a tick for all its followed jobs (CUPS: one Get-Jobs
   * per queue); hundreds of per-job requests a tick slowed the scheduler down for the labels
   * still being spooled in a burst. Other targets are asked job by job, as before.
   */
  private async tick(): Promise<void> {
    type Entry = FollowedJob & { unknown: number; note: string | null; last: SpoolerJobState | null };
    const tasks: Array<() => Promise<void>> = [];
    const batched = new Map<PrinterTarget, Entry[]>();
    for (const job of this.jobs.values()) {
      if (typeof job.target.jobStates === 'function') {
        const list = batched.get(job.target) ?? [];
        list.push(job);
        batched.set(job.target, list);
      } else {
        tasks.push(async () => {
          let state: SpoolerJobState;
          try {
            state = await job.target.jobState(job.spoolerJobId);
          } catch {
            return; // the spooler could not be asked this time; ask again next tick
          }
          this.settle(job, state);
        });
      }
    }
    for (const [target, jobs] of batched) {
      tasks.unshift(async () => {
        let states: ReadonlyMap<string, SpoolerJobState>;
        try {
          states = await target.jobStates!(jobs.map((job) => job.spoolerJobId));
        } catch {
          return; // as above, for every job of this target
        }
        const settled: Array<{ job: FollowedJob; outcome: FollowOutcome }> = [];
        for (const job of jobs) {
          // Forgotten while the spooler was being asked (withdrawn): its end is told elsewhere.
          if (this.jobs.get(job.jobId) !== job) continue;
          const state = states.get(job.spoolerJobId);
          // An id the answer left out was not asked about: not evidence the job is gone.
          const outcome = state === undefined || this.stopped ? null : this.outcomeOf(job, state);
          if (outcome) {
            this.jobs.delete(job.jobId);
            settled.push({ job, outcome });
          } else if (state !== undefined) this.noted(job);
        }
        if (settled.length === 0) return;
        // A batch's members end together: one call, so their rows are written in one commit.
        if (this.options.onOutcomes) this.options.onOutcomes(settled);
        else for (const { job, outcome } of settled) this.options.onOutcome(job, outcome);
      });
    }
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < tasks.length && !this.stopped) await tasks[next++]!();
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, tasks.length) }, worker));
  }

  private settle(job: FollowedJob & { unknown: number; note: string | null; last: SpoolerJobState | null }, state: SpoolerJobState): void {
    if (this.stopped || this.jobs.get(job.jobId) !== job) return;
    const outcome = this.outcomeOf(job, state);
    if (outcome) {
      this.jobs.delete(job.jobId);
      this.options.onOutcome(job, outcome);
    } else this.noted(job);
  }

  /** Tells onNote when what holds up a job still in flight changed. */
  private noted(job: FollowedJob & { note: string | null }): void {
    if (this.stopped || !this.options.onNote) return;
    const note = job.target.jobNote?.(job.spoolerJobId) ?? null;
    if (note === job.note) return;
    job.note = note;
    this.options.onNote(job, note);
  }

  private outcomeOf(job: { unknown: number; last: SpoolerJobState | null }, state: SpoolerJobState): FollowOutcome | null {
    if (state !== job.last) this.moved = true;
    job.last = state;
    if (state === 'completed' || state === 'aborted' || state === 'canceled' || state === 'lost') return state;
    if (state === 'unknown') {
      job.unknown += 1;
      return job.unknown >= this.unknownLimit ? 'vanished' : null;
    }
    job.unknown = 0;
    return null;
  }
}
