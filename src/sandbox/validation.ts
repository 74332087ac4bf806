/**
 * Request schemas (types only: a wrong type is a 400) and the bookability rules (missing
 * data: a 422 in the spec's `{errors: {path: [...]}}` shape).
 */
import { z } from 'zod';
import type { FieldErrors } from './http';

const str = z.string().nullish();
const num = z.number().nullish();

export const addressSchema = z.object({
  address_line_1: str,
  address_line_2: str,
  address_line_3: str,
  postal_code: str,
  city: str,
  province: str,
  country_code: str,
});
export const contactSchema = z.object({ name: str, phone: str, email: str });
export const partySchema = z.object({
  name: str,
  address: addressSchema.nullish(),
  contact: contactSchema.nullish(),
  address_book_id: str,
  is_private_individual: z.boolean().nullish(),
  carrier_accounts: z.array(z.object({ carrier: z.string(), account_identifier: z.string() })).nullish(),
  // Filled by the sandbox from the team or the address book (README: sender customs numbers).
  eori_number: str,
  vat_number: str,
  voec_number: str,
});
export const packageSchema = z.object({
  depth_cm: num,
  height_cm: num,
  width_cm: num,
  weight_kg: num,
  quantity: z.number().int().min(1).nullish(),
  description: str,
  type: str,
  stackable: z.boolean().nullish(),
  loading_meters: num,
  dangerous_goods_type: z.enum(['limited_quantity', 'adr']).nullish(),
  favorite_package_id: str,
});
export const customsItemSchema = z.object({
  description: str,
  material: str,
  quantity: num,
  unit_type: str,
  unit_weight: num,
  unit_value: num,
  hs_code: str,
  country_of_origin: str,
});
export const customsSchema = z.object({
  invoice_type: str,
  invoice_number: str,
  reason_for_export: str,
  currency: str,
  sender_eori_number: str,
  sender_vat_number: str,
  sender_voec_number: str,
  receiver_eori_number: str,
  receiver_vat_number: str,
  terms_of_sale: str,
  items: z.array(customsItemSchema).nullish(),
  additional_information: str,
  insurance_costs: num,
  shipping_costs: num,
  other_costs: num,
  discount: num,
  signature: str,
});
export const payerSchema = z.object({ account_number: str, postal_code: str, country_code: str });

export const shipmentBodySchema = z.object({
  reference_id: str,
  from: partySchema.nullish(),
  to: partySchema.nullish(),
  alternative_from: partySchema.nullish(),
  alternative_to: partySchema.nullish(),
  packages: z.array(packageSchema).nullish(),
  enable_bookable_validation: z.boolean().nullish(),
  invoice_reference: str,
  sender_reference: str,
  receiver_reference: str,
  system: str,
  system_version: str,
  customs_information: customsSchema.nullish(),
  third_party_customs_payer: payerSchema.nullish(),
});

export type Address = z.infer<typeof addressSchema>;
export type Party = z.infer<typeof partySchema>;
export type Package = z.infer<typeof packageSchema>;
export type Customs = z.infer<typeof customsSchema>;
export type Payer = z.infer<typeof payerSchema>;
export type ShipmentBody = z.infer<typeof shipmentBodySchema>;

const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const blank = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

function add(errors: FieldErrors, path: string, message: string): void {
  (errors[path] ??= []).push(message);
}

/** Rules that hold whether or not the caller asked for bookable validation. */
export function alwaysErrors(s: ShipmentBody): FieldErrors {
  const errors: FieldErrors = {};
  if ((s.packages ?? []).length > 0 && !s.to) add(errors, 'to', 'is required when packages are attached');
  for (const key of ['from', 'to', 'alternative_from', 'alternative_to'] as const) {
    const email = s[key]?.contact?.email;
    if (!blank(email) && !EMAIL.test(email!)) add(errors, `${key}.contact.email`, 'must be a valid email address');
  }
  if (s.customs_information && blank(s.customs_information.signature)) {
    add(errors, 'customs_information.signature', 'is required');
  }
  const payer = s.third_party_customs_payer;
  if (payer && Object.values(payer).some((v) => !blank(v))) {
    for (const f of ['account_number', 'postal_code', 'country_code'] as const) {
      if (blank(payer[f])) add(errors, `third_party_customs_payer.${f}`, 'is required');
    }
  }
  const items = s.customs_information?.items ?? [];
  const packages = s.packages ?? [];
  if (items.length > 0 && packages.length > 0 && packages.every((p) => typeof p.weight_kg === 'number')) {
    const itemWeight = items.reduce((sum, i) => sum + (i.quantity ?? 0) * (i.unit_weight ?? 0), 0);
    const packageWeight = packages.reduce((sum, p) => sum + (p.weight_kg ?? 0) * (p.quantity ?? 1), 0);
    if (itemWeight > packageWeight + 1e-9) {
      add(errors, 'customs_information.items', `total item weight ${itemWeight} kg exceeds the package weight ${packageWeight} kg`);
    }
  }
  return errors;
}

function partyErrors(errors: FieldErrors, key: string, p: Party | null | undefined): void {
  if (!p) {
    if (!errors[key]) add(errors, key, 'is required');
    return;
  }
  if (blank(p.name)) add(errors, `${key}.name`, 'is required');
  const a = p.address;
  for (const f of ['address_line_1', 'postal_code', 'city', 'country_code'] as const) {
    if (blank(a?.[f])) add(errors, `${key}.address.${f}`, 'is required');
  }
  if (blank(p.contact?.name) && blank(p.contact?.email) && blank(p.contact?.phone)) {
    add(errors, `${key}.contact`, 'is required');
  }
}

/** What is still missing before the shipment can be booked. */
export function bookableErrors(s: ShipmentBody): FieldErrors {
  const errors = alwaysErrors(s);
  partyErrors(errors, 'from', s.from);
  partyErrors(errors, 'to', s.to);
  const packages = s.packages ?? [];
  if (packages.length === 0) add(errors, 'packages', 'is required');
  packages.forEach((p, i) => {
    for (const f of ['weight_kg', 'depth_cm', 'height_cm', 'width_cm'] as const) {
      const v = p[f];
      if (v === undefined || v === null) add(errors, `packages[${i}].${f}`, 'is required');
      else if (v <= 0) add(errors, `packages[${i}].${f}`, 'must be greater than 0');
    }
  });
  return errors;
}

/**
 * Missing parts of structured customs data (empty = complete: the invoice is generated).
 * `receiver` is the buyer (`to`): when it is a business, the spec makes its EORI and VAT
 * numbers required ("Required for B2B international shipments").
 */
export function customsMissing(c: Customs | null | undefined, receiver?: { is_private_individual?: boolean | null } | null): string[] {
  if (!c) return ['customs_information'];
  const missing: string[] = [];
  for (const f of ['invoice_type', 'reason_for_export', 'currency', 'signature'] as const) {
    if (blank(c[f])) missing.push(`customs_information.${f}`);
  }
  if (receiver && receiver.is_private_individual !== true) {
    for (const f of ['receiver_eori_number', 'receiver_vat_number'] as const) {
      if (blank(c[f])) missing.push(`customs_information.${f}`);
    }
  }
  const items = c.items ?? [];
  if (items.length === 0) missing.push('customs_information.items');
  items.forEach((item, i) => {
    for (const f of ['description', 'quantity', 'unit_type', 'unit_weight', 'unit_value', 'hs_code', 'country_of_origin'] as const) {
      if (blank(item[f])) missing.push(`customs_information.items[${i}].${f}`);
    }
  });
  return missing;
}

export const hasErrors = (e: FieldErrors): boolean => Object.keys(e).length > 0;

const hhmmss = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/, 'must be a time of day HH:MM:SS');
const dateTime = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time with offset' });

export const addonsSchema = z.looseObject({
  insurance: z.object({ declared_value: z.string(), declared_currency: z.string() }).nullish(),
  definite_loading: hhmmss.nullish(),
  definite_unloading: dateTime.nullish(),
  guaranteed_delivery_time: hhmmss.nullish(),
  notification: z.boolean().nullish(),
  indoor_delivery: z.boolean().nullish(),
  pickup_notification: z.boolean().nullish(),
  delivery_notice: z.boolean().nullish(),
  green_shipping: z.boolean().nullish(),
  tailgate_lift_unloading: z.boolean().nullish(),
  tailgate_lift_loading: z.boolean().nullish(),
  delivery_without_proof: z.boolean().nullish(),
  thermo_heat: z.boolean().nullish(),
  without_pickup: z.boolean().nullish(),
  collection_at_terminal: z.boolean().nullish(),
  receiver_pays: z.boolean().nullish(),
  dangerous_goods_limited_quantity: z.boolean().nullish(),
});
export type Addons = z.infer<typeof addonsSchema>;

export const rateRequestSchema = z.object({
  shipment_id: z.string({ message: 'is required' }),
  requested_pickup_time: dateTime.nullish(),
  pickup_availability: z.object({ ready_time: hhmmss.nullish(), close_time: hhmmss.nullish() }).nullish(),
  include_own_agreements: z.boolean().nullish(),
  include_service_point_rates: z.boolean().nullish(),
  included_non_eu_rates: z.boolean().nullish(),
  incoterms: z.string().nullish(),
  required_addons: addonsSchema.nullish(),
  shipping_rule_ids: z.array(z.string()).nullish(),
  shipping_rule_hashes: z.array(z.string()).nullish(),
});
export type RateRequest = z.infer<typeof rateRequestSchema>;

export const bookRequestSchema = z.object({
  booking_token: z.string({ message: 'is required' }).min(1, 'is required'),
  pickup_instructions: str,
  delivery_instructions: str,
  delivery_service_point_token: str,
});

export const printRequestSchema = z.object({
  shipment_ids: z.array(z.string()).min(1, 'must name at least one shipment'),
  document_type: z.string({ message: 'is required' }).min(1, 'is required'),
  label_layout: z.enum(['1x2', '3x1', '2x2', 'printer', 'a4']).nullish(),
  output_format: z.enum(['url', 'file', 'printer']).nullish(),
  printer_id: str,
});

export const cancelRequestSchema = z.object({ shipment_id: z.string({ message: 'is required' }) });

export const servicePointRequestSchema = z.object({
  address_line: str,
  postal_code: z.string({ message: 'is required' }).min(1, 'is required'),
  city: str,
  country_code: z.string({ message: 'is required' }).length(2, 'must be a two-letter country code'),
  carrier: str,
});

const idRef = z.object({ id: z.string() }).nullable().optional();
export const defaultsPatchSchema = z.object({ sender_address: idRef, receiver_address: idRef, package: idRef });
