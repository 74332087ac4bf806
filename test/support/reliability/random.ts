/**
 * The suite's randomness (kill moments, delivery mixes) is seeded, and the seed is
 * printed, so a failing run can be replayed with RELIABILITY_SEED=<seed>.
 */
import { seededRandom } from '../../../src/sandbox/faults';

export function suiteRandom(label: string): { seed: number; random: () => number; between: (min: number, max: number) => number } {
  const seed = process.env.RELIABILITY_SEED ? Number(process.env.RELIABILITY_SEED) : Math.floor(Math.random() * 2 ** 31);
  console.log(`[${label}] seed ${seed} (replay with RELIABILITY_SEED=${seed})`);
  const random = seededRandom(seed);
  return { seed, random, between: (min, max) => min + Math.floor(random() * (max - min + 1)) };
}
