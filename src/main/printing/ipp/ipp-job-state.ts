/**
 * What an IPP job's report means to the follower (CUPS queues and IPP Everywhere printers
 * alike): completed only when the printer said it finished the job, "lost" when it ended
 * without that, a refusal told apart from a person's cancel, and the printer's own words
 * about an ended job (jobMessage) or about what holds up one in flight (jobNote).
 */
import type { IppJobReport, IppJobState } from './ipp';
import { deviceUnreachable, printerProblem } from './ipp-printer-state';
import type { SpoolerJobState } from '../target';

/**
 * Reasons CUPS gives a job it ended without the printer having finished it: the printer
 * restarted mid-job and no longer knows it (`cups-ipp-missing-job-history`), or the
 * backend lost track of it. Completed with one of these is "may not have printed".
 */
const LOST_REASONS = new Set(['cups-ipp-missing-job-history', 'job-completed-with-errors', 'job-data-insufficient']);

/** job-state-reasons saying a person (or the printer's own panel) canceled the job. */
const CANCELED_BY = new Set(['job-canceled-by-user', 'job-canceled-by-operator', 'job-canceled-at-device']);

/** A job report as the follower's state: completed only when the printer said it finished the job. */
export function reportState(report: Pick<IppJobReport, 'state' | 'reasons' | 'printerReasons' | 'printerMessage'>): SpoolerJobState {
  if (report.state === 'completed' && [...report.printerReasons, ...report.reasons].some((r) => LOST_REASONS.has(r))) return 'lost';
  // CUPS cancels a job its printer refused ("Printer cannot print with supplied options"),
  // with no one's cancel among its reasons: that is a failure to show, not an operator's cancel.
  if (report.state === 'canceled' && report.printerMessage.trim() !== '' && !report.reasons.some((r) => CANCELED_BY.has(r))) {
    return 'aborted';
  }
  return toSpoolerState(report.state);
}

/** The printer's own words about how a job ended: its message, else CUPS's, else its reasons. */
export function endWords(report: IppJobReport): string | null {
  const own = report.printerMessage.trim() || report.message.trim();
  if (own && !/^(job )?(completed|canceled|aborted)\.?$/i.test(own)) return own;
  if (report.printerReasons.includes('cups-ipp-missing-job-history'))
    return 'the printer no longer knows the job (it restarted while printing it)';
  // No words: the printer's job-state-reasons say it (aborted-by-system, document-format-error…).
  const reasons = report.reasons.filter((r) => !ROUTINE_REASONS.has(r));
  return reasons.length > 0 ? `job-state-reasons: ${reasons.join(', ')}` : null;
}

/** job-state-reasons every job passes through: they say nothing about how it ended. */
const ROUTINE_REASONS = new Set([
  'none',
  'processing-to-stop-point',
  'job-completed-successfully',
  'job-printing',
  'job-incoming',
  'job-queued',
]);

export function toSpoolerState(state: IppJobState): SpoolerJobState {
  switch (state) {
    case 'pending':
    case 'pending-held':
      return 'pending';
    case 'processing':
    case 'processing-stopped':
      return 'printing';
    case 'completed':
    case 'aborted':
    case 'canceled':
      return state;
    default:
      return 'unknown';
  }
}

/**
 * The printer's words per spooler job id: about a job it ended (read once, by jobMessage)
 * and about what holds up a job still in flight (jobNote).
 */
export class JobWords {
  private readonly ended = new Map<string, string>();
  private readonly notes = new Map<string, string>();

  /**
   * The follower's state for a report (`missing`: the state for a job the printer no longer
   * knows: 'unknown' at CUPS, which forgets finished jobs; 'lost' at a printer that forgot
   * a job it never said it finished); its words are kept.
   */
  settled(spoolerJobId: string, report: IppJobReport | null, missing: SpoolerJobState = 'unknown'): SpoolerJobState {
    this.notes.delete(spoolerJobId);
    if (!report) return missing;
    const state = reportState(report);
    // Kept for the ends whose reason names them (spooled-jobs.ts reads them once).
    if (state === 'aborted' || state === 'lost') {
      const words = endWords(report);
      if (words) this.ended.set(spoolerJobId, words);
    } else if (state === 'pending' || state === 'printing') {
      // CUPS keeps a job for an unreachable printer `processing`, its printer's words on it.
      const held = { state: 'processing' as const, stateReasons: report.printerReasons, stateMessage: report.printerMessage };
      const problem = deviceUnreachable(held) ? printerProblem(held) : null;
      if (problem) this.notes.set(spoolerJobId, problem);
    }
    return state;
  }

  /** The jobs queued behind one its printer holds up wait for the same printer (same note). */
  holdQueued(spoolerJobIds: readonly string[], states: ReadonlyMap<string, SpoolerJobState>): void {
    const held = spoolerJobIds.map((id) => this.notes.get(id)).find((note) => note !== undefined);
    if (held) for (const id of spoolerJobIds) if (states.get(id) === 'pending') this.notes.set(id, held);
  }

  /** Sets the note of jobs held up by the printer as a whole (a direct printer's own state), or clears it. */
  noteAll(spoolerJobIds: readonly string[], note: string | null): void {
    for (const id of spoolerJobIds) {
      if (note) this.notes.set(id, note);
      else this.notes.delete(id);
    }
  }

  message(spoolerJobId: string): string | null {
    const words = this.ended.get(spoolerJobId) ?? null;
    this.ended.delete(spoolerJobId);
    return words;
  }

  note(spoolerJobId: string): string | null {
    return this.notes.get(spoolerJobId) ?? null;
  }
}
