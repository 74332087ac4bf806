import type { KV, KvEntry } from '@nats-io/kv';
import { splitKey, takenKey } from './names';
import type { RejectedInput } from './rejected-input';
import { parseJson, takenMarkSchema } from './schemas';

/**
 * The taken bucket: a station that is about to print a booking writes `<shipment>.<station>`
 * here, in its own name (a protected site allows it no other key), and only then reads the
 * decision again; a relay that moves a booking to a fallback station rewrites the decision
 * first and only then looks for the first station's mark. Of the two, at least one sees the
 * other's write, so a booking never prints at both (station-consumer.ts, fallback-mover.ts).
 * Relays copy each mark into the decision's `takenBy`.
 */

export interface TakenMark {
  readonly shipmentId: string;
  readonly station: string;
  readonly at: string;
}

export class TakenMarks {
  constructor(
    readonly kv: KV,
    private readonly rejected?: RejectedInput,
  ) {}

  /** Marks the booking taken by `station` (again: a redelivery finds its own mark). */
  async mark(shipmentId: string, station: string, at: Date = new Date()): Promise<void> {
    await this.kv.put(takenKey(shipmentId, station), JSON.stringify({ station, at: at.toISOString() }));
  }

  async has(shipmentId: string, station: string): Promise<boolean> {
    const entry = await this.kv.get(takenKey(shipmentId, station));
    return !!entry && this.parse(entry) !== null;
  }

  /** A mark from a watch or a read, checked: the value must name the key's station. */
  parse(entry: KvEntry): TakenMark | null {
    if (entry.operation !== 'PUT' || entry.length === 0) return null;
    const names = splitKey(entry.key);
    const mark = parseJson(takenMarkSchema, entry.string());
    if (!names || !mark || mark.station !== names.station) {
      this.rejected?.reject('taken-mark', entry.key);
      return null;
    }
    return { shipmentId: names.first, station: mark.station, at: mark.at };
  }
}
