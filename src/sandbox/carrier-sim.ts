/**
 * --simulate-carrier: booked shipments move through carrier events over time. Each step
 * is one unref'd timer, so a running simulation never keeps the process alive and
 * close() stops everything.
 *
 * Time is compressed, not invented: a step fires every `stepMs` of real time, and its
 * event_time is the booking time plus the step's simulated minutes (README: tracking), so
 * events are minutes apart, in order, and the last one is at the receiver's city.
 */
export interface CarrierStep {
  readonly event: string;
  readonly reason: string;
  readonly description: string;
  /** Where it happens: the sender's city, the sender's terminal, or the receiver's city. */
  readonly place: 'sender' | 'sender_terminal' | 'receiver_terminal' | 'receiver';
  /** Simulated minutes after the booking (ORDERED); grows step by step. */
  readonly minutesAfterBooking: number;
  /** The shipment status once this event is the latest. */
  readonly shipmentStatus: 'IN_TRANSIT' | 'DELIVERED';
}

type StepTemplate = Omit<CarrierStep, 'minutesAfterBooking'> & { readonly minutes: readonly [number, number] };

const template = (
  event: string,
  reason: string,
  description: string,
  place: CarrierStep['place'],
  minutes: readonly [number, number],
  shipmentStatus: CarrierStep['shipmentStatus'] = 'IN_TRANSIT',
): StepTemplate => ({ event, reason, description, place, minutes, shipmentStatus });

const PICKUP = template('PICKUP', 'UNKNOWN', 'The shipment has been picked up', 'sender', [25, 55]);
const DEPARTED = template('IN_TRANSIT', 'UNKNOWN', 'The shipment has left the terminal', 'sender_terminal', [60, 120]);
const DELAY = template('DELAYED', 'LATE_LINEHAUL', 'The linehaul arrived late', 'receiver_terminal', [40, 90]);
const OUT = template('OUT_FOR_DELIVERY', 'UNKNOWN', 'The shipment is out for delivery', 'receiver', [90, 180]);
const DELIVERED = template('DELIVERED', 'UNKNOWN', 'The shipment has been delivered', 'receiver', [20, 70], 'DELIVERED');

/** The steps one shipment goes through, with simulated times; about one in six is delayed in transit. */
export function carrierSteps(random: () => number): CarrierStep[] {
  const templates = random() < 1 / 6 ? [PICKUP, DEPARTED, DELAY, OUT, DELIVERED] : [PICKUP, DEPARTED, OUT, DELIVERED];
  let minutes = 0;
  return templates.map(({ minutes: [low, high], ...step }) => {
    minutes += low + Math.floor(random() * (high - low + 1));
    return { ...step, minutesAfterBooking: minutes };
  });
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
