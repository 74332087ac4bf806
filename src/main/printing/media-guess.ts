/** Guessing a discovered printer's media from its words (each kind's discovery uses it). */

/** Words in a printer's name or description that say it prints labels. */
export const LABEL_HINTS =
  /label|zebra|\b4 ?x ?6\b|\b4x6|\bZ[DTQ]\d{2,}|\bG[KX]\d{3}|\bLP ?2844|\bTLP|dymo|rollo|thermal|\bQL-?\d|citizen cl|tsc t[ad]|godex/i;
const A4_HINTS = /\bA4\b/i;

/** Guesses the media from a printer's name and description: label printers often say so. */
export function guessMedia(...texts: ReadonlyArray<string | null | undefined>): 'label' | 'a4' | 'unknown' {
  const text = texts.filter(Boolean).join(' ');
  if (LABEL_HINTS.test(text)) return 'label';
  if (A4_HINTS.test(text)) return 'a4';
  return 'unknown';
}
