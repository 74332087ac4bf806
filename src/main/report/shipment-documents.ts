/**
 * Documents per parcel (issue 13, part 3): every document a booked shipment needs, as the
 * service lists it (`available_documents_types`), with its print state from the ledger;
 * and "print the missing ones" as automatic jobs, one per shipment and document type at
 * most (the ledger's idempotency), so a second press or a booking webhook arriving
 * meanwhile prints nothing twice. A failed document is retried as the same job.
 */
import { DOCUMENT_TYPES, type ShipmentDocumentState, type ShipmentDocumentsPrint } from '../../shared/domain';
import { CodedError } from '../errors';
import type { ShipmentRecord } from '../intake/ports';
import { noticeFromShipment } from '../intake/booked-shipment';
import type { JobRecord } from '../jobs/job-record';
import type { EndOfDayPipeline } from './end-of-day-service';
import { standing } from './end-of-day';

const PRINTABLE: ReadonlySet<string> = new Set(DOCUMENT_TYPES);
const IN_LINE_OR_DONE = new Set(['queued', 'fetching', 'spooling', 'spooled', 'completed']);

export interface ShipmentDocumentsDeps {
  readonly jobsForShipment: (shipmentId: string) => JobRecord[];
  /** GET /shipments/{id}: the documents the service offers now. */
  readonly getShipment: (shipmentId: string) => Promise<ShipmentRecord>;
  readonly pipeline: EndOfDayPipeline;
}

export function documentStates(jobs: readonly JobRecord[], documentTypes: readonly string[]): ShipmentDocumentState[] {
  return documentTypes.map((documentType) => {
    const own = jobs.filter((j) => j.documentType === documentType);
    return { documentType, ...standing(own, false, 'not printed yet') };
  });
}

export async function printShipmentDocuments(shipmentId: string, deps: ShipmentDocumentsDeps): Promise<ShipmentDocumentsPrint> {
  const shipment = await deps.getShipment(shipmentId);
  const types = (shipment.available_documents_types ?? []).filter((t) => PRINTABLE.has(t));
  if (types.length === 0) {
    const name = shipment.reference_id ?? shipmentId;
    throw new CodedError('NO_DOCUMENTS', `Shipment ${name} has no documents to print yet: it is not booked.`);
  }
  let queued = 0;
  let retried = 0;
  let waiting = 0;
  for (const type of types) {
    const own = deps.jobsForShipment(shipment.id).filter((j) => j.documentType === type);
    if (own.some((j) => IN_LINE_OR_DONE.has(j.state))) {
      waiting++;
      continue;
    }
    // A document that may have printed is a person's call (check the printer), never a guess.
    const failed = own.findLast((j) => j.state === 'failed');
    if (failed && /may have printed/.test(failed.reason ?? '')) {
      waiting++;
      continue;
    }
    if (failed) {
      try {
        deps.pipeline.retry(failed.id);
        retried++;
      } catch {
        waiting++;
      }
      continue;
    }
    const [job] = deps.pipeline.submitBooking({ ...noticeFromShipment(shipment), trigger: 'poll' }, [type]);
    if (job?.state === 'queued' && !own.some((j) => j.id === job.id)) queued++;
    else waiting++;
  }
  return { queued, retried, waiting, documents: documentStates(deps.jobsForShipment(shipment.id), types) };
}
