/**
 * Booking and printing at the station: book a rated draft once (a second Enter joins the
 * first call), fetch a booking token anew when it is about to expire or the service calls
 * it expired, and print the booking through the normal pipeline exactly once.
 */
import type { BookingNotice } from '../ledger/booking-notice';
import { shipmentStage, type BookedView, type JobView, type PackResult, type RateView } from '../../shared/domain';
import type { AgentInput } from '../../shared/agent-api';
import type { ServiceClient } from '../api/client';
import { API_ERROR_CODES, ApiError } from '../api/errors';
import type { Shipment } from '../api/schemas';
import type { Ledger } from '../ledger/ledger';
import type { PrintPipeline } from '../jobs/pipeline';
import type { Logger } from '../log';
import { isNonEu } from './draft-view';
import { PackError, attempt } from './pack-result';
import { sameOffer } from './rate-view';
import type { RateSearches } from './rate-search';

/** A token this close to its end is fetched anew before booking rather than risk a 422. */
const TOKEN_MARGIN_MS = 30_000;
/** Documents a booked shipment needs on paper besides the routing's automatic ones. */
const NEEDED_DOCUMENTS = ['customsinvoice'] as const;

export interface PackBookingDeps {
  /** The current service client (it changes when the key or address changes). */
  readonly client: () => ServiceClient;
  readonly ledger: Ledger;
  readonly pipeline: PrintPipeline;
  /** Document types the routing prints automatically after a booking (routing.autoPrint). */
  readonly autoPrintTypes: () => readonly string[];
  readonly log: Logger;
  readonly rates: RateSearches;
  readonly now: () => Date;
}

export class PackBooking {
  /** One booking per shipment at a time: a second Enter joins the first call. */
  private readonly booking = new Map<string, Promise<PackResult<BookedView>>>();

  constructor(private readonly deps: PackBookingDeps) {}

  book(input: AgentInput<'packBook'>): Promise<PackResult<BookedView>> {
    const running = this.booking.get(input.shipmentId);
    if (running) return running.then((r) => (r.ok ? { ok: true, value: { ...r.value, alreadyBooked: true } } : r));
    const call = attempt(() => this.bookOnce(input)).finally(() => this.booking.delete(input.shipmentId));
    this.booking.set(input.shipmentId, call);
    return call;
  }

  private get client(): ServiceClient {
    return this.deps.client();
  }

  private async bookOnce(input: AgentInput<'packBook'>): Promise<BookedView> {
    const stored = await this.client.getShipment(input.shipmentId);
    const stage = shipmentStage({
      status: stored.status,
      trackingId: stored.tracking_id ?? null,
      availableDocuments: stored.available_documents_types,
    });
    if (stage === 'canceled')
      throw new PackError('PACK_CANCELED', `Shipment ${stored.reference_id ?? stored.id} is canceled: it cannot be booked again.`);
    if (stage === 'booked') {
      // Booked by an earlier call (or elsewhere): print what was not printed yet, book nothing.
      return {
        shipmentId: stored.id,
        trackingId: stored.tracking_id ?? null,
        jobs: this.print(stored),
        alreadyBooked: true,
        refreshedToken: false,
      };
    }
    let token = input.token;
    let refreshed = false;
    const known = this.deps.rates.last(input.shipmentId)?.rates.find((r) => r.token === token);
    if (known && expiresSoon(known, this.deps.now())) {
      token = await this.freshToken(stored, known);
      refreshed = true;
    }
    const body = {
      delivery_service_point_token: input.servicePointToken,
      pickup_instructions: blankToUndefined(input.pickupInstructions),
      delivery_instructions: blankToUndefined(input.deliveryInstructions),
    };
    let booked;
    try {
      booked = await this.client.book({ booking_token: token, ...body });
    } catch (error) {
      // The service's clock decides: a token it calls expired is fetched anew once.
      if (refreshed || !known || !isExpiredToken(error)) throw error;
      token = await this.freshToken(stored, known);
      refreshed = true;
      booked = await this.client.book({ booking_token: token, ...body });
    }
    this.deps.rates.forget(input.shipmentId);
    const after = await this.client.getShipment(input.shipmentId).catch(() => null);
    const record = after ?? { ...stored, tracking_id: booked.main_tracking_id ?? null };
    this.deps.log.info(`pack: ${stored.id} booked${booked.main_tracking_id ? ` (${booked.main_tracking_id})` : ''}`);
    return {
      shipmentId: stored.id,
      trackingId: booked.main_tracking_id ?? null,
      jobs: this.print(record),
      alreadyBooked: false,
      refreshedToken: refreshed,
    };
  }

  /**
   * The booking's label (and documents) through the normal pipeline. The automatic job is
   * keyed per shipment and document type, so the booking's own webhook and the poll find
   * it and print nothing more.
   */
  private print(s: Shipment): JobView[] {
    const { ledger, pipeline } = this.deps;
    ledger.upsertShipment({
      shipmentId: s.id,
      referenceId: s.reference_id ?? null,
      trackingId: s.tracking_id ?? null,
      carrier: s.carrier_name ?? null,
      source: 'API',
      bookedAt: this.deps.now().toISOString(),
      data: null,
    });
    const notice: BookingNotice = {
      shipmentId: s.id,
      referenceId: s.reference_id ?? null,
      trackingId: s.tracking_id ?? null,
      carrier: s.carrier ?? s.carrier_name ?? null,
      source: 'API',
      senderReference: s.sender_reference ?? null,
      system: s.system ?? null,
      bookedAt: s.booked_at ?? this.deps.now().toISOString(),
      trigger: 'scan',
    };
    const jobs = pipeline.submitBooking(notice);
    const auto = new Set(this.deps.autoPrintTypes());
    for (const documentType of NEEDED_DOCUMENTS) {
      if (auto.has(documentType) || !isNonEu(s) || !s.available_documents_types.includes(documentType)) continue;
      // Once per booking: the per-shipment lock above keeps this from running twice.
      if (ledger.search({ text: s.id, limit: 50 }).some((j) => j.documentType === documentType)) continue;
      jobs.push(...pipeline.reprint({ shipmentId: s.id, documentType, trigger: 'scan' }));
    }
    return jobs;
  }

  private async freshToken(s: Shipment, wanted: RateView): Promise<string> {
    const again = await this.deps.rates.search(s);
    const same = again.view.rates.find((r) => sameOffer(r, wanted));
    if (!same) {
      throw new PackError(
        'PACK_RATE_GONE',
        `The ${wanted.carrierName} ${wanted.productName} rate expired and is no longer offered: pick another rate.`,
      );
    }
    this.deps.log.info(`pack: ${s.id} booking token expired; fetched the ${wanted.carrierName} rate anew`);
    return same.token;
  }
}

function isExpiredToken(error: unknown): boolean {
  return (
    error instanceof ApiError && error.code === API_ERROR_CODES.UNPROCESSABLE && /expired/i.test(error.serviceMessage ?? error.message)
  );
}

function expiresSoon(rate: RateView, now: Date): boolean {
  if (!rate.expiresAt) return false;
  const at = Date.parse(rate.expiresAt);
  return Number.isFinite(at) && at - TOKEN_MARGIN_MS <= now.getTime();
}

const blankToUndefined = (v: string | undefined): string | undefined => (v && v.trim() !== '' ? v.trim() : undefined);
