import bwipjs from 'bwip-js/node';

/** Rendered PNGs are reused across requests: reprints and multi-label shipments are common. */
const MAX_CACHED = 2_000;
/** Pixels per bar module in the PNG. */
export const BARCODE_PNG_SCALE_X = 2;
const pngCache = new Map<string, Promise<Uint8Array>>();

/** A Code 128 PNG of `text`, rendered once per distinct text (LRU-bounded). */
export function code128Png(text: string): Promise<Uint8Array> {
  const cached = pngCache.get(text);
  if (cached) {
    pngCache.delete(text);
    pngCache.set(text, cached);
    return cached;
  }
  const rendered = bwipjs
    // A 1D code is the same in every row: a 1 mm strip stretched to the label's bar height
    // scans identically and makes the PNG ~15x cheaper to embed (pdf-lib re-encodes pixels).
    .toBuffer({ bcid: 'code128', text, scaleX: BARCODE_PNG_SCALE_X, scaleY: 1, height: 1, includetext: false })
    .then((buffer) => new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength));
  // A failed render must not stick in the cache.
  rendered.catch(() => pngCache.delete(text));
  pngCache.set(text, rendered);
  if (pngCache.size > MAX_CACHED) {
    const oldest = pngCache.keys().next().value;
    if (oldest !== undefined) pngCache.delete(oldest);
  }
  return rendered;
}
