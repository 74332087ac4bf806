import type { JobState, JobView } from '../shared/domain';
import { describeTarget, targetKind } from './format';
import { documentWords, type PrinterKind } from './words';

/** Honest words: `spooled` is not `printed`. */
export const JOB_STATE_WORDS = {
  queued: 'queued',
  fetching: 'fetching the PDF',
  spooling: 'sending to the printer',
  spooled: 'spooled (sent to the printer)',
  completed: 'completed (printed or saved)',
  failed: 'failed',
  canceled: 'canceled',
} as const satisfies Readonly<Record<JobState, string>>;

/** What "completed" means depends on the printer: only a spooler can say it printed. */
const COMPLETED_WORDS = {
  folder: 'saved',
  service: 'accepted by the service printer',
  windows: 'handed to the Windows spooler',
  cups: 'printed (the spooler reports it done)',
} as const satisfies Readonly<Record<PrinterKind, string>>;

export function describeJob(job: JobView): string {
  const kind = targetKind(job.target);
  const state = job.state === 'completed' && kind ? COMPLETED_WORDS[kind] : JOB_STATE_WORDS[job.state];
  const base = `${documentWords(job.documentType)} → ${describeTarget(job.target)}: ${state}`;
  const requestId = job.requestId && job.reason && !job.reason.includes(job.requestId) ? ` (request id ${job.requestId})` : '';
  if (job.state === 'failed' && job.reason) return `${base}. ${job.reason}${requestId}`;
  // A job waiting for a retry says why it waits ("label not ready yet; retrying in 2 s").
  if (isActive(job.state) && job.reason) return `${base}: ${job.reason}${requestId}`;
  return base;
}

export const isActive = (state: JobState): boolean => state === 'queued' || state === 'fetching' || state === 'spooling';
