/** The service's shipment record as the packing table sees it. */
import {
  shipmentStage,
  type CustomsView,
  type DraftView,
  type FieldProblem,
  type PackageView,
  type TrackingEventView,
} from '../../shared/domain';
import type { Shipment } from '../api/schemas';
import { toShipmentView } from '../scan/shipment-view';

/** EU member states: a route leaving them needs `included_non_eu_rates` and customs documents. */
export const EU_COUNTRIES: ReadonlySet<string> = new Set([
  'AT',
  'BE',
  'BG',
  'HR',
  'CY',
  'CZ',
  'DK',
  'EE',
  'FI',
  'FR',
  'DE',
  'GR',
  'HU',
  'IE',
  'IT',
  'LV',
  'LT',
  'LU',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SK',
  'SI',
  'ES',
  'SE',
]);

const num = (v: number | null | undefined): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: string | null | undefined): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

export function receiverOf(s: Shipment) {
  return s.alternative_to ?? s.to ?? null;
}

export function isNonEu(s: Shipment): boolean {
  const from = s.from?.address?.country_code?.toUpperCase();
  const to = receiverOf(s)?.address?.country_code?.toUpperCase();
  return [from, to].some((c) => typeof c === 'string' && c !== '' && !EU_COUNTRIES.has(c));
}

export function hasThirdPartyPayer(s: Shipment): boolean {
  const p = s.third_party_customs_payer;
  return !!p && [p.account_number, p.postal_code, p.country_code].some((v) => str(v) !== null);
}

export function toDraftView(s: Shipment, tracking: readonly TrackingEventView[], missing: readonly FieldProblem[]): DraftView {
  const shipment = toShipmentView(s, tracking);
  const packages: PackageView[] = s.packages.map((p) => ({
    widthCm: num(p.width_cm),
    heightCm: num(p.height_cm),
    depthCm: num(p.depth_cm),
    weightKg: num(p.weight_kg),
    quantity: num(p.quantity) ?? 1,
    description: str(p.description),
    favoritePackageId: str(p.favorite_package_id),
  }));
  const c = s.customs_information;
  const customs: CustomsView | null = c
    ? {
        currency: str(c.currency),
        invoiceNumber: str(c.invoice_number),
        termsOfSale: str(c.terms_of_sale),
        items: (c.items ?? []).map((i) => ({
          description: str(i.description),
          quantity: num(i.quantity),
          unitWeightKg: num(i.unit_weight),
          unitValue: num(i.unit_value),
          hsCode: str(i.hs_code),
          countryOfOrigin: str(i.country_of_origin),
        })),
      }
    : null;
  return {
    shipment,
    stage: shipmentStage(shipment),
    packages,
    customs,
    missing,
    nonEu: isNonEu(s),
    privateReceiver: receiverOf(s)?.is_private_individual === true,
    thirdPartyPayer: hasThirdPartyPayer(s),
  };
}
