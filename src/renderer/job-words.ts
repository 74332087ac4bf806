import type { JobSiteDecision, JobState, JobView } from '../shared/domain';
import { describeTarget, localClock, targetKind } from './format';
import { t } from './i18n';
import { PRINTER_KIND_COMPLETED_WORDS, documentWords, localized } from './words';
import { agentWords } from './agent-words';

/** Honest words: `spooled` is not `printed`. */
export const JOB_STATE_WORDS = localized<JobState>({
  queued: 'jobState.queued',
  fetching: 'jobState.fetching',
  spooling: 'jobState.spooling',
  spooled: 'jobState.spooled',
  completed: 'jobState.completed',
  failed: 'jobState.failed',
  canceled: 'jobState.canceled',
});

/** The one-word state on a job's badge (`spooled`), where JOB_STATE_WORDS is its tooltip. */
export const JOB_BADGE_WORDS = localized<JobState>({
  queued: 'jobBadge.queued',
  fetching: 'jobBadge.fetching',
  spooling: 'jobBadge.spooling',
  spooled: 'jobBadge.spooled',
  completed: 'jobBadge.completed',
  failed: 'jobBadge.failed',
  canceled: 'jobBadge.canceled',
});

export function describeJob(job: JobView): string {
  const kind = targetKind(job.target);
  // What "completed" means depends on the printer (its registry's words): only a spooler can say it printed.
  const state = job.state === 'completed' && kind ? PRINTER_KIND_COMPLETED_WORDS[kind] : JOB_STATE_WORDS[job.state];
  const line = t('job.line', { document: documentWords(job.documentType), target: describeTarget(job.target), state });
  const reason = jobReason(job);
  const requestId = job.requestId && reason && !reason.includes(job.requestId) ? t('job.requestIdSuffix', { id: job.requestId }) : '';
  if (job.state === 'failed' && reason) return t('job.lineFailed', { line, reason }) + requestId;
  // A job waiting for a retry says why it waits ("label not ready yet; retrying in 2 s").
  if (isActive(job.state) && reason) return t('job.lineWaiting', { line, reason }) + requestId;
  return line;
}

/** Why the job failed or waits, in the UI's language (its stored English when it has no message code). */
export function jobReason(job: Pick<JobView, 'reason' | 'reasonMessage'>): string | null {
  if (job.reason === null) return null;
  return agentWords(job.reasonMessage, job.reason);
}

export const isActive = (state: JobState): boolean => state === 'queued' || state === 'fetching' || state === 'spooling';

/** Why the site sent a booking to a station, in words: "claimed by a scan at 10:42". */
export function siteReasonWords(reason: JobSiteDecision['reason'], at: string, movedFrom: string | null | undefined): string {
  if (reason === 'claim') return t('site.reason.claim', { time: localClock(at) });
  if (reason === 'rule') return t('site.reason.rule');
  if (reason === 'fallback') return t('site.reason.fallback', { station: movedFrom ?? '' });
  return t('site.reason.default');
}

/** A site station's job in its history: "Printed at Packing 3: claimed by a scan at 10:42"; null outside a site. */
export function siteDecisionLine(job: Pick<JobView, 'siteDecision' | 'state'>): string | null {
  const decision = job.siteDecision;
  if (!decision) return null;
  const printed = job.state === 'completed' || job.state === 'spooled';
  const where = t(printed ? 'site.printedAt' : 'site.goesTo', { station: decision.station });
  const line = `${where}: ${siteReasonWords(decision.reason, decision.at, decision.movedFrom)}`;
  return line.charAt(0).toLocaleUpperCase() + line.slice(1);
}
