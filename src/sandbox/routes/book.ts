import { productByCode } from '../catalog';
import { HttpError, json, parseBody } from '../http';
import { dangerousGoodsOf, dangerousGoodsSignature } from '../rating';
import { route, type Route } from '../router';
import type { IssuedRate, SandboxState } from '../state';
import { isBooked, type StoredShipment } from '../store';
import { bookRequestSchema, cancelRequestSchema, customsMissing } from '../validation';

function issuedRate(state: SandboxState, token: string): IssuedRate {
  const issued = state.rates.get(token);
  if (!issued)
    throw new HttpError(
      422,
      'booking_token_invalid',
      'Unknown booking_token. Request rates again and book with a token from the response.',
    );
  if (state.nowMs() >= issued.expiresAtMs) {
    throw new HttpError(422, 'booking_token_expired', 'The booking_token has expired (tokens are valid 30 minutes). Request rates again.');
  }
  return issued;
}

/** Spec, Endpoints rules 5-9 and ThirdPartyCustomsPayer rules 2-3, in the order a caller can fix them. */
function checkBookable(state: SandboxState, s: StoredShipment, rate: IssuedRate, servicePointToken: string | null | undefined): void {
  if (isBooked(s)) throw new HttpError(409, 'shipment_booked', `Shipment ${s.id} is already booked.`);
  if (s.status === 'CANCELED') throw new HttpError(409, 'shipment_canceled', `Shipment ${s.id} is canceled. Create a new shipment.`);
  if (dangerousGoodsSignature(s.body) !== rate.dangerousGoods) {
    throw new HttpError(
      422,
      'dangerous_goods_changed',
      "A package's dangerous_goods_type changed after the rates were fetched. Fetch new rates and book with the new token.",
    );
  }
  if (dangerousGoodsOf(s.body) === 'adr' && !state.adrApproved) {
    throw new HttpError(
      422,
      'adr_approval_withdrawn',
      "The team's ADR approval was withdrawn since the rates were fetched. ADR shipments cannot be booked without it.",
    );
  }
  const payer = s.body.third_party_customs_payer;
  if (payer && !rate.thirdPartyCustomsPayer) {
    throw new HttpError(
      422,
      'third_party_customs_payer_not_supported',
      'This rate does not support third-party customs billing. Pick a rate with third_party_customs_payer_supported, or remove the payer.',
    );
  }
  if (payer && rate.incoterms?.toUpperCase() === 'DDP') {
    throw new HttpError(
      422,
      'ddp_with_third_party_customs_payer',
      'A third-party customs payer cannot be combined with DDP incoterms. Remove one of them and request rates again.',
    );
  }
  if (rate.servicePoint) {
    if (!servicePointToken) {
      throw new HttpError(
        422,
        'delivery_service_point_required',
        'This rate delivers to a service point: pass delivery_service_point_token from POST /locations/servicepoints.',
      );
    }
    const point = state.servicePoints.get(servicePointToken);
    if (!point || point.carrier !== rate.carrier) {
      throw new HttpError(
        422,
        'delivery_service_point_invalid',
        `Unknown delivery_service_point_token for carrier ${rate.carrier}. Search service points again.`,
      );
    }
  }
  if (rate.nonEu && s.body.customs_information) {
    const missing = customsMissing(s.body.customs_information, s.body.to);
    if (missing.length > 0) {
      throw new HttpError(
        422,
        'customs_information_incomplete',
        `Customs data is incomplete: ${missing.join(', ')}. Complete customs_information (PUT /shipments/{id}) and book again.`,
      );
    }
  }
  const notUploaded = rate.requiredDocuments.filter((d) => !s.uploads.has(d));
  if (notUploaded.length > 0) {
    // The field map names each document (README 29), so a caller can point at what to upload.
    throw new HttpError(
      422,
      'documents_missing',
      `Upload the required documents first: ${notUploaded.join(', ')} (POST /shipments/${s.id}/{document_type}).`,
      Object.fromEntries(notUploaded.map((d) => [`documents.${d}`, ['must be uploaded before booking']])),
    );
  }
}

export const bookRoutes: readonly Route[] = [
  route('POST', '/shipments/book', async ({ state, services, json: body }) => {
    const req = parseBody(bookRequestSchema, await body());
    const rate = issuedRate(state, req.booking_token);
    const shipment = state.shipment(rate.shipmentId);
    checkBookable(state, shipment, rate, req.delivery_service_point_token);
    const payer = shipment.body.third_party_customs_payer;
    if (payer?.account_number?.toUpperCase().startsWith('INVALID')) {
      // Spec, ThirdPartyCustomsPayer 1: an invalid account surfaces as a carrier-side billing failure.
      const previous = shipment.status;
      shipment.status = 'BOOKING_FAILED';
      state.store.touch(shipment, state.nowIso(), shipment.body.reference_id, previous);
      throw new HttpError(
        422,
        'carrier_booking_failed',
        'The carrier rejected the booking: third-party customs payer account not valid. Fix the account (or delete the shipment) and book again.',
      );
    }
    const point = req.delivery_service_point_token ? state.servicePoints.get(req.delivery_service_point_token) : undefined;
    services.confirm(shipment, {
      product: productByCode(rate.carrier, rate.product)!,
      agreement: rate.ownAgreement ? 'OWN' : 'SERVICE',
      receiverPays: rate.receiverPays,
      price: rate.price,
      nonEu: rate.nonEu,
      source: 'API',
      servicePoint: rate.servicePoint && point ? { token: req.delivery_service_point_token!, name: point.name } : null,
      pickupInstructions: req.pickup_instructions,
      deliveryInstructions: req.delivery_instructions,
    });
    state.rates.delete(req.booking_token);
    return json(200, { shipment_id: shipment.id, main_tracking_id: shipment.booking!.trackingId });
  }),

  route('POST', '/shipments/cancel', async ({ state, services, json: body }) => {
    const req = parseBody(cancelRequestSchema, await body());
    const shipment = state.shipment(req.shipment_id);
    if (!isBooked(shipment)) {
      throw new HttpError(
        409,
        'shipment_not_booked',
        `Only booked shipments can be canceled; shipment ${shipment.id} is ${shipment.status}.`,
      );
    }
    if (shipment.status !== 'BOOKED') {
      // Sandbox choice (README 33): once the carrier has the goods (picked up or later) a
      // cancel would void a label on a parcel already travelling; the spec is silent, carriers refuse.
      throw new HttpError(
        409,
        'shipment_with_carrier',
        `Shipment ${shipment.id} is already with the carrier (${shipment.status}): it can no longer be canceled. Ask the carrier to stop or return it.`,
      );
    }
    services.cancel(shipment);
    return json(200, { shipment_id: shipment.id, status: shipment.status });
  }),

  route('GET', '/shipments/:id/tracking', ({ state, params }) => json(200, state.shipment(params['id']!).tracking)),
];
