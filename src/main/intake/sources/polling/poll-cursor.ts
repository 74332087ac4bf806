import type { CursorStorePort, IntakeLogger, ShipmentRecord } from '../../ports';
import { toEpochNanos } from '../../timestamps';

/*
 * The poller's persisted high-water mark: the newest change time read, with the ids kept
 * at (or just below) it so a shipment sharing the mark's timestamp is neither missed nor
 * submitted twice. Kept apart from the Poller because an unreadable cursor is handled
 * here, once, by starting again from the initial lookback.
 */

export interface CursorState {
  readonly mark: string;
  readonly seen: readonly string[];
  /** Shipments whose booking time could not be read, parked so the mark can move on. @default [] */
  readonly parked?: readonly ParkedShipment[];
}

/**
 * A listed shipment whose tracking lookup kept failing (N3): kept here, with the window it
 * was read in, and asked about again at each poll until its booking time is known.
 */
export interface ParkedShipment {
  readonly shipment: ShipmentRecord;
  /** Start of the poll window it was read in (RFC 3339): a booking before it is not new. */
  readonly windowStart: string;
}

export class PollCursor {
  constructor(
    private readonly cursors: CursorStorePort,
    /** Name of the persisted cursor. */
    private readonly cursorName: string,
    private readonly logger: IntakeLogger,
  ) {}

  load(): CursorState | null {
    const raw = this.cursors.getCursor(this.cursorName);
    if (!raw) return null;
    try {
      const value = JSON.parse(raw) as Partial<CursorState>;
      if (typeof value.mark === 'string' && toEpochNanos(value.mark) !== null) {
        return {
          mark: value.mark,
          seen: Array.isArray(value.seen) ? value.seen.filter((s): s is string => typeof s === 'string') : [],
          parked: Array.isArray(value.parked) ? value.parked.filter(isParked) : [],
        };
      }
    } catch {
      // fall through
    }
    this.logger.warn(`poller: ignoring unreadable cursor ${this.cursorName}; starting from the initial lookback`);
    return null;
  }

  save(state: CursorState): void {
    this.cursors.setCursor(this.cursorName, JSON.stringify(state));
  }

  /** The stored mark, for a failed poll's result; null when even the store cannot be read. */
  safeMark(): string | null {
    try {
      return this.load()?.mark ?? null;
    } catch {
      return null; // the cursor store itself failed; that error is already being reported
    }
  }
}

function isParked(value: unknown): value is ParkedShipment {
  if (!value || typeof value !== 'object') return false;
  const { shipment, windowStart } = value as Partial<ParkedShipment>;
  return typeof shipment?.id === 'string' && typeof windowStart === 'string' && toEpochNanos(windowStart) !== null;
}
