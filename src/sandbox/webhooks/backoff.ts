/**
 * Delay before retry number `retry` (1 = the first retry): exponential from `firstMs`,
 * capped at `maxMs`, with "equal jitter" (half fixed, half random) so retries from many
 * deliveries spread out while the first retry still comes no later than `firstMs`.
 */
export function retryDelayMs(retry: number, firstMs: number, maxMs: number, random: () => number = Math.random): number {
  const base = Math.min(maxMs, firstMs * 2 ** Math.max(0, retry - 1));
  return Math.round(base / 2 + random() * (base / 2));
}
