import { describe, expect, it } from 'vitest';
import { autoPrintTypes, mediaForLayout, routeFor, routedPrinterUris } from '../../../src/main/printing/routing';
import { DOCUMENT_TYPES, routingSchema, type LabelLayout } from '../../../src/shared/domain';

const base = { labelPrinter: 'cups:Zebra', documentPrinter: 'cups:Office' };

describe('routing', () => {
  it('sends labels to the label printer as 4x6 by default and documents to the document printer as A4', () => {
    const routing = routingSchema.parse(base);
    expect(routeFor(routing, 'label')).toEqual({ target: 'cups:Zebra', layout: 'printer', media: 'label' });
    expect(routeFor(routing, 'waybill')).toEqual({ target: 'cups:Office', layout: 'a4', media: 'a4' });
    expect(routeFor(routing, 'customsinvoice')).toEqual({ target: 'cups:Office', layout: 'a4', media: 'a4' });
  });

  it('prints labels in the sheet layout on an A4 label printer', () => {
    const routing = routingSchema.parse({ ...base, labelPrinterMedia: 'a4', sheetLayout: '2x2' });
    expect(routeFor(routing, 'label')).toEqual({ target: 'cups:Zebra', layout: '2x2', media: 'a4' });
  });

  it('keeps the requested layout and the printer media in agreement for every combination', () => {
    const sheetLayouts = ['a4', '1x2', '3x1', '2x2'] as const;
    let checked = 0;
    for (const labelPrinterMedia of ['label', 'a4'] as const) {
      for (const sheetLayout of sheetLayouts) {
        const routing = routingSchema.parse({ ...base, labelPrinterMedia, sheetLayout });
        for (const type of [...DOCUMENT_TYPES, 'some-future-type']) {
          const route = routeFor(routing, type);
          expect(route.media, `${labelPrinterMedia}/${sheetLayout}/${type}`).toBe(mediaForLayout(route.layout));
          expect(route.media === 'label', `${labelPrinterMedia}/${sheetLayout}/${type}`).toBe(route.layout === 'printer');
          if (type === 'label') {
            expect(route.target).toBe('cups:Zebra');
            expect(route.media).toBe(labelPrinterMedia);
            if (labelPrinterMedia === 'a4') expect(route.layout).toBe(sheetLayout);
          } else {
            expect(route).toEqual({ target: 'cups:Office', layout: 'a4', media: 'a4' });
          }
          checked++;
        }
      }
    }
    expect(checked).toBe(2 * 4 * (DOCUMENT_TYPES.length + 1));
  });

  it('maps each layout to its media', () => {
    const expected: Record<LabelLayout, string> = { printer: 'label', a4: 'a4', '1x2': 'a4', '3x1': 'a4', '2x2': 'a4' };
    for (const [layout, media] of Object.entries(expected)) expect(mediaForLayout(layout as LabelLayout)).toBe(media);
  });

  it('prints only the label automatically by default; waybill and customs invoice can be switched on', () => {
    expect(autoPrintTypes(routingSchema.parse(base))).toEqual(['label']);
    expect(autoPrintTypes(routingSchema.parse({ ...base, autoPrint: ['customsinvoice', 'label', 'waybill', 'label'] }))).toEqual([
      'label',
      'customsinvoice',
      'waybill',
    ]);
    expect(autoPrintTypes(routingSchema.parse({ ...base, autoPrint: [] }))).toEqual([]);
  });

  it('lists every printer the routing can send to once, the two defaults first (what the start-up check asks about)', () => {
    expect(routedPrinterUris(routingSchema.parse({ labelPrinter: 'cups:Zebra', documentPrinter: 'cups:Zebra' }))).toEqual(['cups:Zebra']);
    const routing = routingSchema.parse({
      ...base,
      printers: [
        { name: 'Bench 2', uri: 'cups:Zebra2', media: '4x6in', fallback: { printer: 'folder:/tmp/fallback' } },
        { name: 'Office', uri: 'cups:Office', media: 'a4' },
        { name: 'Sheets', uri: 'cups:Sheets', media: 'letter', layout: '2x2' },
      ],
      rules: [
        { carriers: ['dhl'], documentTypes: ['label'], printer: 'Bench 2' },
        { carriers: ['bring'], documentTypes: [], printer: 'cups:Unlisted' },
      ],
      defaults: { customsinvoice: 'Sheets', waybill: 'windows:HP LaserJet' },
    });
    expect(routedPrinterUris(routing)).toEqual([
      'cups:Zebra',
      'cups:Office',
      'cups:Zebra2',
      'cups:Sheets',
      'cups:Unlisted',
      'windows:HP LaserJet',
      'folder:/tmp/fallback',
    ]);
  });
});
