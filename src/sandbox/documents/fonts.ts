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
      let safe = encodable(text);
      if (font.widthOfTextAtSize(safe, size) <= maxWidth) return safe;
      while (safe.length > 0 && font.widthOfTextAtSize(`${safe}...`, size) > maxWidth) safe = safe.slice(0, -1);
      return `${safe}...`;
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
        let rest = word;
        while (rest.length > 1 && !fits(rest)) {
          let cut = rest.length - 1;
          while (cut > 1 && !fits(rest.slice(0, cut))) cut -= 1;
          lines.push(rest.slice(0, cut));
          rest = rest.slice(cut);
        }
        line = rest;
      }
      if (line) lines.push(line);
      return lines;
    },
  };
}
