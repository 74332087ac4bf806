import type { JobState, JobView } from '../../../shared/domain';
import type { PrinterTarget } from '../../printing/target';
import type { Heartbeat } from '../bus/presence';

/**
 * What a station's heartbeat tells the site, gathered from its job changes and its
 * printers: the queue, the last print, the failures of the last 30 minutes and each routed
 * printer's readiness in words. The same figures feed the station's /metrics.
 */

const FAILURE_WINDOW_MS = 30 * 60_000;
const WAITING: readonly JobState[] = ['queued', 'fetching', 'spooling'];

export interface StationActivityOptions {
  readonly counts: () => Record<JobState, number>;
  /** The printers the routing can send to. */
  readonly printers: () => readonly string[];
  readonly targetFor: (uri: string) => PrinterTarget;
  /** The station's scale and its state for the heartbeat; null without one. @default none */
  readonly scale?: () => Heartbeat['scale'];
  /** @default Date.now */
  readonly now?: () => number;
}

export class StationActivity {
  private lastPrint: { shipmentId: string; reference: string | null; at: string } | null = null;
  private failures: number[] = [];
  private readonly failedJobs = new Set<string>();

  constructor(private readonly options: StationActivityOptions) {}

  private get now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** Every job change (the pipeline's onJobChange). */
  job(job: JobView): void {
    if (job.state === 'spooled' || job.state === 'completed') {
      this.lastPrint = { shipmentId: job.shipmentId, reference: job.reference, at: new Date(this.now).toISOString() };
    }
    if (job.state === 'failed' && !this.failedJobs.has(job.id)) {
      this.failedJobs.add(job.id);
      this.failures.push(this.now);
    }
  }

  failures30m(): number {
    const since = this.now - FAILURE_WINDOW_MS;
    this.failures = this.failures.filter((t) => t >= since);
    if (this.failures.length === 0) this.failedJobs.clear();
    return this.failures.length;
  }

  queued(): number {
    const counts = this.options.counts();
    return WAITING.reduce((sum, state) => sum + (counts[state] ?? 0), 0);
  }

  async printers(): Promise<Heartbeat['printers']> {
    const uris = [...new Set(this.options.printers())].filter((u) => u !== '');
    return Promise.all(
      uris.map(async (uri) => {
        try {
          const readiness = await this.options.targetFor(uri).readiness();
          return { uri, ready: readiness.ready, words: readiness.ready ? 'ready' : (readiness.detail ?? 'not ready') };
        } catch (error) {
          return { uri, ready: false, words: error instanceof Error ? error.message : String(error) };
        }
      }),
    );
  }

  async heartbeat(): Promise<Heartbeat> {
    return {
      role: 'station',
      printers: await this.printers(),
      queued: this.queued(),
      lastPrint: this.lastPrint,
      failures30m: this.failures30m(),
      scale: this.options.scale?.() ?? null,
    };
  }
}
