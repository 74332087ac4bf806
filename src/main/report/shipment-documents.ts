/**
 * Documents per parcel: every document a booked shipment needs, as the
 * service lists it (`available_documents_types`), with its print state from the ledger;
 * and "print the missing ones" as automatic jobs, one per shipment and document type at
 * most (the ledger's idempotency), so a second press or a booking webhook arriving
 * meanwhile prints nothing twice. A failed document is retried as the same job.
 */
import { plainMessage } from '../../shared/agent-messages';
import { DOCUMENT_TYPES, type ShipmentDocumentState, type ShipmentDocumentsPrint } from '../../shared/domain';
import { CodedError } from '../errors';
import type { ShipmentRecord } from '../intake/ports';
import { noticeFromShipment } from '../intake/booked-shipment';
import type { JobRecord } from '../ledger/job-record';
import type { EndOfDayPipeline } from './end-of-day-service';
import { standing } from './end-of-day';
import { printIfMissing, type MissingTally } from './missing-document';

const PRINTABLE: ReadonlySet<string> = new Set(DOCUMENT_TYPES);

export interface ShipmentDocumentsDeps {
  readonly jobsForShipment: (shipmentId: string) => JobRecord[];
  /** GET /shipments/{id}: the documents the service offers now. */
  readonly getShipment: (shipmentId: string) => Promise<ShipmentRecord>;
  readonly pipeline: EndOfDayPipeline;
}

export function documentStates(jobs: readonly JobRecord[], documentTypes: readonly string[]): ShipmentDocumentState[] {
  return documentTypes.map((documentType) => {
    const own = jobs.filter((j) => j.documentType === documentType);
    const where = standing(own, null, plainMessage('report.notPrintedYet'));
    // A spooled job followed at its printer (it has the printer's job id) is printing: the
    // follower makes it completed as soon as the printer says done, and "may have printed"
    // only once the printer no longer knows it. One the printer cannot be asked about stays unsure.
    const atPrinter = where.state === 'may_have_printed' ? own.find((j) => j.state === 'spooled' && j.spoolerJobId) : undefined;
    if (atPrinter) return { documentType, state: 'printing', detail: null, printedAt: null, printer: atPrinter.target };
    return { documentType, ...where };
  });
}

export async function printShipmentDocuments(shipmentId: string, deps: ShipmentDocumentsDeps): Promise<ShipmentDocumentsPrint> {
  const shipment = await deps.getShipment(shipmentId);
  const types = (shipment.available_documents_types ?? []).filter((t) => PRINTABLE.has(t));
  if (types.length === 0) {
    const name = shipment.reference_id ?? shipmentId;
    throw new CodedError('NO_DOCUMENTS', `Shipment ${name} has no documents to print yet: it is not booked.`);
  }
  const tally: MissingTally = { queued: 0, retried: 0, waiting: 0 };
  for (const type of types) {
    printIfMissing(
      {
        own: deps.jobsForShipment(shipment.id).filter((j) => j.documentType === type),
        retry: (id) => deps.pipeline.retry(id),
        submit: () => deps.pipeline.submitBooking({ ...noticeFromShipment(shipment), trigger: 'poll' }, [type])[0],
        // A document that may have printed is a person's call (check the printer), never a guess.
        holdMayHavePrinted: true,
      },
      tally,
    );
  }
  const { queued, retried, waiting } = tally;
  return { queued, retried, waiting, documents: documentStates(deps.jobsForShipment(shipment.id), types) };
}
