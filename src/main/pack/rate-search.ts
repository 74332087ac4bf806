/**
 * The rate searches of pack and ship: the request follows the station's pack settings
 * (pickup, shipping rules) and the shipment (non-EU, private receiver); the last answer per
 * shipment is kept so booking can tell a token close to its end and fetch it anew.
 */
import type { RatesView } from '../../shared/domain';
import type { ServiceClient } from '../api/client';
import type { RateRequest, Shipment } from '../api/schemas';
import { hasThirdPartyPayer, isNonEu, receiverOf } from './draft-view';
import type { PackSettingsStore } from './pack-settings';
import { nextPickup, toRatesView } from './rate-view';

export interface RateSearch {
  readonly request: RateRequest;
  readonly view: RatesView;
}

export interface RateSearchesDeps {
  readonly client: () => ServiceClient;
  readonly settings: PackSettingsStore;
  readonly now: () => Date;
}

export class RateSearches {
  private readonly searches = new Map<string, RateSearch>();

  constructor(private readonly deps: RateSearchesDeps) {}

  async search(s: Shipment): Promise<RateSearch> {
    const settings = this.deps.settings.get();
    const request: RateRequest = {
      shipment_id: s.id,
      ...(settings.pickup === 'without'
        ? { required_addons: { without_pickup: true } }
        : { requested_pickup_time: nextPickup(this.deps.now(), settings.pickupTime) }),
      ...(isNonEu(s) ? { included_non_eu_rates: true } : {}),
      ...(receiverOf(s)?.is_private_individual === true ? { include_service_point_rates: true } : {}),
      ...(settings.shippingRuleIds.length > 0 ? { shipping_rule_ids: [...settings.shippingRuleIds] } : {}),
    };
    const answer = await this.deps.client().rates(request);
    const result = { request, view: toRatesView(s.id, answer, hasThirdPartyPayer(s), this.deps.now()) };
    this.searches.set(s.id, result);
    return result;
  }

  /** The last search's view for the shipment, if any. */
  last(shipmentId: string): RatesView | undefined {
    return this.searches.get(shipmentId)?.view;
  }

  /** Parcels changed or the shipment was booked: the last answer no longer holds. */
  forget(shipmentId: string): void {
    this.searches.delete(shipmentId);
  }
}
