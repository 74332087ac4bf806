import type { JobState, JobView } from '../shared/domain';
import { PRINTER_KIND_WORDS_TABLE } from '../shared/printer-kinds';
import { describeTarget, targetKind } from './format';
import { documentWords } from './words';

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

export function describeJob(job: JobView): string {
  const kind = targetKind(job.target);
  // What "completed" means depends on the printer (its registry's words): only a spooler can say it printed.
  const state = job.state === 'completed' && kind ? PRINTER_KIND_WORDS_TABLE[kind].completed : JOB_STATE_WORDS[job.state];
  const base = `${documentWords(job.documentType)} → ${describeTarget(job.target)}: ${state}`;
  const requestId = job.requestId && job.reason && !job.reason.includes(job.requestId) ? ` (request id ${job.requestId})` : '';
  if (job.state === 'failed' && job.reason) return `${base}. ${job.reason}${requestId}`;
  // A job waiting for a retry says why it waits ("label not ready yet; retrying in 2 s").
  if (isActive(job.state) && job.reason) return `${base}: ${job.reason}${requestId}`;
  return base;
}

export const isActive = (state: JobState): boolean => state === 'queued' || state === 'fetching' || state === 'spooling';
