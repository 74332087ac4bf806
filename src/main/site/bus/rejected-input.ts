/**
 * What the site's readers do with an entry or a message that does not fit its schema
 * (schemas.ts): count it (by kind, for /metrics) and say so in the log at most once a minute
 * per kind, however many arrive: 2,000 poison messages cost a counter and one line, not
 * 2,000 lines or a stalled reader.
 */

export type RejectedKind = 'booking-message' | 'decision' | 'claim' | 'taken-mark' | 'heartbeat' | 'rules';

export interface RejectedInputOptions {
  readonly warn: (line: string) => void;
  /** Each rejected value (metrics). @default none */
  readonly onRejected?: (kind: RejectedKind) => void;
  /** @default 60000 */
  readonly quietMs?: number;
  /** @default Date.now */
  readonly now?: () => number;
}

export class RejectedInput {
  private readonly lastSaid = new Map<RejectedKind, number>();
  private readonly counts = new Map<RejectedKind, number>();

  constructor(private readonly options: RejectedInputOptions) {}

  /** `what`: where it was found (a key, a subject), cut short: it came from the bus. */
  reject(kind: RejectedKind, what: string): void {
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
    this.options.onRejected?.(kind);
    const now = (this.options.now ?? Date.now)();
    const last = this.lastSaid.get(kind);
    if (last !== undefined && now - last < (this.options.quietMs ?? 60_000)) return;
    this.lastSaid.set(kind, now);
    this.options.warn(
      `site: set aside a malformed ${kind} (${what.slice(0, 80)}): it does not fit the site's format; ` +
        `${this.counts.get(kind)} so far (said at most once a minute)`,
    );
  }

  /** How many of each kind were set aside since the start. */
  count(kind: RejectedKind): number {
    return this.counts.get(kind) ?? 0;
  }
}

/** For code that has no log of its own (tests, a relay's helpers): counts only. */
export const silentRejects = (): RejectedInput => new RejectedInput({ warn: () => undefined });
