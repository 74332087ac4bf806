/** Rate search (POST /shipments/rates) and shipping rules. */
import { z } from 'zod';
import { list, opt, timeOfDay, timestamp } from './common';

/** Document types a rate may require before booking. */
export const KNOWN_REQUIRED_DOCUMENTS = ['customsinvoice', 'abd', 'salesinvoice', 'adr_dangerousgoods'] as const;
/** Shipping rule `type` values seen; the full list is not published. */
export const KNOWN_SHIPPING_RULE_TYPES = ['exclude', 'prefer', 'include'] as const;
export const KNOWN_SHIPPING_RULE_CATEGORIES = ['search'] as const;

export const requiredAddonsInput = z.looseObject({
  insurance: z.looseObject({ declared_value: z.string(), declared_currency: z.string() }).optional(),
  definite_loading: timeOfDay.optional(),
  definite_unloading: timestamp.optional(),
  guaranteed_delivery_time: timeOfDay.optional(),
  notification: z.boolean().optional(),
  indoor_delivery: z.boolean().optional(),
  pickup_notification: z.boolean().optional(),
  delivery_notice: z.boolean().optional(),
  green_shipping: z.boolean().optional(),
  tailgate_lift_unloading: z.boolean().optional(),
  tailgate_lift_loading: z.boolean().optional(),
  delivery_without_proof: z.boolean().optional(),
  thermo_heat: z.boolean().optional(),
  without_pickup: z.boolean().optional(),
  collection_at_terminal: z.boolean().optional(),
  receiver_pays: z.boolean().optional(),
  /** Deprecated in favour of package-level dangerous_goods_type. */
  dangerous_goods_limited_quantity: z.boolean().optional(),
});

/**
 * Body of POST /shipments/rates. `requested_pickup_time` is left optional on purpose: the
 * service, not the client, decides the 422 when it is missing without `without_pickup`.
 */
export const rateRequest = z.looseObject({
  shipment_id: z.string(),
  requested_pickup_time: timestamp.optional(),
  pickup_availability: z.looseObject({ ready_time: timeOfDay, close_time: timeOfDay }).optional(),
  include_own_agreements: z.boolean().optional(),
  include_service_point_rates: z.boolean().optional(),
  included_non_eu_rates: z.boolean().optional(),
  /** Only `DDP` is acted on. */
  incoterms: z.string().optional(),
  required_addons: requiredAddonsInput.optional(),
  shipping_rule_ids: z.array(z.string()).optional(),
  /** Older name of shipping_rule_ids; the ids win when both are sent. */
  shipping_rule_hashes: z.array(z.string()).optional(),
});

export const ratePickup = z.looseObject({
  cutoff_date: opt(z.string()),
  cutoff_time: opt(z.string()),
  date: opt(z.string()),
  time_window_start: opt(z.string()),
  time_window_end: opt(z.string()),
});

export const rateEstimatedDelivery = z.looseObject({
  earliest_date: opt(z.string()),
  time_window_start: opt(z.string()),
  time_window_end: opt(z.string()),
});

export const rate = z.looseObject({
  /** 1 is the cheapest. */
  price_rank: z.number().int(),
  shipment_id: z.string(),
  /** Valid 30 minutes (see expires_at). */
  booking_token: z.string(),
  carrier_name: z.string(),
  product_name: z.string(),
  /** Carrier code: the spec says it is returned but not under which name; the sandbox uses `carrier`. */
  carrier: opt(z.string()),
  carrier_product_code: opt(z.string()),
  /** `-` for receiver-pays rates; may be omitted there too. */
  price: opt(z.string()),
  currency: opt(z.string()),
  transport_business_days_min: opt(z.number().int()),
  transport_business_days_max: opt(z.number().int()),
  expires_at: opt(timestamp),
  receiver_pays: opt(z.boolean()),
  own_agreement: opt(z.boolean()),
  own_agreement_name: opt(z.string()),
  require_delivery_service_point: opt(z.boolean()),
  /** See KNOWN_REQUIRED_DOCUMENTS. */
  required_documents: list(z.string()),
  third_party_customs_payer_supported: opt(z.boolean()),
  pickup: opt(ratePickup),
  estimated_delivery: opt(rateEstimatedDelivery),
});

/** One entry per excluded carrier product, grouping its validation issues. */
export const rateWarning = z.looseObject({
  carrier_name: opt(z.string()),
  carrier_product_code: opt(z.string()),
  warnings: list(z.string()),
});

export const shippingRule = z.looseObject({
  id: z.string(),
  name: opt(z.string()),
  /** See KNOWN_SHIPPING_RULE_TYPES. */
  type: opt(z.string()),
  /** See KNOWN_SHIPPING_RULE_CATEGORIES. */
  category: opt(z.string()),
  enabled: opt(z.boolean()),
  /** Older name; carries the same value as id. */
  hash: opt(z.string()),
});

export const rateResponse = z.looseObject({
  rates: list(rate),
  warnings: list(rateWarning),
  applied_shipping_rules: list(shippingRule),
});

export const shippingRulesResponse = z.looseObject({
  shipping_rules: list(shippingRule),
});

export type RequiredAddonsInput = z.input<typeof requiredAddonsInput>;
export type RateRequest = z.input<typeof rateRequest>;
export type Rate = z.output<typeof rate>;
export type RateWarning = z.output<typeof rateWarning>;
export type ShippingRule = z.output<typeof shippingRule>;
export type RateResponse = z.output<typeof rateResponse>;
export type ShippingRulesResponse = z.output<typeof shippingRulesResponse>;
