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
