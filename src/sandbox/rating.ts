/** The rate search: which catalogue products a shipment can take, at what price, with what warnings. */
import {
  ADDON_PRICES,
  ADR_PRICE,
  CARRIERS,
  EU_COUNTRIES,
  LIMITED_QUANTITY_PRICE,
  OWN_AGREEMENTS,
  PRODUCTS,
  PROVINCE_COUNTRIES,
  SHIPPING_RULES,
  type AddonName,
  type Product,
  type ShippingRule,
} from './catalog';
import { HttpError } from './http';
import type { IssuedRate, SandboxState } from './state';
import { isBooked, type StoredShipment } from './store';
import { bookableErrors, customsMissing, hasErrors, type Addons, type RateRequest, type ShipmentBody } from './validation';

export const BOOKING_TOKEN_TTL_MS = 30 * 60 * 1000;

export type DangerousGoods = 'adr' | 'limited_quantity' | null;

/** Spec, Package rule 1: one `adr` package makes the whole shipment fully regulated. */
export function dangerousGoodsOf(body: ShipmentBody, addons?: Addons | null): DangerousGoods {
  const types = (body.packages ?? []).map((p) => p.dangerous_goods_type ?? null);
  if (types.includes('adr')) return 'adr';
  if (types.includes('limited_quantity')) return 'limited_quantity';
  // The deprecated addon only counts when no package names a dangerous goods type.
  if (addons?.dangerous_goods_limited_quantity === true) return 'limited_quantity';
  return null;
}

export const dangerousGoodsSignature = (body: ShipmentBody): string =>
  JSON.stringify((body.packages ?? []).map((p) => p.dangerous_goods_type ?? null));

export function routeOf(body: ShipmentBody): { from: string; to: string; nonEu: boolean } {
  const from = ((body.alternative_from ?? body.from)?.address?.country_code ?? '').toUpperCase();
  const to = ((body.alternative_to ?? body.to)?.address?.country_code ?? '').toUpperCase();
  return { from, to, nonEu: !EU_COUNTRIES.has(from) || !EU_COUNTRIES.has(to) };
}

function requestedAddons(addons: Addons | null | undefined): AddonName[] {
  if (!addons) return [];
  return (Object.keys(ADDON_PRICES) as AddonName[]).filter((name) => {
    const value = (addons as Record<string, unknown>)[name];
    return value !== undefined && value !== null && value !== false;
  });
}

function resolveRules(req: RateRequest): ShippingRule[] {
  // Spec: ids win over the older hashes; either limits the search to the named rules,
  // disabled ones included. Without either, the team's enabled rules apply.
  const named = req.shipping_rule_ids ?? req.shipping_rule_hashes;
  if (named === null || named === undefined) return SHIPPING_RULES.filter((r) => r.enabled);
  return named.map((id) => {
    const rule = SHIPPING_RULES.find((r) => r.id === id);
    if (!rule)
      throw new HttpError(400, 'unknown_shipping_rule', `Shipping rule "${id}" does not exist. Use an id from GET /shipping-rules.`);
    return rule;
  });
}

function ruleMatches(rule: ShippingRule, body: ShipmentBody): boolean {
  if (!rule.when) return true;
  if (rule.when.toAddressBookId && body.to?.address_book_id !== rule.when.toAddressBookId) return false;
  if (rule.when.favoritePackageId && !(body.packages ?? []).some((p) => p.favorite_package_id === rule.when!.favoritePackageId))
    return false;
  return true;
}

function fieldWarnings(product: Product, body: ShipmentBody, routeTo: string): string[] {
  const warnings: string[] = [];
  for (const [key, label] of [
    ['from', 'Sender'],
    ['to', 'Receiver'],
  ] as const) {
    const party = body[key];
    const name = party?.name ?? '';
    if (product.maxCompanyName !== null && name.length > product.maxCompanyName) {
      warnings.push(`${label} company name is ${name.length} characters; ${product.name} allows at most ${product.maxCompanyName}.`);
    }
    const contact = party?.contact?.name ?? '';
    if (product.maxContactName !== null && contact.length > product.maxContactName) {
      warnings.push(`${label} contact name is ${contact.length} characters; ${product.name} allows at most ${product.maxContactName}.`);
    }
  }
  const to = body.alternative_to ?? body.to;
  if (product.requiresProvince && PROVINCE_COUNTRIES.has(routeTo) && !to?.address?.province) {
    warnings.push(`Receiver province is required for ${routeTo} by ${product.name}.`);
  }
  return warnings;
}

function addDays(date: string, businessDays: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  for (let left = businessDays; left > 0;) {
    d.setUTCDate(d.getUTCDate() + 1);
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) left--;
  }
  return d.toISOString().slice(0, 10);
}

function pickupDate(raw: string): string {
  const d = new Date(`${raw}T12:00:00Z`);
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

interface Candidate {
  readonly product: Product;
  readonly own: { readonly name: string; readonly discount: number } | null;
}

export interface RateResult {
  readonly rates: Array<Record<string, unknown>>;
  readonly warnings: Array<{ carrier_name: string; carrier_product_code: string; warnings: string[] }>;
  readonly applied_shipping_rules: Array<Record<string, unknown>>;
}

export function searchRates(state: SandboxState, shipment: StoredShipment, req: RateRequest): RateResult {
  const body = shipment.body;
  if (isBooked(shipment) || shipment.status === 'CANCELED') {
    const code = isBooked(shipment) ? 'shipment_booked' : 'shipment_canceled';
    throw new HttpError(409, code, `Shipment ${shipment.id} is ${shipment.status}; rates are only searched for shipments not yet booked.`);
  }
  const missing = bookableErrors(body);
  if (hasErrors(missing))
    throw new HttpError(422, 'validation_failed', 'The shipment is not bookable yet: complete the fields listed in errors.', missing);
  const addons = req.required_addons ?? null;
  const withoutPickup = addons?.without_pickup === true;
  if (!withoutPickup && !req.requested_pickup_time) {
    throw new HttpError(
      422,
      'requested_pickup_time_required',
      'requested_pickup_time is required unless required_addons.without_pickup is true.',
    );
  }
  const ddp = req.incoterms?.toUpperCase() === 'DDP';
  if (ddp && body.third_party_customs_payer) {
    throw new HttpError(
      422,
      'ddp_with_third_party_customs_payer',
      'A third-party customs payer cannot be combined with DDP incoterms. Remove one of them.',
    );
  }
  const dg = dangerousGoodsOf(body, addons);
  if (dg === 'adr' && !state.adrApproved) {
    throw new HttpError(
      422,
      'adr_not_approved',
      "Fully regulated (ADR) dangerous goods need the team's ADR approval. Ask the service to approve the team.",
    );
  }
  const rules = resolveRules(req);
  const route = routeOf(body);
  const warnings: RateResult['warnings'] = [];
  if (route.nonEu && req.included_non_eu_rates !== true) return finish(state, shipment, req, [], warnings, [], dg);

  const receiver = body.alternative_to ?? body.to;
  const wanted = requestedAddons(addons);
  const receiverPays = addons?.receiver_pays === true;
  const customsComplete = customsMissing(body.customs_information, body.to).length === 0;
  const candidates: Candidate[] = PRODUCTS.map((product) => ({ product, own: null }));
  if (req.include_own_agreements === true && !receiverPays) {
    for (const a of OWN_AGREEMENTS) {
      const product = PRODUCTS.find((p) => p.carrier === a.carrier && p.code === a.product);
      if (product) candidates.push({ product, own: { name: a.name, discount: a.discount } });
    }
  }
  const offers: Array<{ c: Candidate; price: number; documents: string[] }> = [];
  for (const c of candidates) {
    const p = c.product;
    if (route.nonEu) {
      const outside = [route.from, route.to].filter((cc) => !EU_COUNTRIES.has(cc));
      if (p.nonEuCountries !== 'all' && !outside.every((cc) => (p.nonEuCountries as ReadonlySet<string>).has(cc))) continue;
    }
    if (p.servicePoint) {
      const a = receiver?.address;
      const complete = !!(a?.address_line_1 && a.postal_code && a.city && a.country_code);
      if (req.include_service_point_rates !== true || receiver?.is_private_individual !== true || !complete) continue;
    }
    if (!wanted.every((addon) => p.addons.has(addon))) continue;
    if (receiverPays) {
      const carrier = CARRIERS.find((x) => x.carrier === p.carrier);
      const account = (body.to?.carrier_accounts ?? []).find((e) => e.carrier === p.carrier && e.account_identifier.trim() !== '');
      if (!carrier?.receiverPays || !account) continue;
    }
    if (dg === 'limited_quantity' && !p.limitedQuantity) continue;
    if (dg === 'adr' && (!p.adr || p.adrDeclarationForm)) continue;
    const issues = fieldWarnings(p, body, route.to);
    if (issues.length > 0) {
      if (!warnings.some((w) => w.carrier_product_code === p.code)) {
        warnings.push({ carrier_name: carrierName(p.carrier), carrier_product_code: p.code, warnings: issues });
      }
      continue;
    }
    const weight = (body.packages ?? []).reduce((s, pk) => s + (pk.weight_kg ?? 0) * (pk.quantity ?? 1), 0);
    let price = p.basePrice + p.perKg * weight;
    for (const addon of wanted) price += ADDON_PRICES[addon];
    if (addons?.insurance) price += Math.max(50, Number(addons.insurance.declared_value) * 0.01 || 0);
    if (dg === 'limited_quantity') price += LIMITED_QUANTITY_PRICE;
    if (dg === 'adr') price += ADR_PRICE;
    if (c.own) price *= c.own.discount;
    const documents: string[] = [];
    if (route.nonEu) documents.push(...p.nonEuDocuments.filter((d) => d !== 'customsinvoice' || !customsComplete));
    if (dg === 'adr' && p.adrCertificate) documents.push('adr_dangerousgoods');
    offers.push({ c, price: Math.round(price * 100) / 100, documents });
  }

  const applied = rules.filter((r) => ruleMatches(r, body));
  let kept = offers;
  for (const rule of applied) {
    const ofCarrier = kept.filter((o) => o.c.product.carrier === rule.carrier);
    if (rule.type === 'exclude') kept = kept.filter((o) => o.c.product.carrier !== rule.carrier);
    else if (rule.type === 'include') kept = ofCarrier;
    else if (ofCarrier.length > 0) kept = ofCarrier; // prefer: only when the carrier offers something
  }
  kept.sort((a, b) => a.price - b.price || a.c.product.code.localeCompare(b.c.product.code));
  return finish(state, shipment, req, kept, warnings, applied, dg);
}

function carrierName(code: string): string {
  return CARRIERS.find((c) => c.carrier === code)?.name ?? code;
}

function finish(
  state: SandboxState,
  shipment: StoredShipment,
  req: RateRequest,
  offers: Array<{ c: Candidate; price: number; documents: string[] }>,
  warnings: RateResult['warnings'],
  applied: ShippingRule[],
  dg: DangerousGoods,
): RateResult {
  if (offers.length === 0 && warnings.length === 0) {
    throw new HttpError(
      400,
      'no_rates',
      'No rates found for this shipment (unsupported route, addons or goods). Non-EU routes need included_non_eu_rates; service points need include_service_point_rates.',
    );
  }
  state.sweep();
  const nowMs = state.nowMs();
  const route = routeOf(shipment.body);
  const receiverPays = req.required_addons?.receiver_pays === true;
  const date = pickupDate((req.requested_pickup_time ?? state.nowIso()).slice(0, 10));
  const ready = req.pickup_availability?.ready_time ?? '09:00:00';
  const close = req.pickup_availability?.close_time ?? '17:00:00';
  const rates = offers.map((o, i) => {
    const p = o.c.product;
    const token = state.token();
    const issued: IssuedRate = {
      token,
      shipmentId: shipment.id,
      carrier: p.carrier,
      product: p.code,
      ownAgreement: o.c.own !== null,
      receiverPays,
      price: o.price,
      currency: 'SEK',
      servicePoint: p.servicePoint,
      thirdPartyCustomsPayer: p.thirdPartyCustomsPayer,
      requiredDocuments: o.documents,
      nonEu: route.nonEu,
      incoterms: req.incoterms ?? null,
      dangerousGoods: dangerousGoodsSignature(shipment.body),
      adrApprovedAtIssue: dg === 'adr' && state.adrApproved,
      issuedAtMs: nowMs,
      expiresAtMs: nowMs + BOOKING_TOKEN_TTL_MS,
    };
    state.rates.set(token, issued);
    const rate: Record<string, unknown> = {
      price_rank: i + 1,
      shipment_id: shipment.id,
      booking_token: token,
      carrier: p.carrier,
      carrier_product_code: p.code,
      carrier_name: carrierName(p.carrier),
      product_name: p.name,
      price: receiverPays ? '-' : o.price.toFixed(2),
      currency: 'SEK',
      transport_business_days_min: p.daysMin,
      transport_business_days_max: p.daysMax,
      expires_at: new Date(issued.expiresAtMs).toISOString(),
      receiver_pays: receiverPays,
      own_agreement: o.c.own !== null,
      require_delivery_service_point: p.servicePoint,
      required_documents: o.documents,
      third_party_customs_payer_supported: p.thirdPartyCustomsPayer,
      pickup: { cutoff_date: date, cutoff_time: '16:00:00', date, time_window_start: ready, time_window_end: close },
      estimated_delivery: { earliest_date: addDays(date, p.daysMin), time_window_start: '09:00:00', time_window_end: '17:00:00' },
    };
    if (o.c.own) rate['own_agreement_name'] = o.c.own.name;
    return rate;
  });
  return {
    rates,
    warnings,
    applied_shipping_rules: applied.map((r) => ({ id: r.id, name: r.name, type: r.type, category: r.category, enabled: r.enabled })),
  };
}
