/**
 * When the chaos run kills the agent: by progress (labels out), not by time. Timed kills
 * drifted past the end of the burst (7 of 20 in the long run landed after all 500 labels
 * were out), proving nothing; a kill at "n labels out" always lands mid-burst.
 */

/**
 * `kills` ascending output counts spread evenly from the start to `upTo` (a fraction of
 * `labels`) with jitter of up to half a step, each at least one above the previous one and
 * below `labels`, so every kill comes while labels are still to print.
 */
export function killThresholds(labels: number, kills: number, between: (min: number, max: number) => number, upTo = 0.9): number[] {
  const last = Math.min(labels - 1, Math.floor(labels * upTo));
  const step = last / kills;
  const out: number[] = [];
  for (let k = 1; k <= kills; k++) {
    const jitter = between(-Math.floor(step / 2), Math.floor(step / 2));
    const wanted = Math.round(step * k) + (k === kills ? -Math.abs(jitter) : jitter);
    const previous = out[out.length - 1] ?? 0;
    out.push(Math.min(last, Math.max(previous + 1, wanted)));
  }
  return out;
}
