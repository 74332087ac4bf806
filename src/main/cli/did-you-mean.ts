/**
 * "Did you mean": the known option or command nearest to what was typed, so a mistyped
 * `--printer-uri` gets `--printer`, not the whole help. A known name that the typed word
 * starts with (`--printer-uri` → `--printer`) or that starts with it (`--doc` →
 * `--document-printer`) wins; else the nearest by edit distance, if near enough to be a typo.
 */

/** Levenshtein distance (insert, delete, replace: 1 each). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** The nearest of `known` to `typed`, or null when none is near enough to be meant. */
export function nearest(typed: string, known: readonly string[]): string | null {
  const bare = (s: string): string => s.replace(/^-+/, '').toLowerCase();
  const word = bare(typed);
  if (word.length === 0) return null;
  // Prefixes: the longest known name the typed word starts with (after a dash), else the shortest it begins.
  const prefixOfTyped = known
    .filter((k) => word.startsWith(`${bare(k)}-`) || word.startsWith(`${bare(k)}_`))
    .sort((a, b) => b.length - a.length);
  if (prefixOfTyped[0]) return prefixOfTyped[0];
  const typedIsPrefix = word.length >= 3 ? known.filter((k) => bare(k).startsWith(word)).sort((a, b) => a.length - b.length) : [];
  if (typedIsPrefix.length === 1) return typedIsPrefix[0]!;
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const distance = editDistance(word, bare(candidate));
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best !== null && bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : null;
}

/** `; did you mean --printer?` or nothing. */
export function didYouMean(typed: string, known: readonly string[]): string {
  const match = nearest(typed, known);
  return match === null ? '' : `; did you mean ${match}?`;
}
