/**
 * What the tray and the status bar show: ok, paused, error or offline, with the team,
 * the last print and the last error. Derived from events as they happen, so reading it
 * costs nothing.
 */
import { AGENT_ERROR_CODES } from '../../shared/agent-error-codes';
import type { AgentErrorPayload, AgentStatus, JobState, JobView, PrinterProblem, SettingsView } from '../../shared/domain';
import { ApiError, API_ERROR_CODES } from '../api/errors';
import { toErrorPayload } from '../errors';

const OFFLINE_CODES: ReadonlySet<string> = new Set([API_ERROR_CODES.NETWORK, API_ERROR_CODES.TIMEOUT]);

export interface StatusTrackerOptions {
  /**
   * How long a failed job keeps the state at 'error' (unless it is retried or canceled
   * first). The failed job stays in history and in `failed`; the tray must not say "needs
   * attention" for days over a job nobody will retry. @default 1_800_000 (30 minutes)
   */
  readonly errorWindowMs?: number;
  /** @default Date.now */
  readonly now?: () => number;
  /** Printers not ready now, in their own words (PrinterWatch). @default none */
  readonly printerProblems?: () => readonly PrinterProblem[];
  /** The station's scale and its state (ScaleWatch); null without one. @default none */
  readonly scale?: () => AgentStatus['scale'] | null;
}

export class StatusTracker {
  private team: string | null = null;
  private offline = false;
  private lastPrintAt: string | null = null;
  private lastError: AgentErrorPayload | null = null;
  /** The ledger cannot be written (disk full, read-only): every line is parked until it can. */
  private ledgerFailure: AgentErrorPayload | null = null;
  /** The job whose failure is `lastError`, so its retry or cancel clears it. */
  private lastErrorJob: string | null = null;
  /** Jobs that failed while this agent ran, by id, with when (epoch ms): the current trouble. */
  private readonly recentFailures = new Map<string, number>();
  private readonly errorWindowMs: number;
  private readonly now: () => number;
  private readonly printerProblems: () => readonly PrinterProblem[];
  private readonly scale: () => AgentStatus['scale'] | null;

  constructor(
    private readonly counts: () => Record<JobState, number>,
    private readonly environment: () => SettingsView['environment'],
    private readonly paused: () => boolean,
    options: StatusTrackerOptions = {},
  ) {
    this.errorWindowMs = options.errorWindowMs ?? 30 * 60_000;
    this.now = options.now ?? Date.now;
    this.printerProblems = options.printerProblems ?? (() => []);
    this.scale = options.scale ?? (() => null);
  }

  connected(team: string): void {
    this.team = team;
    this.offline = false;
    this.lastError = null;
  }

  /** A failed call to the service: offline when it could not be reached at all. */
  serviceFailed(error: unknown): void {
    this.offline = error instanceof ApiError && OFFLINE_CODES.has(error.code);
    this.lastError = toErrorPayload(error);
    this.lastErrorJob = null;
  }

  /** The ledger refused a write: the station shows the error, and what to do, until ledgerBack(). */
  ledgerFailed(error: unknown): void {
    this.ledgerFailure = toErrorPayload(error);
  }

  /** The ledger takes writes again: the lines run by themselves. */
  ledgerBack(): void {
    this.ledgerFailure = null;
  }

  serviceReached(): void {
    this.offline = false;
    if (this.lastErrorJob === null) this.lastError = null;
  }

  job(job: JobView): void {
    if (job.state === 'spooled' || job.state === 'completed') this.lastPrintAt = job.updatedAt;
    if (job.state === 'failed') {
      const failed = { code: AGENT_ERROR_CODES.JOB_FAILED, message: job.reason ?? 'print failed', requestId: job.requestId };
      this.lastError = job.reasonMessage ? { ...failed, agentMessage: job.reasonMessage } : failed;
      this.lastErrorJob = job.id;
      this.recentFailures.set(job.id, this.now());
    } else {
      this.recentFailures.delete(job.id);
      if (job.id === this.lastErrorJob) {
        this.lastError = null;
        this.lastErrorJob = null;
      }
    }
  }

  /** Failures within the window; older ones are history, not the station's current state. */
  private hasRecentFailure(): boolean {
    const since = this.now() - this.errorWindowMs;
    for (const [id, at] of this.recentFailures) {
      if (at >= since) return true;
      this.recentFailures.delete(id);
      if (id === this.lastErrorJob) {
        this.lastError = null;
        this.lastErrorJob = null;
      }
    }
    return false;
  }

  snapshot(): AgentStatus {
    const counts = this.counts();
    const paused = this.paused();
    const failed = counts.failed;
    // A ledger that cannot be written stops every line: that outranks being offline.
    const state = this.ledgerFailure ? 'error' : this.offline ? 'offline' : this.hasRecentFailure() ? 'error' : paused ? 'paused' : 'ok';
    return {
      team: this.team,
      environment: this.environment(),
      state,
      paused,
      lastPrintAt: this.lastPrintAt,
      lastError: this.ledgerFailure ?? this.lastError,
      queued: counts.queued + counts.fetching + counts.spooling,
      failed,
      printerProblems: this.printerProblems(),
      ...scaleOf(this.scale()),
    };
  }
}

/** The status carries a scale only when the station has one. */
function scaleOf(scale: AgentStatus['scale'] | null): Pick<AgentStatus, 'scale'> {
  return scale ? { scale } : {};
}
