import { backoffDelay } from '../retry/backoff';
import { SCALE_REOPEN } from '../retry/policies';

/**
 * How long to wait before opening a scale's port again: the SCALE_REOPEN policy
 * (retry/policies.ts) between `minMs` and `maxMs`, counting the failed opens in a row.
 */
export class ReopenBackoff {
  private attempt = 0;

  constructor(
    private readonly minMs: number,
    private readonly maxMs: number,
  ) {}

  next(): number {
    const wait = backoffDelay({ ...SCALE_REOPEN, baseMs: this.minMs, maxMs: this.maxMs }, this.attempt);
    this.attempt = Math.min(this.attempt + 1, SCALE_REOPEN.maxDoublings ?? 16);
    return wait;
  }

  reset(): void {
    this.attempt = 0;
  }
}
