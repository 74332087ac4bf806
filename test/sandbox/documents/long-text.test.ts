import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embedFonts, longestPrefix } from '../../../src/sandbox/documents/fonts';
import { renderDocument } from '../../../src/sandbox/documents/render';
import type { DocumentShipment } from '../../../src/sandbox/documents/types';
import { Poppler } from '../../support/poppler';

const HUGE = 200_000;

function shipment(referenceId: string): DocumentShipment {
  return {
    id: '0f8c2a4e-0000-4000-8000-000000000001',
    carrierName: 'PostNord',
    productName: 'MyPack Home',
    trackingId: '00370000000000000017',
    referenceId,
    senderReference: null,
    receiverReference: null,
    sender: {
      name: 'Sender AB',
      contactName: null,
      addressLines: ['Lagergatan 4'],
      postalCode: '41101',
      city: 'Göteborg',
      countryCode: 'SE',
    },
    receiver: {
      name: 'Café Lindqvist',
      contactName: null,
      addressLines: ['Stortorget 3'],
      postalCode: '21122',
      city: 'Malmö',
      countryCode: 'SE',
    },
    packages: [{ description: 'Books', weightKg: 2.5, quantity: 1 }],
    bookedAt: '2026-11-22T10:00:00Z',
  };
}

let poppler: Poppler;
beforeAll(async () => {
  poppler = await Poppler.create();
});
afterAll(async () => {
  await poppler.dispose();
});

describe('long texts on documents (a 200 kB reference once hung the sandbox for over a minute)', () => {
  // The test timeout is the failure signal: the old character-by-character cut took minutes.
  it('renders a label for a 200,000-character reference, cut to the label width', { timeout: 5_000 }, async () => {
    const pdf = await renderDocument({ shipments: [shipment('R'.repeat(HUGE))], documentType: 'label', layout: 'printer' });
    const text = await poppler.text(await poppler.save(pdf));
    const line = text.split('\n').find((l) => l.startsWith('Ref: '));
    expect(line).toMatch(/^Ref: R{10,}\.\.\.$/);
    expect(line!.length).toBeLessThan(100);
  });

  it('fit cuts a long text exactly where a character-by-character cut would', async () => {
    const fonts = embedFonts(await PDFDocument.create());
    const slowFit = (text: string, size: number, width: number): string => {
      let safe = text;
      if (fonts.regular.widthOfTextAtSize(safe, size) <= width) return safe;
      while (safe.length > 0 && fonts.regular.widthOfTextAtSize(`${safe}...`, size) > width) safe = safe.slice(0, -1);
      return `${safe}...`;
    };
    for (const text of ['', 'x', 'Stortorget 3, 211 22 Malmö', 'WWWWW iiiii WWWWW iiiii '.repeat(20)]) {
      for (const width of [5, 30, 100, 264]) expect(fonts.fit(text, fonts.regular, 9, width)).toBe(slowFit(text, 9, width));
    }
    const huge = fonts.fit('W'.repeat(HUGE), fonts.bold, 11, 264);
    expect(huge.endsWith('...')).toBe(true);
    expect(fonts.bold.widthOfTextAtSize(huge, 11)).toBeLessThanOrEqual(264);
    expect(fonts.bold.widthOfTextAtSize(`W${huge}`, 11)).toBeGreaterThan(264);
  });

  it('wrap breaks a 200,000-character word into lines that each fit and together keep every character', { timeout: 5_000 }, async () => {
    const fonts = embedFonts(await PDFDocument.create());
    const word = 'abcdefghij'.repeat(HUGE / 10);
    const lines = fonts.wrap(`start ${word} end`, fonts.regular, 9, 200);
    expect(lines.join('').replaceAll(' ', '')).toBe(`start${word}end`);
    for (const line of lines) expect(fonts.regular.widthOfTextAtSize(line, 9)).toBeLessThanOrEqual(200);
    // Full lines: each broken line is as long as fits (one more character would not).
    const middle = lines[3]!;
    expect(fonts.regular.widthOfTextAtSize(`${middle}a`, 9)).toBeGreaterThan(200);
  });

  it('longestPrefix finds the last length that fits, at the ends too', () => {
    for (const max of [0, 1, 2, 7, 1000]) {
      for (const limit of [0, 1, 3, 6, 999, 1000]) {
        expect(longestPrefix(max, (n) => n <= limit)).toBe(Math.min(max, limit));
      }
    }
  });
});
