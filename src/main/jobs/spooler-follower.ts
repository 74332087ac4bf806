import type { PrinterTarget, SpoolerJobState } from '../printing/target';

export interface FollowedJob {
  readonly jobId: string;
  readonly spoolerJobId: string;
  readonly target: PrinterTarget;
}

export type FollowOutcome = 'completed' | 'aborted' | 'canceled' | 'vanished';

export interface SpoolerFollowerOptions {
  /** @default 500 */
  readonly intervalMs?: number;
  /** jobState calls in flight at once (each may be an lpstat process). @default 4 */
  readonly concurrency?: number;
  /** Consecutive `unknown` answers after which the spooler has forgotten the job. @default 3 */
  readonly unknownLimit?: number;
  readonly onOutcome: (job: FollowedJob, outcome: FollowOutcome) => void;
}

/**
 * Follows spooled jobs until the spooler says completed or aborted. One timer polls every
 * followed job per tick (not a timer per job), with bounded concurrency.
 */
export class SpoolerFollower {
  private readonly jobs = new Map<string, FollowedJob & { unknown: number }>();
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private stopped = false;
  private readonly intervalMs: number;
  private readonly concurrency: number;
  private readonly unknownLimit: number;

  constructor(private readonly options: SpoolerFollowerOptions) {
    this.intervalMs = options.intervalMs ?? 500;
    this.concurrency = Math.max(1, options.concurrency ?? 4);
    this.unknownLimit = Math.max(1, options.unknownLimit ?? 3);
  }

  follow(job: FollowedJob): void {
    if (this.stopped) return;
    this.jobs.set(job.jobId, { ...job, unknown: 0 });
    this.arm();
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
      this.ticking = this.tick().finally(() => {
        this.ticking = null;
        this.arm();
      });
    }, this.intervalMs);
  }

  private async tick(): Promise<void> {
    const batch = [...this.jobs.values()];
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < batch.length && !this.stopped) {
        const job = batch[next++]!;
        let state: SpoolerJobState;
        try {
          state = await job.target.jobState(job.spoolerJobId);
        } catch {
          continue; // the spooler could not be asked this time; ask again next tick
        }
        if (this.stopped) return;
        const outcome = this.outcomeOf(job, state);
        if (outcome) {
          this.jobs.delete(job.jobId);
          this.options.onOutcome(job, outcome);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, batch.length) }, worker));
  }

  private outcomeOf(job: { unknown: number }, state: SpoolerJobState): FollowOutcome | null {
    if (state === 'completed' || state === 'aborted' || state === 'canceled') return state;
    if (state === 'unknown') {
      job.unknown += 1;
      return job.unknown >= this.unknownLimit ? 'vanished' : null;
    }
    job.unknown = 0;
    return null;
  }
}
