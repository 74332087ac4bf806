/** The report operations: end of day (what was booked, what printed, print what is missing) and one shipment's documents. */
import type { AgentInput } from '../../../shared/agent-api';
import type { EndOfDayPrintResult, EndOfDayReport, ShipmentDocumentState, ShipmentDocumentsPrint } from '../../../shared/domain';
import { endOfDayReport, printManifests, printMissing, type EndOfDayDeps } from '../../report/end-of-day-service';
import { documentStates, printShipmentDocuments } from '../../report/shipment-documents';
import type { OperationDeps } from './deps';
import type { OperationGroup } from './groups';

export function reportOperations(
  deps: Pick<OperationDeps, 'connection' | 'ledger' | 'settings' | 'log' | 'pipeline'>,
): OperationGroup<'report'> {
  const { connection, ledger, settings, log, pipeline } = deps;

  const endOfDayDeps = (): EndOfDayDeps => {
    const client = connection.configured ? connection.current : null;
    return {
      ledger,
      shipments: client && {
        listShipments: (query) => client.listShipments(query),
        getShipment: (id) => client.getShipment(id),
        tracking: (id) => client.tracking(id),
      },
      stationRules: () => settings.get().stationRules,
      logger: { info: log.info, warn: log.warn, error: log.error },
    };
  };

  return {
    async endOfDay({ day }: AgentInput<'endOfDay'>): Promise<EndOfDayReport> {
      return endOfDayReport(day, endOfDayDeps());
    },

    async printMissing({ day }: AgentInput<'printMissing'>): Promise<EndOfDayPrintResult> {
      return printMissing(day, { ...endOfDayDeps(), pipeline });
    },

    async printManifests({ day }: AgentInput<'printManifests'>): Promise<EndOfDayPrintResult> {
      return printManifests(day, { ...endOfDayDeps(), pipeline });
    },

    async shipmentDocuments({ shipmentId, documentTypes }: AgentInput<'shipmentDocuments'>): Promise<ShipmentDocumentState[]> {
      return documentStates(ledger.jobsForShipment(shipmentId), documentTypes);
    },

    async printShipmentDocuments({ shipmentId }: AgentInput<'printShipmentDocuments'>): Promise<ShipmentDocumentsPrint> {
      const client = connection.current;
      return printShipmentDocuments(shipmentId, {
        jobsForShipment: (id) => ledger.jobsForShipment(id),
        getShipment: (id) => client.getShipment(id),
        pipeline,
      });
    },
  };
}
