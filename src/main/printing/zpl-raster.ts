/**
 * PDF pages to ZPL: each page rasterized by MuPDF (the `mupdf` package, WebAssembly) at the
 * printer's own resolution, thresholded to one bit without dithering (dithering turns a bar's
 * edge into a speckled row that scanners misread), and sent as one `^GFA` graphic field,
 * Z64-compressed (zlib deflate, base64, CRC), with the label size from the page (`^PW`,
 * `^LL`) and the copies in `^PQ`.
 *
 * MuPDF holds about 120 MB once loaded, so it is imported on the first render only: an agent
 * without a raw ZPL printer never loads it.
 */
import { deflateSync } from 'node:zlib';

/** The resolutions ZPL printers come in (dots per inch), and their dots per millimetre. */
export const ZPL_DPIS = [203, 300, 600] as const;
export type ZplDpi = (typeof ZPL_DPIS)[number];

/** `~HI`'s dots per millimetre → dpi; null for others (6 dots/mm, 152 dpi, is not rendered for: its labels would print at the wrong size). */
export function dpiOfDotsPerMm(dpmm: number): ZplDpi | null {
  if (dpmm === 8) return 203;
  if (dpmm === 12) return 300;
  if (dpmm === 24) return 600;
  return null;
}

export interface ZplRasterOptions {
  readonly dpi: ZplDpi;
  /** Copies of each page (`^PQ`). @default 1 */
  readonly copies?: number;
  /**
   * Grey level (0 black … 255 white) below which a dot burns. Half-way keeps a bar as wide
   * as the PDF draws it. @default 128
   */
  readonly threshold?: number;
}

export interface ZplLabel {
  /** One `^XA…^XZ` format. */
  readonly zpl: string;
  /** Label width and length in dots. */
  readonly widthDots: number;
  readonly heightDots: number;
}

type MupdfModule = typeof import('mupdf');
let loaded: Promise<MupdfModule> | null = null;

/** MuPDF, loaded on first use (and only once). */
export function loadMupdf(): Promise<MupdfModule> {
  loaded ??= import('mupdf').catch((error: unknown) => {
    loaded = null;
    throw error;
  });
  return loaded;
}

/** Whether MuPDF has been asked for in this process (idle memory stays low until it is). */
export function mupdfLoaded(): boolean {
  return loaded !== null;
}

/** A page as one bit per dot, rows padded to whole bytes, 1 = black (ZPL's `^GF` order). */
export interface Bitmap {
  readonly width: number;
  readonly height: number;
  readonly bytesPerRow: number;
  readonly bits: Uint8Array;
}

/** Every page of the PDF rasterized at `dpi` and thresholded. */
export async function rasterizePdf(pdf: Uint8Array, dpi: ZplDpi, threshold = 128): Promise<Bitmap[]> {
  const mupdf = await loadMupdf();
  const document = mupdf.Document.openDocument(pdf, 'application/pdf');
  try {
    const pages: Bitmap[] = [];
    const scale = dpi / 72;
    for (let index = 0; index < document.countPages(); index++) {
      // A batch is many pages of CPU work: between pages, webhooks are answered and the
      // next batch's PDF is read off its connection.
      if (index > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      const page = document.loadPage(index);
      try {
        const pixmap = page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceGray, false);
        try {
          pages.push(threshold1Bit(pixmap.getPixels(), pixmap.getWidth(), pixmap.getHeight(), pixmap.getStride(), threshold));
        } finally {
          pixmap.destroy();
        }
      } finally {
        page.destroy();
      }
    }
    return pages;
  } finally {
    document.destroy();
  }
}

/** Grey (one byte a pixel) to one bit a dot: dark → 1. No dithering: bars keep sharp edges. */
export function threshold1Bit(grey: ArrayLike<number>, width: number, height: number, stride: number, threshold: number): Bitmap {
  const bytesPerRow = Math.ceil(width / 8);
  const bits = new Uint8Array(bytesPerRow * height);
  for (let y = 0; y < height; y++) {
    const row = y * stride;
    const out = y * bytesPerRow;
    for (let x = 0; x < width; x++) {
      if (grey[row + x]! < threshold) bits[out + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  }
  return { width, height, bytesPerRow, bits };
}

/** CRC-16/XMODEM (polynomial 0x1021, start 0) of the base64 text: the check `:Z64:` data carries. */
export function crc16(text: string): number {
  let crc = 0;
  for (let i = 0; i < text.length; i++) {
    crc ^= text.charCodeAt(i) << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** `^GFA` with Z64 data: a 4x6 label at 203 dpi is ~120 KB raw and a few KB compressed. */
export function graphicField(bitmap: Bitmap): string {
  const data = deflateSync(bitmap.bits, { level: 6 }).toString('base64');
  const crc = crc16(data).toString(16).padStart(4, '0');
  const total = bitmap.bits.length;
  return `^GFA,${total},${total},${bitmap.bytesPerRow},:Z64:${data}:${crc}`;
}

/** One label format for one page: its size from the page, the image at the top-left, copies in ^PQ. */
export function labelFormat(bitmap: Bitmap, copies = 1): ZplLabel {
  const zpl =
    `^XA^PW${bitmap.width}^LL${bitmap.height}^LH0,0^PON^FO0,0${graphicField(bitmap)}^FS` +
    `^PQ${Math.max(1, Math.floor(copies))},0,1,Y^XZ\n`;
  return { zpl, widthDots: bitmap.width, heightDots: bitmap.height };
}

/** Every page of the PDF as a ZPL label (one format a page). */
export async function pdfToZpl(pdf: Uint8Array, options: ZplRasterOptions): Promise<ZplLabel[]> {
  const pages = await rasterizePdf(pdf, options.dpi, options.threshold ?? 128);
  return pages.map((bitmap) => labelFormat(bitmap, options.copies ?? 1));
}
