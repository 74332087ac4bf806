import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customsTotals, formatCents } from '../../../src/sandbox/documents/customs-totals';
import { renderDocument } from '../../../src/sandbox/documents/render';
import type { DocumentCustoms, DocumentCustomsItem, DocumentShipment } from '../../../src/sandbox/documents/types';
import { Poppler } from '../../support/poppler';

const BOOKS: DocumentCustomsItem = {
  description: 'Books',
  material: 'paper',
  quantity: 2,
  unitType: 'pcs',
  unitWeightKg: 1.25,
  unitValue: 100,
  hsCode: '490199',
  countryOfOrigin: 'SE',
};
const MUGS: DocumentCustomsItem = {
  description: 'Mugs',
  material: 'ceramic',
  quantity: 3,
  unitType: 'pieces',
  unitWeightKg: 0.4,
  unitValue: 12.35,
  hsCode: '691200',
  countryOfOrigin: 'DK',
};

function customs(overrides: Partial<DocumentCustoms> = {}): DocumentCustoms {
  return {
    invoiceType: 'commercial',
    invoiceNumber: 'INV-2026-0042',
    reasonForExport: 'sale',
    currency: 'SEK',
    termsOfSale: 'DAP',
    senderEoriNumber: 'SE5566778899',
    senderVatNumber: 'SE556677889901',
    senderVoecNumber: 'VOEC2040123',
    receiverEoriNumber: 'NO987654321',
    receiverVatNumber: 'NO987654321MVA',
    items: [BOOKS, MUGS],
    additionalInformation: 'Goods for resale, packed in two boxes.',
    insuranceCosts: 10,
    shippingCosts: 25.5,
    otherCosts: null,
    discount: 5,
    signature: 'Sven Sender',
    ...overrides,
  };
}

function shipment(extra: Partial<DocumentShipment> = {}): DocumentShipment {
  return {
    id: '0f8c2a4e-0000-4000-8000-000000000042',
    carrierName: 'Carrier X',
    productName: 'Express',
    trackingId: 'TRK4242SE',
    referenceId: 'order-42',
    senderReference: null,
    receiverReference: null,
    sender: {
      name: 'Sender AB',
      contactName: 'Kim Packer',
      addressLines: ['Lagergatan 4'],
      postalCode: '41101',
      city: 'Goteborg',
      countryCode: 'SE',
    },
    receiver: {
      name: 'Kunde AS',
      contactName: 'Kari Kunde',
      addressLines: ['Karl Johans gate 1'],
      postalCode: '0154',
      city: 'Oslo',
      countryCode: 'NO',
    },
    packages: [{ description: 'Box', weightKg: 5, quantity: 1 }],
    bookedAt: '2026-11-22T10:00:00Z',
    ...extra,
  };
}

const WAREHOUSE = {
  name: 'Lager Oslo',
  contactName: null,
  addressLines: ['Lagerveien 77'],
  postalCode: '0580',
  city: 'Oslo',
  countryCode: 'NO',
};

let poppler: Poppler;
beforeAll(async () => {
  poppler = await Poppler.create();
});
afterAll(async () => {
  await poppler.dispose();
});

async function invoiceFile(shipments: DocumentShipment[]): Promise<string> {
  return poppler.save(await renderDocument({ shipments, documentType: 'customsinvoice', layout: 'printer' }));
}

describe('customs invoice from structured customs data', () => {
  it('shows the header fields, seller and buyer with their numbers, the delivery address, the items, the totals and the signature', async () => {
    const file = await invoiceFile([shipment({ customs: customs(), deliveryAddress: WAREHOUSE })]);
    const info = await poppler.info(file);
    expect(info.pages).toBe(1);
    expect(info.sizes[0]?.[0]).toBeCloseTo(595.28, 1);
    expect(info.sizes[0]?.[1]).toBeCloseTo(841.89, 1);
    const text = await poppler.text(file, 1);
    for (const expected of [
      'Customs invoice',
      'INV-2026-0042',
      'commercial',
      'sale',
      'SEK',
      'DAP',
      // Seller: the sender and its numbers.
      'Sender AB',
      'EORI: SE5566778899',
      'VAT: SE556677889901',
      'VOEC: VOEC2040123',
      // Buyer: the receiver (`to`) and its numbers.
      'Kunde AS',
      'Karl Johans gate 1',
      'EORI: NO987654321',
      'VAT: NO987654321MVA',
      // alternative_to.
      'Delivery address',
      'Lager Oslo',
      'Lagerveien 77',
      // Items.
      'Books',
      'paper',
      '490199',
      '2 pcs',
      '1.25',
      '100.00',
      '200.00',
      'Mugs',
      'ceramic',
      '691200',
      'DK',
      '3 pieces',
      '12.35',
      '37.05',
      // Totals: 200.00 + 37.05 goods, +10 insurance +25.50 shipping -5 discount.
      '237.05',
      '10.00',
      '25.50',
      '-5.00',
      'Total SEK',
      '267.55',
      'Net weight: 3.7 kg',
      'Goods for resale, packed in two boxes.',
      'Sven Sender',
      '2026-11-22',
      '0f8c2a4e-0000-4000-8000-000000000042',
      'TRK4242SE',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('names no delivery address when alternative_to is not set', async () => {
    const text = await poppler.text(await invoiceFile([shipment({ customs: customs() })]));
    expect(text).toContain('Kunde AS');
    expect(text).not.toContain('Delivery address');
  });

  it('leaves unset fields blank instead of failing, and counts unset costs as zero', async () => {
    const bare = customs({
      receiverEoriNumber: null,
      receiverVatNumber: null,
      senderVoecNumber: null,
      insuranceCosts: null,
      shippingCosts: null,
      discount: null,
      additionalInformation: null,
      items: [{ ...BOOKS, unitValue: null }, MUGS],
    });
    const text = await poppler.text(await invoiceFile([shipment({ customs: bare })]));
    expect(text).not.toContain('VOEC');
    expect(text).not.toContain('NO987654321');
    expect(text).not.toContain('Additional information');
    // Only the mugs have a value: 37.05 is the goods value and the total.
    expect(text.match(/37\.05/g)?.length).toBe(3);
  });

  it('continues a long item list on further pages, repeating the table header, with the totals after the last item', async () => {
    const items = Array.from({ length: 130 }, (_, i) => ({ ...BOOKS, description: `Book title ${i + 1}`, quantity: 1, unitValue: 10 }));
    const file = await invoiceFile([shipment({ customs: customs({ items, insuranceCosts: null, shippingCosts: null, discount: null }) })]);
    const { pages } = await poppler.info(file);
    expect(pages).toBeGreaterThanOrEqual(3);
    const texts = await Promise.all(Array.from({ length: pages }, (_, i) => poppler.text(file, i + 1)));
    texts.slice(1).forEach((text, i) => {
      expect(text).toContain('INV-2026-0042 (continued)');
      expect(text).toContain(`page ${i + 2} of ${pages}`);
      // Every page that carries items carries the column titles too.
      if (text.includes('Book title')) expect(text).toContain('HS code');
    });
    const all = texts.join('\n');
    for (let n = 1; n <= 130; n += 1) expect(all).toContain(`Book title ${n}`);
    const lastItemPage = texts.findIndex((text) => text.includes('Book title 130'));
    const totalsPage = texts.findIndex((text) => text.includes('1300.00'));
    expect(lastItemPage).toBeGreaterThan(0);
    expect(totalsPage).toBeGreaterThanOrEqual(lastItemPage);
    expect(texts[pages - 1]).toContain('Sven Sender');
  });

  it('wraps long additional information over several lines without losing words', async () => {
    const words = Array.from({ length: 120 }, (_, i) => `word${i}`);
    const file = await invoiceFile([shipment({ customs: customs({ additionalInformation: words.join(' ') }) })]);
    const text = await poppler.text(file);
    for (const word of words) expect(text).toContain(word);
    expect(text).not.toContain('...');
  });

  it('wraps a long item description within its cell instead of cutting it', async () => {
    const description = 'Hardcover art book with linen binding and a slipcase, signed first edition';
    const text = await poppler.text(await invoiceFile([shipment({ customs: customs({ items: [{ ...BOOKS, description }] }) })]));
    for (const word of description.split(' ')) expect(text).toContain(word);
    expect(text).not.toContain('...');
  });

  it('renders one invoice per shipment, in request order', async () => {
    const second = shipment({ id: '0f8c2a4e-0000-4000-8000-000000000043', customs: customs({ invoiceNumber: 'INV-SECOND' }) });
    const file = await invoiceFile([shipment({ customs: customs() }), second]);
    expect((await poppler.info(file)).pages).toBe(2);
    expect(await poppler.text(file, 1)).toContain('INV-2026-0042');
    expect(await poppler.text(file, 2)).toContain('INV-SECOND');
  });

  it('keeps the generic sheet when the shipment has no customs data', async () => {
    const text = await poppler.text(await invoiceFile([shipment()]));
    expect(text).toContain('Customs invoice');
    expect(text).toContain('Packages');
    expect(text).not.toContain('HS code');
  });
});

describe('delivery address on other documents', () => {
  it('addresses the label to the delivery address and lists both parties on the generic sheet', async () => {
    const s = shipment({ deliveryAddress: WAREHOUSE });
    const label = await poppler.text(
      await poppler.save(await renderDocument({ shipments: [s], documentType: 'label', layout: 'printer' })),
    );
    expect(label).toContain('Lagerveien 77');
    expect(label).not.toContain('Karl Johans gate 1');
    const waybill = await poppler.text(await poppler.save(await renderDocument({ shipments: [s], documentType: 'waybill', layout: 'a4' })));
    expect(waybill).toContain('Karl Johans gate 1');
    expect(waybill).toContain('Delivery address');
    expect(waybill).toContain('Lagerveien 77');
  });
});

describe('customsTotals', () => {
  it('rounds each line to cents and adds the costs, less the discount', () => {
    const totals = customsTotals(
      customs({
        items: [
          { ...BOOKS, quantity: 3, unitValue: 0.1 },
          { ...MUGS, quantity: 1, unitValue: 0.2 },
        ],
        otherCosts: 1.1,
      }),
    );
    expect(totals.lineCents).toEqual([30, 20]);
    expect(totals.goodsCents).toBe(50);
    expect(totals.totalCents).toBe(50 + 1000 + 2550 + 110 - 500);
    expect(totals.netWeightKg).toBeCloseTo(3 * 1.25 + 0.4, 9);
  });

  it('formats cents with two decimals and a sign', () => {
    expect(formatCents(26755)).toBe('267.55');
    expect(formatCents(5)).toBe('0.05');
    expect(formatCents(-500)).toBe('-5.00');
  });
});
