/**
 * A decision as a relay stores it in the site's decisions bucket (site/bus/decisions.ts), for
 * tests and benches that fill the bucket without a relay deciding: a booking from polling,
 * decided for `station`, taken by `takenBy` (null: not taken yet).
 */
import type { DecisionRecord } from '../../src/main/site/bus/decisions';

export interface StoredDecisionOptions {
  readonly shipmentId: string;
  readonly referenceId: string;
  readonly station: string;
  readonly reason: DecisionRecord['reason'];
  readonly why: string;
  readonly takenBy: string | null;
  /** RFC 3339: booked, decided and (when taken) taken at. @default now */
  readonly at?: string;
}

export function storedDecision(options: StoredDecisionOptions): DecisionRecord {
  const { shipmentId, referenceId, station, reason, why, takenBy, at = new Date().toISOString() } = options;
  return {
    station,
    reason,
    why,
    shipmentId,
    notice: {
      shipmentId,
      referenceId,
      trackingId: null,
      carrier: null,
      source: 'API',
      senderReference: null,
      system: null,
      bookedAt: at,
      trigger: 'poll',
    },
    decidedAt: at,
    takenBy,
    takenAt: takenBy ? at : null,
  } as DecisionRecord;
}
