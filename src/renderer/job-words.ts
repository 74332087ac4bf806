import type { JobState, JobView } from '../shared/domain';
import { describeTarget } from './format';

/** Honest words: `spooled` is not `printed`. */
export const JOB_STATE_WORDS: Readonly<Record<JobState, string>> = {
  queued: 'queued',
  fetching: 'fetching the PDF',
  spooling: 'sending to the printer',
  spooled: 'spooled (sent to the printer)',
  completed: 'completed (printed or saved)',
  failed: 'failed',
  canceled: 'canceled',
};

export function describeJob(job: JobView): string {
  const base = `${job.documentType} → ${describeTarget(job.target)}: ${JOB_STATE_WORDS[job.state] ?? job.state}`;
  if (job.state === 'failed' && job.reason) {
    return `${base}. ${job.reason}${job.requestId && !job.reason.includes(job.requestId) ? ` (request id ${job.requestId})` : ''}`;
  }
  return base;
}

export const isActive = (state: JobState): boolean => state === 'queued' || state === 'fetching' || state === 'spooling';
