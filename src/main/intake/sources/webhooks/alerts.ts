/** Tracking events a packer or team lead must act on. */
export const ALERT_EVENTS: ReadonlySet<string> = new Set(['DELIVERY_FAILURE', 'PICKUP_FAILURE', 'RETURNED', 'AWAITING_ACTION', 'ON_HOLD']);

export interface TrackingAlert {
  readonly shipmentId: string;
  readonly trackingId: string | null;
  readonly event: string;
  readonly reason: string | null;
  readonly occurredAt: string;
  /** One sentence for a person: what happened and what to do. */
  readonly message: string;
}

const WHAT: Readonly<Record<string, string>> = {
  DELIVERY_FAILURE: 'could not be delivered',
  PICKUP_FAILURE: 'was not picked up',
  RETURNED: 'is being returned to the sender',
  AWAITING_ACTION: 'is waiting for action from you',
  ON_HOLD: 'is on hold at the carrier',
};

export function alertMessage(input: Omit<TrackingAlert, 'message'>): string {
  const who = input.trackingId ? `Shipment ${input.shipmentId} (tracking ${input.trackingId})` : `Shipment ${input.shipmentId}`;
  const why = input.reason && input.reason !== 'UNKNOWN' ? ` (reason: ${input.reason.toLowerCase().replace(/_/g, ' ')})` : '';
  return `${who} ${WHAT[input.event] ?? `reported ${input.event}`}${why}. Check it in the service and contact the carrier if needed.`;
}
