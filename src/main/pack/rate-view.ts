/** Rate responses as the packer's list, and which rate is selected first. */
import type { RateView, RatesView } from '../../shared/domain';
import type { Rate, RateResponse } from '../api/schemas';

export function toRateView(rate: Rate, thirdPartyPayer: boolean): RateView {
  const receiverPays = rate.receiver_pays === true || rate.price === '-';
  const p = rate.pickup;
  const cutoff = p?.cutoff_date ? `${p.cutoff_date}${p.cutoff_time ? ` ${p.cutoff_time.slice(0, 5)}` : ''}` : null;
  const supported = rate.third_party_customs_payer_supported === true;
  return {
    token: rate.booking_token,
    priceRank: rate.price_rank,
    carrier: rate.carrier ?? null,
    carrierName: rate.carrier_name,
    productName: rate.product_name,
    price: receiverPays || !rate.price ? null : rate.price,
    currency: rate.currency ?? null,
    receiverPays,
    daysMin: rate.transport_business_days_min ?? null,
    daysMax: rate.transport_business_days_max ?? null,
    pickupCutoff: cutoff,
    needsServicePoint: rate.require_delivery_service_point === true,
    requiredDocuments: [...rate.required_documents],
    thirdPartyPayerSupported: supported,
    ownAgreementName: rate.own_agreement_name ?? null,
    expiresAt: rate.expires_at ?? null,
    // Spec, ThirdPartyCustomsPayer rule 3: only supporting rates can be booked while a payer is set.
    bookable: !thirdPartyPayer || supported,
  };
}

/**
 * The service sorts by price and applies the rules (a `prefer` rule narrows the list to the
 * preferred carrier), so the first bookable rate by price rank is the rules' preferred one,
 * else the cheapest.
 */
export function toRatesView(shipmentId: string, response: RateResponse, thirdPartyPayer: boolean, now: Date): RatesView {
  const rates = response.rates.map((r) => toRateView(r, thirdPartyPayer)).sort((a, b) => a.priceRank - b.priceRank);
  return {
    shipmentId,
    rates,
    selected: rates.find((r) => r.bookable)?.token ?? null,
    warnings: response.warnings.map((w) => ({
      carrierName: w.carrier_name ?? 'Carrier',
      product: w.carrier_product_code ?? '',
      messages: [...w.warnings],
    })),
    appliedRules: response.applied_shipping_rules.map((r) => r.name ?? r.id),
    fetchedAt: now.toISOString(),
  };
}

/** The same offer in a newer search: carrier, product and agreement match. */
export function sameOffer(a: RateView, b: RateView): boolean {
  return (
    a.carrierName === b.carrierName &&
    a.productName === b.productName &&
    a.ownAgreementName === b.ownAgreementName &&
    a.receiverPays === b.receiverPays
  );
}

/**
 * The next pickup at `HH:MM` local time: today when it is still ahead, else the next
 * weekday. ISO 8601 with the local offset, as the spec asks.
 */
export function nextPickup(now: Date, hhmm: string): string {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  const at = new Date(now);
  at.setHours(h, m, 0, 0);
  if (at.getTime() <= now.getTime()) at.setDate(at.getDate() + 1);
  while (at.getDay() === 0 || at.getDay() === 6) at.setDate(at.getDate() + 1);
  return withOffset(at);
}

function withOffset(d: Date): string {
  const pad = (n: number): string => String(Math.abs(n)).padStart(2, '0');
  const offset = -d.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:00${sign}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`;
}
