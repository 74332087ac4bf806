/** Fault knobs of the sandbox; they apply to /external/v1 only, never to /admin or /files. */
export interface FaultSettings {
  /** Added before every /external/v1 response. @default 0 */
  readonly latencyMs: number;
  /** Share of requests (0..1) answered 503 with a JSON error. @default 0 */
  readonly errorRate: number;
  /** Share of requests (0..1) answered 429 with `Retry-After`. @default 0 */
  readonly rateLimitRate: number;
  /** `Retry-After` seconds sent with the 429s. @default 1 */
  readonly retryAfterSeconds: number;
  /** Share of requests (0..1) whose socket is destroyed without any response. @default 0 */
  readonly dropRate: number;
  /** Print of a shipment booked less than this many ms ago answers 503 + Retry-After: 1. @default 0 */
  readonly labelDelayMs: number;
}

export const DEFAULT_FAULTS: FaultSettings = {
  latencyMs: 0,
  errorRate: 0,
  rateLimitRate: 0,
  retryAfterSeconds: 1,
  dropRate: 0,
  labelDelayMs: 0,
};

/** Merges a partial update, rejecting values a caller could only have typed by mistake. */
export function mergeFaults(current: FaultSettings, patch: Partial<FaultSettings>): FaultSettings {
  const next = { ...current };
  for (const [key, value] of Object.entries(patch) as Array<[keyof FaultSettings, unknown]>) {
    if (!(key in DEFAULT_FAULTS)) throw new RangeError(`unknown fault setting "${key}"`);
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new RangeError(`fault setting "${key}" must be a non-negative number`);
    }
    if (key.endsWith('Rate') && value > 1) throw new RangeError(`fault setting "${key}" must be between 0 and 1`);
    next[key] = value;
  }
  return next;
}

export type FaultDecision = 'drop' | 'error' | 'rate-limit' | 'pass';

/** Each knob draws on its own, so a 0.2 error rate stays 0.2 whatever the other knobs are. */
export function decideFault(faults: FaultSettings, random: () => number): FaultDecision {
  if (faults.dropRate > 0 && random() < faults.dropRate) return 'drop';
  if (faults.errorRate > 0 && random() < faults.errorRate) return 'error';
  if (faults.rateLimitRate > 0 && random() < faults.rateLimitRate) return 'rate-limit';
  return 'pass';
}

/** mulberry32: small seedable PRNG so fault patterns can be replayed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
