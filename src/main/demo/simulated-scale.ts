/**
 * The demo's scale, in the process (no hardware, no pty): it behaves like a packer weighing
 * the demo's drafts one after another — empty, a parcel placed (in motion for a moment),
 * stable for a few seconds, taken off — so the weight box, the state bar and "Book when the
 * weight is stable" can be seen working. `npm run demo -- --scale sim` uses it; the scale
 * then reads as SIMULATED_SCALE_URI.
 */
import type { ScaleAnswer, ScaleDevice, ScaleOpener } from '../devices/scale-device';

/** The URI the simulated scale is shown under (never opened: the demo's opener answers for it). */
export const SIMULATED_SCALE_URI = 'serial:demo-scale';
/** What `--scale` says to get it in the demo. */
export const SIMULATED_SCALE_WORD = 'sim';

interface Phase {
  readonly ms: number;
  readonly sample: (grams: number) => ScaleAnswer;
}

const weight = (grams: number, stable: boolean): ScaleAnswer => ({
  kind: 'sample',
  sample: { kind: 'weight', stable, weight: { value: grams, decimals: 3, unit: 'kg' } },
});

/** One parcel: empty, placed, still (long enough to book on), taken off. */
const CYCLE: readonly Phase[] = [
  { ms: 6000, sample: () => weight(0, true) },
  { ms: 1200, sample: (g) => weight(Math.round(g * 0.8), false) },
  { ms: 7000, sample: (g) => weight(g, true) },
  { ms: 600, sample: (g) => weight(Math.round(g * 0.4), false) },
];

export function simulatedScaleOpener(now: () => number = Date.now, random: () => number = Math.random): ScaleOpener {
  return async () => {
    const started = now();
    const cycleMs = CYCLE.reduce((sum, p) => sum + p.ms, 0);
    const parcels = new Map<number, number>();
    const device: ScaleDevice = {
      async read() {
        await new Promise((resolve) => setTimeout(resolve, 100));
        const elapsed = now() - started;
        const round = Math.floor(elapsed / cycleMs);
        if (!parcels.has(round)) parcels.set(round, 500 + Math.round(random() * 3500));
        let at = elapsed % cycleMs;
        for (const phase of CYCLE) {
          if (at < phase.ms) return phase.sample(parcels.get(round)!);
          at -= phase.ms;
        }
        return weight(0, true);
      },
      async identify() {
        return 'Print Station demo scale (simulated)';
      },
      garbage: 0,
      command: null,
      sendsByItself: false,
      lost: new Promise<Error>(() => undefined),
      async close() {},
    };
    return device;
  };
}
