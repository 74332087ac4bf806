/**
 * --simulate-carrier: booked shipments move through carrier events over time. Each step
 * is one unref'd timer, so a running simulation never keeps the process alive and
 * close() stops everything.
 *
 * Time is compressed, and never ahead of the clock: a step fires every `stepMs` of real
 * time and is dated when it fires (README: tracking), so a journey of hours happens in
 * seconds, in order, every event already in the past when anyone reads it, and the last
 * one is at the receiver's city. (Dating steps at simulated minutes after the booking put
 * "Delivered 09:03" on a shipment looked at 03:50.)
 */
export interface CarrierStep {
  readonly event: string;
  readonly reason: string;
  readonly description: string;
  /** Where it happens: the sender's city, the sender's terminal, or the receiver's city. */
  readonly place: 'sender' | 'sender_terminal' | 'receiver_terminal' | 'receiver';
  /** The shipment status once this event is the latest. */
  readonly shipmentStatus: 'IN_TRANSIT' | 'DELIVERED';
}

const template = (
  event: string,
  reason: string,
  description: string,
  place: CarrierStep['place'],
  shipmentStatus: CarrierStep['shipmentStatus'] = 'IN_TRANSIT',
): CarrierStep => ({ event, reason, description, place, shipmentStatus });

const PICKUP = template('PICKUP', 'UNKNOWN', 'The shipment has been picked up', 'sender');
const DEPARTED = template('IN_TRANSIT', 'UNKNOWN', 'The shipment has left the terminal', 'sender_terminal');
const DELAY = template('DELAYED', 'LATE_LINEHAUL', 'The linehaul arrived late', 'receiver_terminal');
const OUT = template('OUT_FOR_DELIVERY', 'UNKNOWN', 'The shipment is out for delivery', 'receiver');
const DELIVERED = template('DELIVERED', 'UNKNOWN', 'The shipment has been delivered', 'receiver', 'DELIVERED');

/** The steps one shipment goes through, in order; about one in six is delayed in transit. */
export function carrierSteps(random: () => number): CarrierStep[] {
  return random() < 1 / 6 ? [PICKUP, DEPARTED, DELAY, OUT, DELIVERED] : [PICKUP, DEPARTED, OUT, DELIVERED];
}

export class CarrierSimulator {
  private readonly timers = new Map<string, NodeJS.Timeout[]>();

  constructor(
    private readonly stepMs: number,
    private readonly random: () => number,
    private readonly onStep: (shipmentId: string, step: CarrierStep) => void,
  ) {}

  start(shipmentId: string): void {
    const timers = carrierSteps(this.random).map((step, i) => {
      const timer = setTimeout(
        () => {
          this.onStep(shipmentId, step);
          if (step.event === 'DELIVERED') this.timers.delete(shipmentId);
        },
        this.stepMs * (i + 1),
      );
      timer.unref();
      return timer;
    });
    this.timers.set(shipmentId, timers);
  }

  stop(shipmentId: string): void {
    for (const t of this.timers.get(shipmentId) ?? []) clearTimeout(t);
    this.timers.delete(shipmentId);
  }

  close(): void {
    for (const id of [...this.timers.keys()]) this.stop(id);
  }
}
