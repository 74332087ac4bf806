import type { KV } from '@nats-io/kv';
import type { BookingNotice } from '../../ledger/booking-notice';
import type { SiteDecision } from './decision';
import { token } from './names';

/**
 * The decisions bucket: one entry per shipment, created once (`create` fails when it
 * exists, on every server of a cluster alike), so two relays that see the same booking
 * agree on the first decision. A station takes its booking by writing `takenBy` at the
 * revision it read; a fallback move rewrites the station at the revision it read. Whichever
 * comes first wins and the other sees a newer revision: a booking is never printed at two
 * tables.
 */

export interface DecisionRecord extends SiteDecision {
  readonly shipmentId: string;
  readonly notice: BookingNotice;
  readonly decidedAt: string;
  /** Set by the station that prints it, before it prints. */
  readonly takenBy: string | null;
  readonly takenAt: string | null;
  /** The station a fallback move took it from. */
  readonly movedFrom?: string;
}

export interface StoredDecision {
  readonly record: DecisionRecord;
  readonly revision: number;
}

export class DecisionsBucket {
  constructor(readonly kv: KV) {}

  async get(shipmentId: string): Promise<StoredDecision | null> {
    const entry = await this.kv.get(token(shipmentId));
    if (!entry || entry.operation !== 'PUT' || entry.length === 0) return null;
    return { record: entry.json<DecisionRecord>(), revision: entry.revision };
  }

  /** Records the decision unless one exists; returns the one that holds (ours or the earlier one). */
  async decideOnce(record: DecisionRecord): Promise<StoredDecision> {
    try {
      const revision = await this.kv.create(token(record.shipmentId), JSON.stringify(record));
      return { record, revision };
    } catch (error) {
      const existing = await this.get(record.shipmentId);
      if (existing) return existing;
      throw error;
    }
  }

  /** Writes `next` only if the entry is still at `revision`; false when someone wrote first. */
  async replace(next: DecisionRecord, revision: number): Promise<boolean> {
    try {
      await this.kv.update(token(next.shipmentId), JSON.stringify(next), revision);
      return true;
    } catch (error) {
      if (isWrongRevision(error)) return false;
      throw error;
    }
  }
}

function isWrongRevision(error: unknown): boolean {
  const text = error instanceof Error ? `${error.message} ${String((error as { code?: unknown }).code ?? '')}` : String(error);
  return /wrong last sequence|10071/i.test(text);
}
