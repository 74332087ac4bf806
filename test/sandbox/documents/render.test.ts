import { PDFDocument, PDFName, PDFDict, PDFRawStream } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LabelLayout } from '../../../src/shared/domain';
import { DocumentRenderError } from '../../../src/sandbox/documents/errors';
import { renderDocument } from '../../../src/sandbox/documents/render';
import type { DocumentPackage, DocumentShipment } from '../../../src/sandbox/documents/types';
import { Poppler } from '../../support/poppler';

const FOUR_BY_SIX: [number, number] = [288, 432];
const A4: [number, number] = [595.28, 841.89];

function shipment(n: number, packages: DocumentPackage[] = [{ description: 'Books', weightKg: 2.5, quantity: 1 }]): DocumentShipment {
  return {
    id: `0f8c2a4e-0000-4000-8000-00000000000${n}`,
    carrierName: `Carrier ${n}`,
    productName: `Product ${n}`,
    trackingId: `TRK${n}000${n}SE`,
    referenceId: `order-${n}`,
    senderReference: `sref-${n}`,
    receiverReference: `rref-${n}`,
    sender: {
      name: `Sender ${n} AB`,
      contactName: 'Kim Packer',
      addressLines: ['Lagergatan 4'],
      postalCode: '41101',
      city: 'Goteborg',
      countryCode: 'SE',
    },
    receiver: {
      name: `Receiver ${n} GmbH`,
      contactName: 'Jo Buyer',
      addressLines: ['Hauptstrasse 9', 'Hof 2'],
      postalCode: '10115',
      city: 'Berlin',
      countryCode: 'DE',
    },
    packages,
    bookedAt: '2026-11-22T10:00:00Z',
  };
}

const units = (...quantities: number[]): DocumentPackage[] =>
  quantities.map((quantity, i) => ({ description: `box ${i}`, weightKg: 1 + i, quantity }));

let poppler: Poppler;
beforeAll(async () => {
  poppler = await Poppler.create();
});
afterAll(async () => {
  await poppler.dispose();
});

async function pageSizes(pdf: Uint8Array): Promise<Array<[number, number]>> {
  const document = await PDFDocument.load(pdf);
  return document.getPages().map((page) => {
    const { width, height } = page.getSize();
    return [width, height];
  });
}

function expectSize(actual: [number, number] | undefined, expected: [number, number]): void {
  expect(actual?.[0]).toBeCloseTo(expected[0], 1);
  expect(actual?.[1]).toBeCloseTo(expected[1], 1);
}

describe('renderDocument: label layouts', () => {
  // Five labels: 2 + 3 package units over two shipments.
  const shipments = [shipment(1, units(2)), shipment(2, units(1, 2))];
  const cases: Array<[LabelLayout, number, [number, number]]> = [
    ['printer', 5, FOUR_BY_SIX],
    ['a4', 5, A4],
    ['1x2', 3, A4],
    ['3x1', 2, A4],
    ['2x2', 2, A4],
  ];

  for (const [layout, pages, size] of cases) {
    it(`${layout}: 5 labels on ${pages} pages of ${size[0]} x ${size[1]} pt (pdf-lib and pdfinfo agree)`, async () => {
      const pdf = await renderDocument({ shipments, documentType: 'label', layout });
      expect(Buffer.from(pdf.subarray(0, 5)).toString('latin1')).toBe('%PDF-');

      const sizes = await pageSizes(pdf);
      expect(sizes).toHaveLength(pages);
      for (const s of sizes) expectSize(s, size);

      const file = await poppler.save(pdf);
      const info = await poppler.info(file);
      expect(info.pages).toBe(pages);
      expect(info.sizes).toHaveLength(pages);
      for (const s of info.sizes) expectSize(s, [Math.round(size[0] * 100) / 100, Math.round(size[1] * 100) / 100]);

      // Each label carries its barcode image: the placements add up to the label count.
      const images = await poppler.imagesPerPage(file);
      const placed = [...images.values()].reduce((sum, list) => sum + list.length, 0);
      expect(placed).toBe(5);
      const perSheet = { printer: 1, a4: 1, '1x2': 2, '3x1': 3, '2x2': 4 }[layout];
      expect(images.get(1)).toHaveLength(perSheet);
    });
  }
});

describe('renderDocument: label content', () => {
  it('prints one label per package unit, numbered n of N', async () => {
    const pdf = await renderDocument({ shipments: [shipment(3, units(2, 1))], documentType: 'label', layout: 'printer' });
    const file = await poppler.save(pdf);
    expect((await poppler.info(file)).pages).toBe(3);
    for (const n of [1, 2, 3]) {
      const text = await poppler.text(file, n);
      expect(text).toContain(`Package ${n} of 3`);
      expect(text).toContain('TRK30003SE');
    }
  });

  it('shows carrier, product, sender, receiver, references, tracking id and shipment id', async () => {
    const s = shipment(4);
    const file = await poppler.save(await renderDocument({ shipments: [s], documentType: 'label', layout: 'printer' }));
    const text = await poppler.text(file, 1);
    for (const expected of [
      'Carrier 4',
      'Product 4',
      'Sender 4 AB',
      'Lagergatan 4',
      'Receiver 4 GmbH',
      'Hauptstrasse 9',
      '10115 Berlin',
      'order-4',
      'sref-4',
      'rref-4',
      'Package 1 of 1',
      'TRK40004SE',
      s.id,
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('concatenates several shipments in request order, flowing across sheets', async () => {
    const shipments = [shipment(5, units(2)), shipment(6, units(1)), shipment(7, units(2))];
    const file = await poppler.save(await renderDocument({ shipments, documentType: 'label', layout: 'printer' }));
    const order: string[] = [];
    for (let page = 1; page <= 5; page += 1) {
      const text = await poppler.text(file, page);
      order.push(/TRK\d+SE/.exec(text)?.[0] ?? '?');
    }
    expect(order).toEqual(['TRK50005SE', 'TRK50005SE', 'TRK60006SE', 'TRK70007SE', 'TRK70007SE']);

    const sheet = await poppler.save(await renderDocument({ shipments, documentType: 'label', layout: '2x2' }));
    expect((await poppler.info(sheet)).pages).toBe(2);
    expect(await poppler.text(sheet, 1)).toContain('TRK60006SE');
    expect(await poppler.text(sheet, 2)).toContain('TRK70007SE');
    expect(await poppler.text(sheet, 2)).not.toContain('TRK50005SE');
  });

  it('embeds the barcode image once per tracking id and places it on every label', async () => {
    const pdf = await renderDocument({ shipments: [shipment(8, units(3)), shipment(9)], documentType: 'label', layout: '2x2' });
    const document = await PDFDocument.load(pdf);
    const used = new Map<string, PDFRawStream>();
    for (const page of document.getPages()) {
      const xObjects = page.node.Resources()?.lookup(PDFName.of('XObject'), PDFDict);
      const refs = xObjects ? xObjects.entries().map(([, ref]) => ref) : [];
      expect(refs.length).toBeGreaterThan(0);
      for (const ref of refs) {
        const stream = document.context.lookup(ref);
        if (stream instanceof PDFRawStream && stream.dict.get(PDFName.of('Subtype')) === PDFName.of('Image'))
          used.set(ref.toString(), stream);
      }
    }
    // Two tracking ids: two images, whatever the label count (4 labels use them).
    expect(used.size).toBe(2);
    for (const image of used.values()) {
      const width = Number(image.dict.get(PDFName.of('Width'))?.toString());
      const height = Number(image.dict.get(PDFName.of('Height'))?.toString());
      // A one-dimensional code: a wide strip of bars.
      expect(width).toBeGreaterThan(100);
      expect(width).toBeGreaterThan(height * 10);
    }
    const file = await poppler.save(pdf);
    expect([...(await poppler.imagesPerPage(file)).values()].map((list) => list.length)).toEqual([4]);
  });

  it('writes characters the standard font lacks as a readable stand-in instead of failing', async () => {
    const s = { ...shipment(1), receiver: { ...shipment(1).receiver, name: 'Łódź Hurt 東京' } };
    const file = await poppler.save(await renderDocument({ shipments: [s], documentType: 'label', layout: 'printer' }));
    expect(await poppler.text(file, 1)).toContain('Lódz Hurt ??');
  });

  it('still prints one label for a shipment whose packages count no unit', async () => {
    const file = await poppler.save(await renderDocument({ shipments: [shipment(1, [])], documentType: 'label', layout: 'printer' }));
    expect((await poppler.info(file)).pages).toBe(1);
    expect(await poppler.text(file, 1)).toContain('Package 1 of 1');
  });
});

describe('renderDocument: other document types', () => {
  const types: Array<[string, string]> = [
    ['waybill', 'Waybill'],
    ['customsinvoice', 'Customs invoice'],
    ['manifest', 'Manifest'],
    ['proofofdelivery', 'Proof of delivery'],
    ['abd', 'Export declaration (ABD)'],
    ['salesinvoice', 'Sales invoice'],
  ];
  for (const [documentType, title] of types) {
    it(`${documentType}: A4, one page per shipment, titled and naming the shipment, whatever the layout`, async () => {
      const pdf = await renderDocument({ shipments: [shipment(1), shipment(2)], documentType, layout: 'printer' });
      const file = await poppler.save(pdf);
      const info = await poppler.info(file);
      expect(info.pages).toBe(2);
      for (const s of info.sizes) expectSize(s, [595.28, 841.89]);
      for (const n of [1, 2]) {
        const text = await poppler.text(file, n);
        expect(text).toContain(title);
        expect(text).toContain(shipment(n).id);
        expect(text).toContain(`TRK${n}000${n}SE`);
        expect(text).toContain(`Receiver ${n} GmbH`);
      }
    });
  }

  it('continues a long package list on another A4 page', async () => {
    const many = Array.from({ length: 80 }, (_, i) => ({ description: `item ${i}`, weightKg: 1, quantity: 1 }));
    const file = await poppler.save(await renderDocument({ shipments: [shipment(1, many)], documentType: 'waybill', layout: 'a4' }));
    const info = await poppler.info(file);
    expect(info.pages).toBeGreaterThan(1);
    expect(await poppler.text(file)).toContain('80. 1 x item 79');
  });
});

describe('renderDocument: errors', () => {
  it('refuses an empty shipment list with a coded error', async () => {
    await expect(renderDocument({ shipments: [], documentType: 'label', layout: 'printer' })).rejects.toSatisfy(
      (error: unknown) => error instanceof DocumentRenderError && error.code === 'SANDBOX_DOCUMENT_EMPTY',
    );
  });
});
