/**
 * One warning line per reason a webhook is refused for a fixable cause (a secret that does
 * not match, a clock that is off), at most one per reason per interval: a flood of forged or
 * replayed requests cannot fill the log, yet the operator learns what to check. The next line
 * of a reason says how many like it were left out since the last.
 */
import type { IntakeLogger } from '../../ports';

export type LoggedRejection = 'mismatch' | 'stale';

export interface RejectionLogOptions {
  readonly logger: IntakeLogger;
  /** Clock in ms. @default Date.now */
  readonly now?: () => number;
  /** At most one line per reason per this many ms. @default 60000 */
  readonly intervalMs?: number;
}

export type RejectionLog = (reason: LoggedRejection, message: string) => void;

export function createRejectionLog(options: RejectionLogOptions): RejectionLog {
  const now = options.now ?? Date.now;
  const intervalMs = options.intervalMs ?? 60_000;
  const state = new Map<LoggedRejection, { lastAt: number; suppressed: number }>();
  return (reason, message) => {
    const at = now();
    const entry = state.get(reason);
    if (entry && at - entry.lastAt < intervalMs) {
      entry.suppressed++;
      return;
    }
    const more = entry && entry.suppressed > 0 ? ` (${entry.suppressed} more refused for the same reason since the last such line)` : '';
    state.set(reason, { lastAt: at, suppressed: 0 });
    options.logger.warn(`${message}${more}`);
  };
}
