import { type PDFDocument, type PDFFont, StandardFonts } from 'pdf-lib';

/** The fonts of one document, embedded once and shared by every page. */
export interface DocumentFonts {
  readonly regular: PDFFont;
  readonly bold: PDFFont;
  /** Fits `text` into `maxWidth` at `size`: unencodable characters replaced, overlong text cut with "...". */
  fit(text: string, font: PDFFont, size: number, maxWidth: number): string;
  /** Breaks `text` into lines of at most `maxWidth` at `size`, at spaces where it can (characters replaced as in `fit`). */
  wrap(text: string, font: PDFFont, size: number, maxWidth: number): string[];
}

// Both Helvetica faces encode the same WinAnsi set; computing it once saves work per document.
/** Letters NFKD does not decompose but that have an obvious Latin stand-in. */
const LOOKALIKES: Readonly<Record<string, string>> = { Ł: 'L', ł: 'l', Đ: 'D', đ: 'd', ı: 'i', Ħ: 'H', ħ: 'h' };

let winAnsi: ReadonlySet<number> | null = null;

export function embedFonts(document: PDFDocument): DocumentFonts {
  const regular = document.embedStandardFont(StandardFonts.Helvetica);
  const bold = document.embedStandardFont(StandardFonts.HelveticaBold);
  const charset = (winAnsi ??= new Set(regular.getCharacterSet()));

  const encodable = (text: string): string => {
    let out = '';
    for (const char of text.replace(/[\r\n\t]+/g, ' ')) {
      const code = char.codePointAt(0) ?? 0;
      if (charset.has(code)) {
        out += char;
        continue;
      }
      // Standard fonts are WinAnsi only: drop diacritics it lacks (e.g. "ą" -> "a"), else "?".
      const base = (LOOKALIKES[char] ?? char).normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
      out += base.length > 0 && [...base].every((c) => charset.has(c.codePointAt(0) ?? 0)) ? base : '?';
    }
    return out;
  };

  return {
    regular,
    bold,
    fit(text, font, size, maxWidth) {
      const safe = encodable(text);
      const fitsWithDots = (length: number): boolean => font.widthOfTextAtSize(`${safe.slice(0, length)}...`, size) <= maxWidth;
      // Only a line's worth of characters is ever measured: a 200 kB reference costs what a short one does.
      const head = longestPrefix(safe.length, (length) => font.widthOfTextAtSize(safe.slice(0, length), size) <= maxWidth);
      if (head === safe.length) return safe;
      return `${safe.slice(0, longestPrefix(head, fitsWithDots))}...`;
    },
    wrap(text, font, size, maxWidth) {
      const fits = (line: string): boolean => font.widthOfTextAtSize(line, size) <= maxWidth;
      const lines: string[] = [];
      let line = '';
      for (const word of encodable(text).split(' ').filter(Boolean)) {
        const joined = line ? `${line} ${word}` : word;
        if (fits(joined)) {
          line = joined;
          continue;
        }
        if (line) lines.push(line);
        // A word wider than the line is broken where it overflows.
        let start = 0;
        for (;;) {
          const remaining = word.length - start;
          const cut = longestPrefix(remaining, (length) => fits(word.slice(start, start + length)));
          if (cut === remaining) break;
          // At least one character a line, as before, however narrow the line.
          const taken = Math.max(cut, 1);
          if (taken === remaining) break;
          lines.push(word.slice(start, start + taken));
          start += taken;
        }
        line = word.slice(start);
      }
      if (line) lines.push(line);
      return lines;
    },
  };
}

/**
 * The longest length in [0, max] whose prefix `fits` (fits(0) is taken as true), found by
 * doubling and then bisecting: O(k log k) for a fit of k characters, however long the text.
 * Widths only grow with length (kerning aside, which moves a cut by a character at most).
 */
export function longestPrefix(max: number, fits: (length: number) => boolean): number {
  let good = 0;
  let step = 1;
  while (good + step <= max && fits(good + step)) {
    good += step;
    step *= 2;
  }
  let bad = Math.min(good + step, max + 1);
  while (bad - good > 1) {
    const mid = (good + bad) >>> 1;
    if (fits(mid)) good = mid;
    else bad = mid;
  }
  return good;
}
