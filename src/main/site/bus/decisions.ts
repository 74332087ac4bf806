import type { KV } from '@nats-io/kv';
import type { BookingNotice } from '../../ledger/booking-notice';
import type { SiteDecision } from './decision';
import { token } from './names';
import type { RejectedInput } from './rejected-input';
import { decisionRecordSchema, parseJson } from './schemas';

/**
 * The decisions bucket: one entry per shipment, created once (`create` fails when it
 * exists, on every server of a cluster alike), so two relays that see the same booking
 * agree on the first decision. Only relays write here (a protected site lets stations
 * read it only): a station marks a booking taken in the taken bucket (taken-marks.ts) and
 * a relay copies the mark into `takenBy`; a fallback move rewrites the station at the
 * revision it read. An entry that does not fit the schema is no decision.
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
  constructor(
    readonly kv: KV,
    private readonly rejected?: RejectedInput,
  ) {}

  async get(shipmentId: string): Promise<StoredDecision | null> {
    const entry = await this.kv.get(token(shipmentId));
    if (!entry || entry.operation !== 'PUT' || entry.length === 0) return null;
    const record = parseDecision(entry.string());
    if (!record || record.shipmentId !== shipmentId) {
      this.rejected?.reject('decision', shipmentId);
      return null;
    }
    return { record, revision: entry.revision };
  }

  /** Records the decision unless one exists; returns the one that holds (ours or the earlier one). */
  async decideOnce(record: DecisionRecord): Promise<StoredDecision> {
    try {
      const revision = await this.kv.create(token(record.shipmentId), JSON.stringify(record));
      return { record, revision };
    } catch (error) {
      const existing = await this.get(record.shipmentId);
      if (existing) return existing;
      // An entry that is no decision (malformed, or not this shipment's) is replaced by ours.
      const entry = await this.kv.get(token(record.shipmentId));
      if (entry && entry.operation === 'PUT') {
        const revision = await this.kv.update(token(record.shipmentId), JSON.stringify(record), entry.revision);
        return { record, revision };
      }
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

/** A stored decision, checked; null when it does not fit. */
export function parseDecision(text: string): DecisionRecord | null {
  const record = parseJson(decisionRecordSchema, text);
  if (!record) return null;
  return { ...record, notice: { ...record.notice } } as DecisionRecord;
}

export function isWrongRevision(error: unknown): boolean {
  const text = error instanceof Error ? `${error.message} ${String((error as { code?: unknown }).code ?? '')}` : String(error);
  return /wrong last sequence|10071/i.test(text);
}
