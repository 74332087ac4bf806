import type { CursorStorePort, IntakeLogger } from './ports';
import { toEpochNanos } from './timestamps';

/*
 * The poller's persisted high-water mark: the newest change time read, with the ids kept
 * at (or just below) it so a shipment sharing the mark's timestamp is neither missed nor
 * submitted twice. Kept apart from the Poller because an unreadable cursor is handled
 * here, once, by starting again from the initial lookback.
 */

export interface CursorState {
  readonly mark: string;
  readonly seen: readonly string[];
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
        return { mark: value.mark, seen: Array.isArray(value.seen) ? value.seen.filter((s): s is string => typeof s === 'string') : [] };
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
