/** Shipments: the create/update body, the stored record, list and create responses. */
import { z } from 'zod';
import { list, opt, timestamp } from './common';
import { party, partyInput, receiverPartyInput, toPartyInput } from './party';
import { trackingEvent } from './tracking';

/** Package `type` values the spec uses; the full list is not published. */
export const KNOWN_PACKAGE_TYPES = ['PACKAGE', 'CUSTOM'] as const;
/** `limited_quantity` (ADR 3.4) or `adr` (fully regulated, needs team approval); absent = regular. */
export const KNOWN_DANGEROUS_GOODS_TYPES = ['limited_quantity', 'adr'] as const;
/** Shipment `status` values the sandbox and spec name; the service may add more. */
export const KNOWN_SHIPMENT_STATUSES = ['PENDING', 'BOOKED', 'CANCELED'] as const;

// ---- request side ----

export const packageInput = z.looseObject({
  depth_cm: z.number().optional(),
  height_cm: z.number().optional(),
  width_cm: z.number().optional(),
  weight_kg: z.number().optional(),
  quantity: z.number().int().optional(),
  description: z.string().optional(),
  /** See KNOWN_PACKAGE_TYPES. */
  type: z.string().optional(),
  stackable: z.boolean().optional(),
  loading_meters: z.number().optional(),
  /** See KNOWN_DANGEROUS_GOODS_TYPES. */
  dangerous_goods_type: z.string().optional(),
  favorite_package_id: z.string().optional(),
});

export const customsItemInput = z.looseObject({
  description: z.string().optional(),
  material: z.string().optional(),
  quantity: z.number().optional(),
  unit_type: z.string().optional(),
  unit_weight: z.number().optional(),
  unit_value: z.number().optional(),
  hs_code: z.string().optional(),
  country_of_origin: z.string().optional(),
});

export const customsInformationInput = z.looseObject({
  invoice_type: z.string().optional(),
  invoice_number: z.string().optional(),
  reason_for_export: z.string().optional(),
  currency: z.string().optional(),
  sender_eori_number: z.string().optional(),
  sender_vat_number: z.string().optional(),
  sender_voec_number: z.string().optional(),
  receiver_eori_number: z.string().optional(),
  receiver_vat_number: z.string().optional(),
  terms_of_sale: z.string().optional(),
  items: z.array(customsItemInput).optional(),
  additional_information: z.string().optional(),
  insurance_costs: z.number().optional(),
  shipping_costs: z.number().optional(),
  other_costs: z.number().optional(),
  discount: z.number().optional(),
  /** Required by the service whenever customs_information is supplied. */
  signature: z.string().optional(),
});

/**
 * All three fields are required when the payer is present; `{}` is the spec's way to
 * remove a stored payer on update, so the empty object is accepted too.
 */
export const thirdPartyCustomsPayerInput = z.union([
  z.looseObject({ account_number: z.string(), postal_code: z.string(), country_code: z.string() }),
  z.strictObject({}),
]);

/** Body of POST /shipments and PUT /shipments/{id}. */
export const shipmentInput = z.looseObject({
  reference_id: z.string().optional(),
  from: partyInput.optional(),
  to: toPartyInput.optional(),
  alternative_from: partyInput.optional(),
  alternative_to: receiverPartyInput.optional(),
  packages: z.array(packageInput).optional(),
  enable_bookable_validation: z.boolean().optional(),
  invoice_reference: z.string().optional(),
  sender_reference: z.string().optional(),
  receiver_reference: z.string().optional(),
  system: z.string().optional(),
  system_version: z.string().optional(),
  customs_information: customsInformationInput.optional(),
  third_party_customs_payer: thirdPartyCustomsPayerInput.optional(),
});

export const listShipmentsQuery = z.strictObject({
  reference_id: z.string().optional(),
  /** See KNOWN_SHIPMENT_STATUSES. */
  status: z.string().optional(),
  limit: z.number().int().min(1).optional(),
  offset: z.number().int().min(0).optional(),
});

// ---- response side ----

export const shipmentPackage = z.looseObject({
  depth_cm: opt(z.number()),
  height_cm: opt(z.number()),
  width_cm: opt(z.number()),
  weight_kg: opt(z.number()),
  quantity: opt(z.number().int()),
  description: opt(z.string()),
  type: opt(z.string()),
  stackable: opt(z.boolean()),
  loading_meters: opt(z.number()),
  dangerous_goods_type: opt(z.string()),
  favorite_package_id: opt(z.string()),
  /** Each unit's own tracking number once booked (an extra response field; the first is the shipment's). */
  tracking_ids: opt(z.array(z.string())),
});

export const customsItem = z.looseObject({
  description: opt(z.string()),
  material: opt(z.string()),
  quantity: opt(z.number()),
  unit_type: opt(z.string()),
  unit_weight: opt(z.number()),
  unit_value: opt(z.number()),
  hs_code: opt(z.string()),
  country_of_origin: opt(z.string()),
});

export const customsInformation = z.looseObject({
  invoice_type: opt(z.string()),
  invoice_number: opt(z.string()),
  reason_for_export: opt(z.string()),
  currency: opt(z.string()),
  sender_eori_number: opt(z.string()),
  sender_vat_number: opt(z.string()),
  sender_voec_number: opt(z.string()),
  receiver_eori_number: opt(z.string()),
  receiver_vat_number: opt(z.string()),
  terms_of_sale: opt(z.string()),
  items: opt(z.array(customsItem)),
  additional_information: opt(z.string()),
  insurance_costs: opt(z.number()),
  shipping_costs: opt(z.number()),
  other_costs: opt(z.number()),
  discount: opt(z.number()),
  signature: opt(z.string()),
});

export const thirdPartyCustomsPayer = z.looseObject({
  account_number: opt(z.string()),
  postal_code: opt(z.string()),
  country_code: opt(z.string()),
});

/** The stored shipment (GET /shipments/{id}, PUT, and each entry of GET /shipments). */
export const shipment = z.looseObject({
  id: z.string(),
  /** See KNOWN_SHIPMENT_STATUSES. */
  status: z.string(),
  reference_id: opt(z.string()),
  from: opt(party),
  to: opt(party),
  alternative_from: opt(party),
  alternative_to: opt(party),
  packages: list(shipmentPackage),
  enable_bookable_validation: opt(z.boolean()),
  invoice_reference: opt(z.string()),
  sender_reference: opt(z.string()),
  receiver_reference: opt(z.string()),
  system: opt(z.string()),
  system_version: opt(z.string()),
  customs_information: opt(customsInformation),
  third_party_customs_payer: opt(thirdPartyCustomsPayer),
  /** Latest tracking event; absent before booking. */
  tracking_status: opt(trackingEvent),
  /** Amount followed by currency; omitted for receiver-pays shipments. */
  expected_price: opt(z.string()),
  resale_price: opt(z.string()),
  carrier_name: opt(z.string()),
  product_name: opt(z.string()),
  /** Carrier and product codes (not in the spec's table; the sandbox and webhooks use them). */
  carrier: opt(z.string()),
  carrier_product_code: opt(z.string()),
  tracking_id: opt(z.string()),
  available_documents_types: list(z.string()),
  // Not in the spec's table; the sandbox adds them and they order the poller's reconcile.
  created_at: opt(timestamp),
  updated_at: opt(timestamp),
  booked_at: opt(timestamp),
});

export const shipmentList = z.array(shipment);

export const createShipmentResponse = z.looseObject({
  id: z.string(),
  reference_id: opt(z.string()),
});

export type PackageInput = z.input<typeof packageInput>;
export type CustomsInformationInput = z.input<typeof customsInformationInput>;
export type ShipmentInput = z.input<typeof shipmentInput>;
export type ListShipmentsQuery = z.input<typeof listShipmentsQuery>;
export type ShipmentPackage = z.output<typeof shipmentPackage>;
export type CustomsInformation = z.output<typeof customsInformation>;
export type Shipment = z.output<typeof shipment>;
export type CreateShipmentResponse = z.output<typeof createShipmentResponse>;
