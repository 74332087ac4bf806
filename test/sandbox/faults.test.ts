import { describe, expect, it } from 'vitest';
import { DEFAULT_FAULTS, decideFault, mergeFaults, seededRandom } from '../../src/sandbox/faults';

describe('faults', () => {
  it('merges partial settings and rejects unknown keys and out-of-range values', () => {
    expect(mergeFaults(DEFAULT_FAULTS, { errorRate: 0.5 })).toEqual({ ...DEFAULT_FAULTS, errorRate: 0.5 });
    expect(() => mergeFaults(DEFAULT_FAULTS, { errorRate: 1.1 })).toThrow(RangeError);
    expect(() => mergeFaults(DEFAULT_FAULTS, { latencyMs: -1 })).toThrow(RangeError);
    expect(() => mergeFaults(DEFAULT_FAULTS, { nope: 1 } as never)).toThrow(/unknown/);
  });

  it('replays the same decisions from the same seed, at about the configured rates', () => {
    const faults = { ...DEFAULT_FAULTS, errorRate: 0.2, rateLimitRate: 0.1, dropRate: 0.05 };
    const run = (seed: number): string[] => {
      const random = seededRandom(seed);
      return Array.from({ length: 5000 }, () => decideFault(faults, random));
    };
    const a = run(42);
    expect(run(42)).toEqual(a);
    expect(run(43)).not.toEqual(a);
    const share = (kind: string): number => a.filter((d) => d === kind).length / a.length;
    expect(share('drop')).toBeCloseTo(0.05, 1);
    expect(share('error')).toBeCloseTo(0.95 * 0.2, 1);
    expect(share('pass')).toBeGreaterThan(0.6);
    expect(new Set(run(1).map(() => decideFault(DEFAULT_FAULTS, Math.random)))).toEqual(new Set(['pass']));
  });
});
