import { inflateSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crc16, labelFormat, pdfToZpl, threshold1Bit } from '../../../../src/main/printing/zpl/zpl-raster';
import { zplTestLabel } from '../../../../src/main/printing/zpl/zpl-test-label';
import { renderDocument } from '../../../../src/sandbox/documents/render';
import { labelShipment } from '../../../support/label-shipment';
import { blackAgreement, blackCount, ZplReader } from '../../../support/zpl-render';

const TRACKING = ['00370712345678901234', '00370798765432109876'];

const shipment = (trackingId: string, index: number) => labelShipment(index, { trackingId });

let reader: ZplReader;
let pdf: Uint8Array;
beforeAll(async () => {
  reader = await ZplReader.create();
  pdf = await renderDocument({ shipments: TRACKING.map(shipment), documentType: 'label', layout: 'printer' });
});
afterAll(async () => {
  await reader.dispose();
});

describe('PDF labels to ZPL', () => {
  it.each([
    [203, 8, 812, 1218],
    [300, 12, 1200, 1800],
  ] as const)(
    'at %i dpi: one label a page, sized from the page, that Zebrash renders back with every barcode readable and the PDF’s dots',
    { timeout: 60_000 },
    async (dpi, dpmm, width, height) => {
      const labels = await pdfToZpl(pdf, { dpi, copies: 2 });
      expect(labels).toHaveLength(2);
      for (const [page, label] of labels.entries()) {
        expect(label.zpl).toMatch(new RegExp(`^\\^XA\\^PW${width}\\^LL${height}\\^.*\\^GFA,\\d+,\\d+,${Math.ceil(width / 8)},:Z64:`));
        expect(label.zpl).toContain('^PQ2,');
        // Zebrash centres a narrower label on its paper: give it paper of the label's own size.
        const [png] = await reader.renderPngs(label.zpl, label.widthDots / dpmm, label.heightDots / dpmm, dpmm);
        expect(await reader.barcodes(png!)).toEqual([`CODE-128:${TRACKING[page]}`]);
        const printed = await reader.png(png!);
        const reference = await reader.pdftoppm(pdf, dpi, page + 1);
        expect([printed.width, printed.height]).toEqual([reference.width, reference.height]);
        expect(blackAgreement(printed, reference), `page ${page + 1}: black dots that agree with pdftoppm's`).toBeGreaterThanOrEqual(0.99);
        expect(Math.abs(blackCount(printed) / blackCount(reference) - 1), 'as much black as pdftoppm').toBeLessThan(0.05);
      }
    },
  );

  it('thresholds without dithering: a 50 % grey is all white or all black, never a pattern', () => {
    const grey = new Uint8Array(16 * 4).fill(127);
    grey.fill(128, 32);
    const bitmap = threshold1Bit(grey, 16, 4, 16, 128);
    expect([...bitmap.bits]).toEqual([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]);
  });

  it('packs eight dots a byte exactly as one dot at a time would: any width, stride, threshold, alignment and run of white', () => {
    /** The rule, one pixel at a time: a dot is black when its grey is below the threshold. */
    const reference = (grey: Uint8Array, width: number, height: number, stride: number, threshold: number): number[] => {
      const bytesPerRow = Math.ceil(width / 8);
      const bits = new Array<number>(bytesPerRow * height).fill(0);
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) if (grey[y * stride + x]! < threshold) bits[y * bytesPerRow + (x >> 3)]! |= 0x80 >> (x & 7);
      }
      return bits;
    };
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 70 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 0, max: 9 }),
        fc.integer({ min: 0, max: 3 }),
        fc.oneof(fc.constant(128), fc.constant(256), fc.integer({ min: 0, max: 256 })),
        fc.boolean(),
        fc.infiniteStream(fc.oneof(fc.constant(255), fc.constant(0), fc.integer({ min: 0, max: 255 }))),
        (width, height, padding, offset, threshold, clamped, values) => {
          const stride = width + padding;
          // Long runs of pure white (the 32-bit shortcut) with dark and grey pixels among them.
          const buffer = new ArrayBuffer(offset + stride * height + 8);
          const grey = clamped ? new Uint8ClampedArray(buffer, offset, stride * height) : new Uint8Array(buffer, offset, stride * height);
          const source = values[Symbol.iterator]();
          for (let i = 0; i < grey.length; i++) grey[i] = Math.floor(i / 16) % 3 === 0 ? source.next().value! : 255;
          const bitmap = threshold1Bit(grey, width, height, stride, threshold);
          expect(bitmap.bytesPerRow).toBe(Math.ceil(width / 8));
          expect([...bitmap.bits]).toEqual(reference(new Uint8Array(grey), width, height, stride, threshold));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('sends the dots Z64-compressed with the CRC Zebra printers check', () => {
    const bits = new Uint8Array(2 * 3).fill(0xaa);
    const label = labelFormat({ width: 16, height: 3, bytesPerRow: 2, bits });
    const match = /\^GFA,6,6,2,:Z64:([A-Za-z0-9+/=]+):([0-9a-f]{4})\^FS/.exec(label.zpl);
    expect(match).not.toBeNull();
    expect([...inflateSync(Buffer.from(match![1]!, 'base64'))]).toEqual([...bits]);
    expect(match![2]).toBe(crc16(match![1]!).toString(16).padStart(4, '0'));
    // CRC-16/XMODEM's check value.
    expect(crc16('123456789')).toBe(0x31c3);
  });
});

describe('the ZPL test label', () => {
  it('shows the dpi and what the printer said, with a ruler whose 10 mm marks are 10 mm apart', { timeout: 30_000 }, async () => {
    const zpl = zplTestLabel({
      uri: 'zpl://10.0.0.7',
      dpi: 203,
      identity: { model: 'ZD421-203dpi', firmware: 'V92.21.39Z', dotsPerMm: 8, memory: '8176KB' },
      at: new Date('2026-11-26T06:00:00Z'),
    });
    expect(zpl).toContain('Rendered at: 203 dpi');
    expect(zpl).toContain('Printer identity: ZD421-203dpi V92.21.39Z, 8 dots/mm');
    const [png] = await reader.renderPngs(zpl, 812 / 8, 1218 / 8, 8);
    const image = await reader.png(png!);
    // The ruler's baseline is the long black row near the bottom; its 10 mm ticks (5 mm tall) are all that crosses the row 4 mm above it.
    const blackIn = (y: number): number => image.pixels.slice(y * image.width, (y + 1) * image.width).filter((p) => p < 128).length;
    let row = -1;
    for (let y = image.height - 40; y > image.height / 2 && row < 0; y--) if (blackIn(y) > 400) row = y;
    expect(row, 'the ruler baseline').toBeGreaterThan(image.height - 120);
    const probe = row - 4 * 8;
    const ticks: number[] = [];
    // Inside the border (its sides cross every row).
    for (let x = 40; x < image.width - 40; x++) {
      const black = image.pixels[probe * image.width + x]! < 128;
      const before = x > 0 && image.pixels[probe * image.width + x - 1]! < 128;
      if (black && !before) ticks.push(x);
    }
    expect(ticks.length).toBeGreaterThanOrEqual(8);
    const gaps = ticks.slice(1).map((x, i) => x - ticks[i]!);
    for (const gap of gaps) expect(Math.abs(gap - 80)).toBeLessThanOrEqual(1);
  });
});
