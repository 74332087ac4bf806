/**
 * The jobs operations: the history, a shipment's jobs, reprint, retry, cancel, and pausing
 * automatic printing (or one printer).
 */
import type { AgentInput } from '../../../shared/agent-api';
import type { AgentStatus, JobView } from '../../../shared/domain';
import { CodedError } from '../../errors';
import { pendingHistory, refuseOnPendingBooking } from '../../intake/sources/webhooks/pending-decisions';
import { toJobView } from '../../ledger/job-record';
import type { OperationDeps } from './deps';
import type { OperationGroup } from './groups';
import { requireKnownPrinter } from './printers';

type JobDeps = Pick<OperationDeps, 'ledger' | 'pipeline' | 'settings' | 'status' | 'emitStatus' | 'connection' | 'targetFor'>;

/** Whether the station voided a shipment (the pack flow's own record): its labels print no more. */
export type CanceledShipments = (shipmentId: string) => boolean;

export function jobOperations(deps: JobDeps, isCanceled: CanceledShipments): OperationGroup<'jobs'> {
  const { ledger, pipeline, settings, status } = deps;
  return {
    async reprint(input: AgentInput<'reprint'>): Promise<JobView[]> {
      if (isCanceled(input.shipmentId)) {
        const known = ledger.getShipment(input.shipmentId);
        throw new CodedError(
          'SHIPMENT_CANCELED',
          `Shipment ${known?.referenceId ?? input.shipmentId} was canceled: its label is void and cannot be reprinted. Book it anew to ship it.`,
        );
      }
      if (input.printer) await requireKnownPrinter(deps, input.printer);
      const known = ledger.getShipment(input.shipmentId);
      return pipeline.reprint({
        shipmentId: input.shipmentId,
        documentType: input.documentType ?? 'label',
        layout: input.layout,
        printer: input.printer,
        copies: input.copies,
        trigger: 'reprint',
        reference: known?.referenceId ?? null,
        trackingId: known?.trackingId ?? null,
      });
    },

    async listJobs(input: AgentInput<'listJobs'>): Promise<JobView[]> {
      const jobs = ledger.search({ text: input.search, state: input.state, limit: input.limit }).map(toJobView);
      const canceled = new Map<string, boolean>();
      const canceledOnce = (id: string): boolean => {
        if (!canceled.has(id)) canceled.set(id, isCanceled(id));
        return canceled.get(id)!;
      };
      const marked = jobs.map((job) => (canceledOnce(job.shipmentId) ? { ...job, shipmentCanceled: true } : job));
      // Webhook bookings still waiting for their station rules to be decided lead the history.
      return [...pendingHistory(ledger, input), ...marked].slice(0, input.limit ?? 100);
    },

    async retryJob({ id }: AgentInput<'retryJob'>): Promise<JobView> {
      refuseOnPendingBooking(id, 'retried');
      const job = ledger.get(id);
      if (job && isCanceled(job.shipmentId)) {
        throw new CodedError(
          'SHIPMENT_CANCELED',
          `Shipment ${job.reference ?? job.shipmentId} was canceled: its ${job.documentType} is void and is not printed again.`,
        );
      }
      return pipeline.retry(id);
    },

    async cancelJob({ id }: AgentInput<'cancelJob'>): Promise<JobView> {
      refuseOnPendingBooking(id, 'canceled');
      return pipeline.cancel(id);
    },

    async shipmentJobs({ shipmentId }: AgentInput<'shipmentJobs'>): Promise<JobView[]> {
      return ledger.jobsForShipment(shipmentId).map(toJobView);
    },

    async setPaused({ paused, printer }: AgentInput<'setPaused'>): Promise<AgentStatus> {
      if (paused) pipeline.pause(printer);
      else pipeline.resume(printer);
      if (printer === undefined) settings.update({ paused });
      deps.emitStatus();
      return status.snapshot();
    },
  };
}
