import { englishOf } from '../../shared/agent-messages';
import type { JobView } from '../../shared/domain';
import { logField } from '../log-text';

/**
 * One log line per job state change, with the service's request id when there is one. Every
 * value from outside (reference, reason, ids) is escaped and capped, so a booking's few lines
 * stay a few hundred bytes each whatever its reference holds.
 */
export function describeJob(job: JobView): string {
  const reference = job.reference ? ` ref ${logField(job.reference)}` : '';
  const reason = job.reason ? `: ${logField(job.reason, 600)}` : '';
  const requestId = job.requestId && !job.reason?.includes(job.requestId) ? ` (request id ${logField(job.requestId)})` : '';
  const spooler = job.spoolerJobId && (job.state === 'spooled' || job.state === 'completed') ? ` as ${logField(job.spoolerJobId)}` : '';
  const head = `job ${job.id} ${job.state} ${job.documentType}/${job.layout} shipment ${logField(job.shipmentId)}`;
  return `${head}${reference} → ${logField(job.target)}${spooler} [${job.trigger}]${reason}${requestId}`;
}

/**
 * What a shipment's cancel did to its labels, for the log: canceled while waiting, withdrawn
 * from the spooler before printing, or already at the printer (take the label off).
 */
export function describeCancel(counts: { readonly waiting: number; readonly withdrawn: number; readonly atPrinter: number }): string {
  const parts = [`${counts.waiting} waiting job(s) canceled`];
  if (counts.withdrawn > 0) parts.push(`${counts.withdrawn} withdrawn from the printer's queue before printing`);
  if (counts.atPrinter > 0) parts.push(`${counts.atPrinter} already handed to the printer (take the label off the printer)`);
  return parts.join(', ');
}

/**
 * Which job changes get a log line: every one, except the same wait for a printer that is
 * down told again. Its reason changes only in "checking again in N s" at each readiness
 * check (every 30 s at most, all night for a printer switched off): the line comes when the
 * wait starts or its reason changes, and the next change (printing, canceled) ends it.
 */
export class JobLogLines {
  /** Per job waiting for a printer: what its last line said, without the delay. */
  private readonly waiting = new Map<string, string>();

  /** The line to log for this change, or null when it only repeats the wait. */
  line(job: JobView): string | null {
    const message = job.reasonMessage;
    if (job.state === 'queued' && message?.code === 'job.waitingForPrinter') {
      const wait = englishOf(message.params.advice);
      if (this.waiting.get(job.id) === wait) return null;
      this.waiting.set(job.id, wait);
    } else {
      this.waiting.delete(job.id);
    }
    return describeJob(job);
  }
}
