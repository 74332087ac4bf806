/** Booking confirmation, tracking and cancellation: shared by the API routes and /admin. */
import { carrierByCode, type Product } from './catalog';
import { CarrierSimulator, type CarrierStep } from './carrier-sim';
import type { SandboxState } from './state';
import { isBooked, type Booking, type StoredShipment, type TrackingEvent } from './store';
import type { Party, ShipmentBody } from './validation';

/** Parcels beyond this many in one shipment share the main tracking id (a sandbox bound, not a carrier's). */
export const MAX_PARCEL_NUMBERS = 999;

export interface BookingInput {
  readonly product: Product;
  readonly agreement: 'SERVICE' | 'OWN';
  readonly receiverPays: boolean;
  readonly price: number;
  readonly nonEu: boolean;
  readonly source: 'API' | 'APP';
  readonly servicePoint: Booking['servicePoint'];
  readonly pickupInstructions?: string | null;
  readonly deliveryInstructions?: string | null;
}

export class Services {
  readonly carrierSim: CarrierSimulator | null;

  constructor(
    private readonly state: SandboxState,
    options: { simulateCarrier: boolean; carrierStepMs: number },
  ) {
    this.carrierSim = options.simulateCarrier
      ? new CarrierSimulator(options.carrierStepMs, state.random, (id, step) => this.carrierEvent(id, step))
      : null;
  }

  trackingId(carrier: string): string {
    const prefix = carrierByCode(carrier)?.trackingPrefix ?? 'TRK';
    return `${prefix}${String(Math.floor(this.state.random() * 1e12)).padStart(12, '0')}`;
  }

  /**
   * One number per parcel (a package of quantity 3 is three parcels), as carriers issue
   * them: the first parcel carries the shipment's main tracking id, every other its own.
   */
  parcelTrackingIds(carrier: string, mainTrackingId: string, body: ShipmentBody): string[][] {
    const issued = new Set([mainTrackingId]);
    let count = 0;
    return (body.packages ?? []).map((pkg) => {
      const quantity = typeof pkg.quantity === 'number' && pkg.quantity > 0 ? Math.floor(pkg.quantity) : 0;
      return Array.from({ length: quantity }, () => {
        count += 1;
        if (count === 1 || count > MAX_PARCEL_NUMBERS) return mainTrackingId;
        let id = this.trackingId(carrier);
        while (issued.has(id)) id = this.trackingId(carrier);
        issued.add(id);
        return id;
      });
    });
  }

  private event(s: StoredShipment, status: string, at: Date, description: string, location: string): TrackingEvent {
    const booking = s.booking!;
    return {
      id: this.state.newId(),
      url: `https://tracking.sandbox.example/${booking.carrier}/${booking.trackingId}`,
      status,
      created_at: this.state.nanoIso(at),
      description,
      location_name: location,
    };
  }

  /** Marks the shipment booked, records the ORDERED event and announces SHIPMENT_BOOKED. */
  confirm(s: StoredShipment, input: BookingInput, emit = true): void {
    const carrier = carrierByCode(input.product.carrier)!;
    const at = this.state.now();
    const previous = s.status;
    const trackingId = this.trackingId(carrier.carrier);
    s.booking = {
      carrier: carrier.carrier,
      carrierName: carrier.name,
      product: input.product.code,
      productName: input.product.name,
      trackingId,
      parcelTrackingIds: this.parcelTrackingIds(carrier.carrier, trackingId, s.body),
      agreement: input.agreement,
      receiverPays: input.receiverPays,
      price: input.price,
      currency: 'SEK',
      source: input.source,
      manifest: input.product.manifest,
      nonEu: input.nonEu,
      servicePoint: input.servicePoint,
      pickupInstructions: input.pickupInstructions ?? null,
      deliveryInstructions: input.deliveryInstructions ?? null,
    };
    s.status = 'BOOKED';
    s.bookedAt = at.toISOString();
    s.bookedAtMs = at.getTime();
    s.tracking = [this.event(s, 'ORDERED', at, 'The shipment has been ordered from the carrier', '')];
    this.state.store.touch(s, s.bookedAt, s.body.reference_id, previous);
    if (!emit) return;
    this.state.dispatcher.emit({
      type: 'SHIPMENT_BOOKED',
      subscription: `SHIPMENT_BOOKED_${input.source}`,
      shipmentId: s.id,
      data: {
        carrier: carrier.carrier,
        product: input.product.code,
        source: input.source,
        agreement: input.agreement,
        tracking_id: s.booking.trackingId,
        reference_id: s.body.reference_id ?? '',
        invoice_reference: s.body.invoice_reference ?? null,
        customer_reference: s.body.sender_reference ?? '',
        booked_at: s.bookedAt,
      },
    });
    this.carrierSim?.start(s.id);
  }

  cancel(s: StoredShipment): void {
    this.carrierSim?.stop(s.id);
    const previous = s.status;
    s.status = 'CANCELED';
    // Spec, Preconditions 5: without a carrier event a canceled shipment has no tracking.
    if (!s.carrierEventSeen) s.tracking = [];
    this.state.store.touch(s, this.state.nowIso(), s.body.reference_id, previous);
  }

  /**
   * A TRACKING_EVENT `CANCELED` for a canceled shipment, as a service that reports cancels
   * among tracking events would send it (the spec does not say it does: only on request,
   * POST /admin/cancel with `tracking_event`). Not added to the shipment's tracking (README 34).
   */
  announceCancel(s: StoredShipment): void {
    if (!s.booking) return;
    this.state.dispatcher.emit({
      type: 'TRACKING_EVENT',
      subscription: 'CANCELED',
      shipmentId: s.id,
      data: {
        event: 'CANCELED',
        carrier: s.booking.carrier,
        tracking_id: s.booking.trackingId,
        reason: null,
        description: 'Shipment canceled',
        location: '',
        event_time: this.state.nanoIso(new Date(this.state.nowMs())),
      },
    });
  }

  private carrierEvent(shipmentId: string, step: CarrierStep): void {
    const s = this.state.store.get(shipmentId);
    if (!s || !isBooked(s) || !s.booking || s.bookedAtMs === null) return;
    // Dated when it happens: never ahead of the clock, always after ORDERED (README 34).
    const at = this.state.now();
    const location = placeName(s.body, step.place);
    const event = this.event(s, step.event, at, step.description, location);
    s.tracking.push(event);
    s.carrierEventSeen = true;
    const previous = s.status;
    s.status = step.shipmentStatus;
    this.state.store.restatus(s, previous);
    this.state.dispatcher.emit({
      type: 'TRACKING_EVENT',
      subscription: step.event,
      shipmentId: s.id,
      data: {
        event: step.event,
        carrier: s.booking.carrier,
        tracking_id: s.booking.trackingId,
        reason: step.reason,
        description: step.description,
        location,
        event_time: event.created_at,
      },
    });
  }

  close(): void {
    this.carrierSim?.close();
  }
}

/** The city where a step happens: goods leave from alternative_from (else from) and go to alternative_to (else to). */
function placeName(body: ShipmentBody, place: CarrierStep['place']): string {
  const sender = body.alternative_from ?? body.from;
  const receiver = body.alternative_to ?? body.to;
  const city = (party: Party | null | undefined): string => party?.address?.city?.trim() ?? '';
  switch (place) {
    case 'sender':
      return city(sender);
    case 'sender_terminal':
      return city(sender) ? `${city(sender)} terminal` : '';
    case 'receiver_terminal':
      return city(receiver) ? `${city(receiver)} terminal` : '';
    case 'receiver':
      return city(receiver);
  }
}
