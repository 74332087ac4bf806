import { describe, expect, it } from 'vitest';
import { CarrierCache } from '../../../src/main/agent/carrier-cache';
import { printersOf, routeFor } from '../../../src/main/printing/routing';
import { ippMedia } from '../../../src/main/printing/cups/cups-ipp-driver';
import { cupsMediaArgs } from '../../../src/main/printing/cups/cups-lp-driver';
import { windowsPrintOptions } from '../../../src/main/printing/windows/windows-target';
import { DOCUMENT_TYPES, PRINTER_MEDIA, isSheetMedia, routingSchema } from '../../../src/shared/domain';

const station = {
  labelPrinter: 'cups:Zebra1',
  documentPrinter: 'cups:Office',
  printers: [
    { name: 'Zebra bench 1', uri: 'cups:Zebra1', media: '4x6in' },
    { name: 'Zebra bench 2', uri: 'cups:Zebra2', media: '100x150mm' },
    { name: 'Office', uri: 'cups:Office', media: 'a4' },
    { name: 'Sheets', uri: 'cups:Sheets', media: 'letter', layout: '2x2' },
  ],
  rules: [
    { carriers: ['dhl'], documentTypes: ['label'], printer: 'Zebra bench 2' },
    { carriers: ['Bring'], printer: 'Sheets' },
    { carriers: ['dhl'], printer: 'Zebra bench 1' },
  ],
};

async function cacheOf(list: Array<{ carrier: string; name: string }>): Promise<CarrierCache> {
  const cache = new CarrierCache({ source: () => ({ carriers: async () => ({ carriers: list }) }) });
  await cache.refresh();
  return cache;
}

describe('routing rules', () => {
  it('turns the two historical printers into two entries', () => {
    const printers = printersOf(
      routingSchema.parse({ labelPrinter: 'cups:Z', documentPrinter: 'cups:O', labelPrinterMedia: 'a4', sheetLayout: '3x1' }),
    );
    expect(printers).toEqual([
      { name: 'Label printer', uri: 'cups:Z', media: 'a4', layout: '3x1' },
      { name: 'Document printer', uri: 'cups:O', media: 'a4' },
    ]);
  });

  it('routes every document type with no rules to the defaults, and a per-type default first', () => {
    const routing = routingSchema.parse({ ...station, rules: [], defaults: { waybill: 'Sheets' } });
    for (const type of DOCUMENT_TYPES) {
      const route = routeFor(routing, type);
      if (type === 'label') expect(route).toEqual({ target: 'cups:Zebra1', layout: 'printer', media: 'label' });
      else if (type === 'waybill') expect(route).toEqual({ target: 'cups:Sheets', layout: 'a4', media: 'letter' });
      else expect(route, type).toEqual({ target: 'cups:Office', layout: 'a4', media: 'a4' });
    }
  });

  it('matches a carrier code from a webhook and its name from a poll to the same rule', async () => {
    const routing = routingSchema.parse(station);
    const cache = await cacheOf([
      { carrier: 'dhl', name: 'DHL Express' },
      { carrier: 'bring', name: 'Bring' },
    ]);
    expect(routeFor(routing, 'label', 'dhl', cache.key)).toEqual({ target: 'cups:Zebra2', layout: 'printer', media: '100x150mm' });
    expect(routeFor(routing, 'label', 'DHL Express', cache.key)).toEqual({ target: 'cups:Zebra2', layout: 'printer', media: '100x150mm' });
    // Without the carrier list a name does not match a code rule.
    expect(routeFor(routing, 'label', 'DHL Express').target).toBe('cups:Zebra1');
    // A rule written with the name matches the code.
    expect(routeFor(routing, 'label', 'bring', cache.key)).toEqual({ target: 'cups:Sheets', layout: '2x2', media: 'letter' });
  });

  it('takes the first matching rule, passes over label stock for non-label documents, then the defaults', async () => {
    const routing = routingSchema.parse(station);
    const cache = await cacheOf([{ carrier: 'dhl', name: 'DHL Express' }]);
    // waybill of dhl: rule 1 is labels only, rule 3 names a label printer: the document default.
    expect(routeFor(routing, 'waybill', 'DHL Express', cache.key)).toEqual({ target: 'cups:Office', layout: 'a4', media: 'a4' });
    const swapped = routingSchema.parse({ ...station, rules: [station.rules[2], station.rules[0]] });
    expect(routeFor(swapped, 'label', 'dhl', cache.key).target).toBe('cups:Zebra1');
    expect(routeFor(routing, 'label', null, cache.key).target).toBe('cups:Zebra1');
    expect(routeFor(routing, 'label', 'postnord', cache.key).target).toBe('cups:Zebra1');
  });

  it('keeps layout and media in agreement for every media and document type', () => {
    let checked = 0;
    for (const media of PRINTER_MEDIA) {
      const layouts = isSheetMedia(media) ? [undefined, 'a4', '1x2', '3x1', '2x2'] : [undefined];
      for (const layout of layouts) {
        const routing = routingSchema.parse({
          labelPrinter: 'cups:P',
          documentPrinter: 'cups:P',
          printers: [{ name: 'P', uri: 'cups:P', media, ...(layout ? { layout } : {}) }],
        });
        for (const type of DOCUMENT_TYPES) {
          const route = routeFor(routing, type);
          if (type === 'label' && !isSheetMedia(media)) expect(route).toEqual({ target: 'cups:P', layout: 'printer', media });
          else if (type === 'label') expect(route).toEqual({ target: 'cups:P', layout: layout ?? 'a4', media });
          else expect(route).toEqual({ target: 'cups:P', layout: 'a4', media: isSheetMedia(media) ? media : 'a4' });
          checked++;
        }
      }
    }
    expect(checked).toBe((4 + 2 * 5) * DOCUMENT_TYPES.length);
  });

  it('refuses a sheet layout on label stock', () => {
    const bad = routingSchema.safeParse({
      labelPrinter: 'cups:P',
      documentPrinter: 'cups:P',
      printers: [{ name: 'P', uri: 'cups:P', media: '4x4in', layout: '2x2' }],
    });
    expect(bad.success).toBe(false);
  });

  it('names each media to CUPS (IPP and lp) and to Windows', () => {
    expect(ippMedia('100x150mm')).toEqual({ media: 'om_100x150mm_100x150mm', printScaling: 'none' });
    expect(ippMedia('4x4in')).toEqual({ media: 'oe_4x4-label_4x4in', printScaling: 'none' });
    expect(ippMedia('letter')).toEqual({ media: 'na_letter_8.5x11in', printScaling: 'fit' });
    expect(ippMedia('label')).toEqual({ media: 'oe_4x6-label_4x6in', printScaling: 'none' });
    expect(cupsMediaArgs('100x190mm')).toEqual(['-o', 'media=Custom.100x190mm', '-o', 'print-scaling=none']);
    expect(cupsMediaArgs('letter')).toEqual(['-o', 'media=Letter', '-o', 'print-scaling=fit']);
    expect(windowsPrintOptions('Z', '100x150mm', 1)).toEqual({
      printer: 'Z',
      scale: 'noscale',
      paperSize: '100x150mm',
      copies: 1,
      silent: true,
    });
    expect(windowsPrintOptions('O', 'letter', 2)).toEqual({ printer: 'O', scale: 'fit', paperSize: 'Letter', copies: 2, silent: true });
  });
});
