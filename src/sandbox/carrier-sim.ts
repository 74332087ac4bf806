/**
 * --simulate-carrier: booked shipments move through carrier events over time. Each step
 * is one unref'd timer, so a running simulation never keeps the process alive and
 * close() stops everything.
 */
export interface CarrierStep {
  readonly event: string;
  readonly reason: string;
  readonly description: string;
  readonly location: string;
}

const HAPPY: readonly CarrierStep[] = [
  { event: 'PICKUP', reason: 'UNKNOWN', description: 'The shipment has been picked up', location: 'Göteborg' },
  { event: 'IN_TRANSIT', reason: 'UNKNOWN', description: 'The shipment is on its way', location: 'Jönköping terminal' },
  { event: 'OUT_FOR_DELIVERY', reason: 'UNKNOWN', description: 'The shipment is out for delivery', location: 'Stockholm' },
  { event: 'DELIVERED', reason: 'UNKNOWN', description: 'The shipment has been delivered', location: 'Stockholm' },
];
const DELAY: CarrierStep = { event: 'DELAYED', reason: 'LATE_LINEHAUL', description: 'The linehaul arrived late', location: 'Jönköping terminal' };

/** The steps one shipment goes through; about one in six is delayed in transit. */
export function carrierSteps(random: () => number): CarrierStep[] {
  const steps = [...HAPPY];
  if (random() < 1 / 6) steps.splice(2, 0, DELAY);
  return steps;
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
      const timer = setTimeout(() => {
        this.onStep(shipmentId, step);
        if (step.event === 'DELIVERED') this.timers.delete(shipmentId);
      }, this.stepMs * (i + 1));
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
