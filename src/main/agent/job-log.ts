import type { JobView } from '../../shared/domain';

/** One log line per job state change, with the service's request id when there is one. */
export function describeJob(job: JobView): string {
  const reference = job.reference ? ` ref ${job.reference}` : '';
  const reason = job.reason ? `: ${job.reason}` : '';
  const requestId = job.requestId && !job.reason?.includes(job.requestId) ? ` (request id ${job.requestId})` : '';
  const spooler = job.spoolerJobId && (job.state === 'spooled' || job.state === 'completed') ? ` as ${job.spoolerJobId}` : '';
  return `job ${job.id} ${job.state} ${job.documentType}/${job.layout} shipment ${job.shipmentId}${reference} → ${job.target}${spooler} [${job.trigger}]${reason}${requestId}`;
}
