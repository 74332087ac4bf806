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
