/**
 * What the tray and the status bar show: ok, paused, error or offline, with the team,
 * the last print and the last error. Derived from events as they happen, so reading it
 * costs nothing.
 */
import { AGENT_ERROR_CODES } from '../../shared/agent-error-codes';
import type { AgentErrorPayload, AgentStatus, JobState, JobView, SettingsView } from '../../shared/domain';
import { ApiError, API_ERROR_CODES } from '../api/errors';
import { toErrorPayload } from '../errors';

const OFFLINE_CODES: ReadonlySet<string> = new Set([API_ERROR_CODES.NETWORK, API_ERROR_CODES.TIMEOUT]);

export class StatusTracker {
  private team: string | null = null;
  private offline = false;
  private lastPrintAt: string | null = null;
  private lastError: AgentErrorPayload | null = null;
  /** The job whose failure is `lastError`, so its retry or cancel clears it. */
  private lastErrorJob: string | null = null;

  constructor(
    private readonly counts: () => Record<JobState, number>,
    private readonly environment: () => SettingsView['environment'],
    private readonly paused: () => boolean,
  ) {}

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

  serviceReached(): void {
    this.offline = false;
    if (this.lastErrorJob === null) this.lastError = null;
  }

  job(job: JobView): void {
    if (job.state === 'spooled' || job.state === 'completed') this.lastPrintAt = job.updatedAt;
    if (job.state === 'failed') {
      this.lastError = { code: AGENT_ERROR_CODES.JOB_FAILED, message: job.reason ?? 'print failed', requestId: job.requestId };
      this.lastErrorJob = job.id;
    } else if (job.id === this.lastErrorJob) {
      this.lastError = null;
      this.lastErrorJob = null;
    }
  }

  snapshot(): AgentStatus {
    const counts = this.counts();
    const paused = this.paused();
    const failed = counts.failed;
    const state = this.offline ? 'offline' : failed > 0 ? 'error' : paused ? 'paused' : 'ok';
    return {
      team: this.team,
      environment: this.environment(),
      state,
      paused,
      lastPrintAt: this.lastPrintAt,
      lastError: this.lastError,
      queued: counts.queued + counts.fetching + counts.spooling,
      failed,
    };
  }
}
