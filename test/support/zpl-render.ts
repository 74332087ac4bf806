/**
 * Independent readings of ZPL, for tests of the raw ZPL printers: ZPL rendered back to a PNG
 * by zpl-renderer-js (a WebAssembly build of Zebrash, not the code under test), the
 * barcodes zbarimg reads on it, and pdftoppm's render of the PDF it came from, to compare
 * dot by dot.
 */
import { createRequire } from 'node:module';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const requireCjs = createRequire(import.meta.url);

const run = promisify(execFile);

/** One grey image: a byte a pixel, 0 black. */
export interface GreyImage {
  readonly width: number;
  readonly height: number;
  readonly pixels: Uint8Array;
}

export class ZplReader {
  private counter = 0;
  private constructor(readonly dir: string) {}

  static async create(): Promise<ZplReader> {
    return new ZplReader(await mkdtemp(join(tmpdir(), 'ps-zpl-render-')));
  }

  /** Each `^XA…^XZ` of `zpl` as a PNG file, rendered by Zebrash at `dpmm` on a label of that size. */
  async renderPngs(zpl: string, widthMm: number, heightMm: number, dpmm: number): Promise<string[]> {
    // Its CommonJS build, loaded by Node itself: the ESM build is ESM in a `.js` file of a
    // package that is not `"type": "module"`, so vitest had Vite transform it, and Vite asked
    // for the source map the package does not ship (an ENOENT warning in every run).
    const { ready } = requireCjs('zpl-renderer-js') as typeof import('zpl-renderer-js');
    const { api } = await ready;
    const pngs = await api.zplToBase64MultipleAsync(zpl, widthMm, heightMm, dpmm);
    const files: string[] = [];
    for (const png of pngs) {
      const file = join(this.dir, `zpl-${(this.counter += 1)}.png`);
      await writeFile(file, Buffer.from(png, 'base64'));
      files.push(file);
    }
    return files;
  }

  /** What zbarimg reads on an image (`CODE-128:…`); none is an empty list. */
  async barcodes(file: string): Promise<string[]> {
    const { stdout } = await run('zbarimg', ['--quiet', file]).catch((error: { code?: number; stdout?: string }) => {
      if (error.code === 4) return { stdout: '' };
      throw error;
    });
    return stdout.split('\n').filter(Boolean);
  }

  /** A PNG's pixels as grey (decoded by MuPDF's image codec: only a PNG decoder here, not a ZPL renderer). */
  async png(file: string): Promise<GreyImage> {
    const mupdf = await import('mupdf');
    const image = new mupdf.Image(await readFile(file));
    const pixmap = image.toPixmap();
    const grey = pixmap.getColorSpace()?.isGray() ? pixmap : pixmap.convertToColorSpace(mupdf.ColorSpace.DeviceGray, false);
    const width = grey.getWidth();
    const height = grey.getHeight();
    const stride = grey.getStride();
    const n = grey.getNumberOfComponents() + grey.getAlpha();
    const source = grey.getPixels();
    const pixels = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) pixels[y * width + x] = source[y * stride + x * n]!;
    return { width, height, pixels };
  }

  /** pdftoppm's grey render of one page (1-based) at `dpi`. */
  async pdftoppm(pdf: Uint8Array, dpi: number, page = 1): Promise<GreyImage> {
    const n = (this.counter += 1);
    const input = join(this.dir, `doc-${n}.pdf`);
    await writeFile(input, pdf);
    const prefix = join(this.dir, `ppm-${n}`);
    await run('pdftoppm', ['-r', String(dpi), '-gray', '-singlefile', '-f', String(page), '-l', String(page), input, prefix]);
    return parsePgm(await readFile(`${prefix}.pgm`));
  }

  async dispose(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}

/** A binary PGM (P5, maxval 255). */
export function parsePgm(data: Buffer): GreyImage {
  const header = /^P5\s+(?:#[^\n]*\n\s*)*(\d+)\s+(\d+)\s+(\d+)\s/.exec(data.subarray(0, 100).toString('latin1'));
  if (!header) throw new Error('not a binary PGM');
  const width = Number(header[1]);
  const height = Number(header[2]);
  return { width, height, pixels: new Uint8Array(data.subarray(header[0].length, header[0].length + width * height)) };
}

/**
 * The share of black pixels (grey below 128) of each image that the other image has black
 * too, within `tolerance` dots (two renderers anti-alias an edge differently and round it to
 * neighbouring dots); the lower of the two shares, over the area both cover. 1 is a match.
 */
export function blackAgreement(a: GreyImage, b: GreyImage, tolerance = 1): number {
  const width = Math.min(a.width, b.width);
  const height = Math.min(a.height, b.height);
  const black = (image: GreyImage, x: number, y: number): boolean => image.pixels[y * image.width + x]! < 128;
  const near = (image: GreyImage, x: number, y: number): boolean => {
    for (let dy = -tolerance; dy <= tolerance; dy++) {
      for (let dx = -tolerance; dx <= tolerance; dx++) {
        const nx = x + dx;
        const ny = y + dy;
        if (nx >= 0 && ny >= 0 && nx < width && ny < height && black(image, nx, ny)) return true;
      }
    }
    return false;
  };
  const share = (from: GreyImage, to: GreyImage): number => {
    let count = 0;
    let matched = 0;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        if (!black(from, x, y)) continue;
        count += 1;
        if (near(to, x, y)) matched += 1;
      }
    }
    return count === 0 ? 1 : matched / count;
  };
  return Math.min(share(a, b), share(b, a));
}

/** Black pixels (grey below 128). */
export function blackCount(image: GreyImage): number {
  return image.pixels.reduce((sum, p) => sum + (p < 128 ? 1 : 0), 0);
}
