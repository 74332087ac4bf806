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
