/**
 * The packing table's operations: a scan looked up (claimed in a site), then the shipment
 * packed, rated and booked (src/main/pack/pack-flow.ts), and the pack settings.
 */
import type { AgentInput, LookupResult } from '../../../shared/agent-api';
import type {
  BookedView,
  BoxPreset,
  DraftView,
  PackResult,
  PackSettings,
  RatesView,
  ServicePointView,
  ShippingRuleView,
} from '../../../shared/domain';
import type { PackFlow } from '../../pack/pack-flow';
import { lookupScan } from '../../scan/lookup';
import type { OperationDeps } from './deps';
import type { OperationGroup } from './groups';

export function packOperations(
  deps: Pick<OperationDeps, 'ledger' | 'connection' | 'site' | 'onDraftOpened'>,
  pack: PackFlow,
): OperationGroup<'pack'> {
  const { ledger, connection, site } = deps;

  const lookupHere = async ({ scan }: AgentInput<'lookup'>): Promise<LookupResult> => {
    const client = connection.current;
    const result = await lookupScan(scan, {
      findShipmentIdByScan: (value) => ledger.findShipmentIdByScan(value),
      getShipment: (id) => client.getShipment(id),
      listShipments: (query) => client.listShipments(query),
      tracking: (id) => client.tracking(id),
      localTracking: (id) => ledger.trackingFor(id),
      shipmentsWithoutParcels: (limit) => ledger.shipmentsWithoutParcels(limit),
      indexShipment: (s) =>
        ledger.upsertShipment({
          shipmentId: s.id,
          referenceId: s.reference_id ?? null,
          trackingId: s.tracking_id ?? null,
          carrier: s.carrier_name ?? null,
          source: null,
          bookedAt: null,
          data: s,
        }),
    });
    if (result.kind === 'found') {
      // Remember it so the next scan of its tracking id resolves locally.
      const s = result.shipment;
      ledger.upsertShipment({
        shipmentId: s.id,
        referenceId: s.referenceId,
        trackingId: s.trackingId,
        carrier: s.carrierName,
        source: null,
        bookedAt: null,
        data: null,
      });
    }
    return result;
  };

  return {
    /** In a site, the scanned text (and its normalized reading) is this station's, found or not, within a second. */
    async lookup(input: AgentInput<'lookup'>): Promise<LookupResult> {
      if (!site) return lookupHere(input);
      const scanned = input.scan.trim();
      const claimed = site.claim(scanned);
      const result = await lookupHere(input);
      const codes = [result.normalized, result.kind === 'found' ? result.shipment.id : ''].filter((c) => c !== '' && c !== scanned);
      await Promise.all([claimed, ...codes.map((code) => site.claim(code))]);
      return result;
    },

    async packDraft(input: AgentInput<'packDraft'>): Promise<PackResult<DraftView>> {
      const result = await pack.draft(input);
      if (result.ok && result.value.stage === 'draft') {
        try {
          deps.onDraftOpened?.(result.value);
        } catch {
          // An observer's failure is not the packer's: the draft is shown all the same.
        }
      }
      return result;
    },

    async packPresets(_input: AgentInput<'packPresets'>): Promise<BoxPreset[]> {
      return pack.presetsList();
    },

    async packUpdate(input: AgentInput<'packUpdate'>): Promise<PackResult<DraftView>> {
      return pack.update(input);
    },

    async packRates(input: AgentInput<'packRates'>): Promise<PackResult<RatesView>> {
      return pack.rates(input);
    },

    async packServicePoints(input: AgentInput<'packServicePoints'>): Promise<PackResult<ServicePointView[]>> {
      return pack.servicePoints(input);
    },

    async packUpload(input: AgentInput<'packUpload'>): Promise<PackResult<{ documentType: string; bytes: number }>> {
      return pack.upload(input);
    },

    async packBook(input: AgentInput<'packBook'>): Promise<PackResult<BookedView>> {
      return pack.book(input);
    },

    async packCancel(input: AgentInput<'packCancel'>): Promise<PackResult<DraftView>> {
      return pack.cancel(input);
    },

    async getPackSettings(_input: AgentInput<'getPackSettings'>): Promise<PackSettings> {
      return pack.settings.get();
    },

    async savePackSettings(input: AgentInput<'savePackSettings'>): Promise<PackSettings> {
      return pack.settings.save(input);
    },

    async listShippingRules(_input: AgentInput<'listShippingRules'>): Promise<ShippingRuleView[]> {
      return pack.shippingRules();
    },
  };
}
