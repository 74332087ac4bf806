/**
 * How long to wait before opening a scale's port again: doubling from `minMs` up to `maxMs`,
 * so an unplugged scale is found within `maxMs` of coming back, and a missing one costs one
 * open every `maxMs`.
 */
export class ReopenBackoff {
  private attempt = 0;

  constructor(
    private readonly minMs: number,
    private readonly maxMs: number,
  ) {}

  next(): number {
    const wait = Math.min(this.maxMs, this.minMs * 2 ** this.attempt);
    this.attempt = Math.min(this.attempt + 1, 16);
    return wait;
  }

  reset(): void {
    this.attempt = 0;
  }
}
