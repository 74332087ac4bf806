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
import { checkLabelPageCount, checkLabelPageSize } from '../label-pdf-limits';
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
    // The limits before any rendering: a hostile PDF costs a page count and its boxes.
    const count = document.countPages();
    checkLabelPageCount(count);
    for (let index = 0; index < count; index++) {
      const page = document.loadPage(index);
      try {
        const [x0, y0, x1, y1] = page.getBounds();
        checkLabelPageSize(index, x1 - x0, y1 - y0);
      } finally {
        page.destroy();
      }
    }
    for (let index = 0; index < count; index++) {
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

/** Pure white in four grey pixels read as one 32-bit word (either byte order). */
const WHITE4 = 0xffffffff;

/**
 * Grey (one byte a pixel) to one bit a dot: dark (below `threshold`) → 1. No dithering: bars
 * keep sharp edges. It runs over a million pixels a label at 203 dpi, so it is one pass with
 * no call per pixel: eight pixels make a byte, each bit the sign of `grey - threshold`
 * (negative, i.e. dark, gives 1), and eight pure-white pixels, most of a label, are skipped
 * as two 32-bit reads when the rows are 4-byte aligned.
 */
export function threshold1Bit(
  grey: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  stride: number,
  threshold: number,
): Bitmap {
  const bytesPerRow = (width + 7) >> 3;
  const bits = new Uint8Array(bytesPerRow * height);
  const whole = width >> 3;
  const t = threshold;
  // (A threshold above 255 makes white black too: then no shortcut.)
  const aligned = grey.byteOffset % 4 === 0 && stride % 4 === 0 && t <= 255;
  const words = aligned ? new Uint32Array(grey.buffer, grey.byteOffset, grey.byteLength >> 2) : null;
  for (let y = 0; y < height; y++) {
    const row = y * stride;
    const out = y * bytesPerRow;
    let i = row;
    for (let b = 0; b < whole; b++, i += 8) {
      if (words !== null && words[i >> 2] === WHITE4 && words[(i >> 2) + 1] === WHITE4) continue;
      bits[out + b] =
        (((grey[i]! - t) >>> 31) << 7) |
        (((grey[i + 1]! - t) >>> 31) << 6) |
        (((grey[i + 2]! - t) >>> 31) << 5) |
        (((grey[i + 3]! - t) >>> 31) << 4) |
        (((grey[i + 4]! - t) >>> 31) << 3) |
        (((grey[i + 5]! - t) >>> 31) << 2) |
        (((grey[i + 6]! - t) >>> 31) << 1) |
        ((grey[i + 7]! - t) >>> 31);
    }
    // The last few pixels of a row whose width is not a multiple of 8.
    for (let x = whole << 3; x < width; x++) {
      if (grey[row + x]! < t) bits[out + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  }
  return { width, height, bytesPerRow, bits };
}

/** CRC-16/XMODEM's table: the eight shifts of one byte done once, not for every byte of every label. */
const CRC16_TABLE = (() => {
  const table = new Uint16Array(256);
  for (let byte = 0; byte < 256; byte++) {
    let crc = byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    table[byte] = crc;
  }
  return table;
})();

/** CRC-16/XMODEM (polynomial 0x1021, start 0) of the base64 text: the check `:Z64:` data carries. */
export function crc16(text: string): number {
  let crc = 0;
  for (let i = 0; i < text.length; i++) crc = ((crc << 8) & 0xffff) ^ CRC16_TABLE[((crc >> 8) ^ text.charCodeAt(i)) & 0xff]!;
  return crc;
}

/**
 * zlib's fastest level: on the sandbox's 4x6 label it deflates in about a sixth of level 6's
 * time (0.25 vs 1.5 ms at 203 dpi) for 25 % more bytes (9.4 vs 7.5 KB of ZPL; 16 vs 13 KB at
 * 300 dpi), far below what a printer's port or buffer notices.
 */
const DEFLATE_LEVEL = 1;

/** `^GFA` with Z64 data: a 4x6 label at 203 dpi is ~120 KB raw and about 7 KB compressed. */
export function graphicField(bitmap: Bitmap): string {
  const data = deflateSync(bitmap.bits, { level: DEFLATE_LEVEL }).toString('base64');
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
