import type { PrinterMedia } from '../../shared/domain';

/*
 * How each media is named to a spooler. Label stock prints unscaled (the service's label
 * PDF has the stock's size); sheets are fitted to the page.
 */

export interface MediaNames {
  /** IPP `media` keyword (PWG 5101.1). */
  readonly ipp: string;
  /** lp `-o media=` name. */
  readonly lp: string;
  /** SumatraPDF paper name (pdf-to-printer `paperSize`). */
  readonly windows: string;
  readonly scaling: 'none' | 'fit';
}

export const MEDIA_NAMES: Readonly<Record<PrinterMedia, MediaNames>> = {
  label: { ipp: 'oe_4x6-label_4x6in', lp: 'Custom.4x6in', windows: '4x6', scaling: 'none' },
  '100x150mm': { ipp: 'om_100x150mm_100x150mm', lp: 'Custom.100x150mm', windows: '100x150mm', scaling: 'none' },
  '100x190mm': { ipp: 'om_100x190mm_100x190mm', lp: 'Custom.100x190mm', windows: '100x190mm', scaling: 'none' },
  '4x4in': { ipp: 'oe_4x4-label_4x4in', lp: 'Custom.4x4in', windows: '4x4', scaling: 'none' },
  a4: { ipp: 'iso_a4_210x297mm', lp: 'A4', windows: 'A4', scaling: 'fit' },
  letter: { ipp: 'na_letter_8.5x11in', lp: 'Letter', windows: 'Letter', scaling: 'fit' },
};

/** Each media's page size in millimetres (width x height, portrait). */
const MEDIA_MM: Readonly<Record<PrinterMedia, readonly [number, number]>> = {
  label: [101.6, 152.4],
  '100x150mm': [100, 150],
  '100x190mm': [100, 190],
  '4x4in': [101.6, 101.6],
  a4: [210, 297],
  letter: [215.9, 279.4],
};

/** The size a PWG self-describing media name ends with (`na_index-4x6_4x6in` → 101.6 x 152.4 mm), or null. */
export function pwgMediaSize(keyword: string): { readonly w: number; readonly h: number } | null {
  const m = /_(\d+(?:\.\d+)?)x(\d+(?:\.\d+)?)(mm|in)$/.exec(keyword);
  if (!m) return null;
  const scale = m[3] === 'in' ? 25.4 : 1;
  return { w: Number(m[1]) * scale, h: Number(m[2]) * scale };
}

/**
 * Whether a printer's `media-supported` has room for a media: a size within a millimetre
 * either way round, or a custom size range (`custom_min_…` / `custom_max_…`) holding it.
 * An empty list (the printer does not say) counts as fitting.
 */
export function mediaSupported(supported: readonly string[], media: PrinterMedia): boolean {
  if (supported.length === 0) return true;
  const [w, h] = MEDIA_MM[media];
  const near = (a: number, b: number): boolean => Math.abs(a - b) <= 1;
  const sizes = supported.map((k) => ({ k, size: pwgMediaSize(k) }));
  if (
    sizes.some(
      ({ k, size }) =>
        size && !/^custom_m(in|ax)_/.test(k) && ((near(size.w, w) && near(size.h, h)) || (near(size.w, h) && near(size.h, w))),
    )
  ) {
    return true;
  }
  const min = sizes.find(({ k }) => k.startsWith('custom_min_'))?.size;
  const max = sizes.find(({ k }) => k.startsWith('custom_max_'))?.size;
  return Boolean(min && max && min.w <= w + 1 && min.h <= h + 1 && max.w >= w - 1 && max.h >= h - 1);
}

/** A media in words for a person: `4x6 in labels`, `A4`. */
export const MEDIA_WORDS: Readonly<Record<PrinterMedia, string>> = {
  label: '4x6 in labels',
  '100x150mm': '100x150 mm labels',
  '100x190mm': '100x190 mm labels',
  '4x4in': '4x4 in labels',
  a4: 'A4',
  letter: 'Letter',
};
